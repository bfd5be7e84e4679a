// The new-visit form's customer field (docs/product.md "Customers"): a combobox that searches every active customer as
// the dispatcher types (the /app/customers/picker resource route, a moment after the last key), then offers the chosen
// customer's service locations. Keyboard: ↓/↑ move through the matches, Enter chooses, Escape closes the list
// (and, when it is already closed, clears the text). The ARIA 1.2 combobox pattern, so screen readers announce the
// highlighted match.
import { useEffect, useId, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { cn } from '~/components/ui/cn'
import { FieldFrame, inputClass } from '~/components/ui/field'

const DEBOUNCE_MS = 250

/** One match as /app/customers/picker sends it. */
export type PickedCustomer = {
  id: string
  customerName: string
  /** First address, email and phone, to tell two customers of one name apart. */
  detail: string
  locations: Array<{ id: string; label: string | null; address: string }>
}

export function CustomerPicker({
  name,
  textName,
  label,
  onPick,
  resetKey,
}: {
  /** The hidden field that carries the chosen customer's id. */
  name: string
  /** The typed text's own field: without JavaScript nothing is chosen, and the server finds the customer by it. */
  textName: string
  label: string
  /** Called with the chosen customer, or null when the text no longer names one. */
  onPick: (customer: PickedCustomer | null) => void
  /** Changing it empties the field (the form was reset after a save). */
  resetKey?: unknown
}) {
  const id = useId()
  const listId = `${id}-list`
  const fetcher = useFetcher<{ query: string; customers: PickedCustomer[] }>()
  const [text, setText] = useState('')
  const [chosen, setChosen] = useState<PickedCustomer | null>(null)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])

  const [shownReset, setShownReset] = useState(resetKey)
  if (shownReset !== resetKey) {
    setShownReset(resetKey)
    setText('')
    setChosen(null)
    setOpen(false)
    setActive(-1)
  }

  const matches = fetcher.data?.customers ?? []
  // "Searching" means the matches shown are not yet for the text in the box. Not the fetcher's state: a live update
  // elsewhere on the page reloads this fetcher too, and the answer must not blink out while the same query reloads.
  const searching = fetcher.data?.query !== text.trim().slice(0, 100)

  function search(query: string) {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      fetcher.load(`/app/customers/picker?${new URLSearchParams({ q: query })}`)
    }, DEBOUNCE_MS)
  }

  function choose(customer: PickedCustomer) {
    setChosen(customer)
    setText(customer.customerName)
    setOpen(false)
    setActive(-1)
    onPick(customer)
  }

  return (
    <FieldFrame id={id} label={label} className="relative text-sm font-medium">
      <input
        id={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${id}-option-${active}` : undefined}
        name={textName}
        autoComplete="off"
        placeholder="Type a name, address, email or phone"
        value={text}
        className={inputClass}
        onChange={(event) => {
          const value = event.target.value
          setText(value)
          setOpen(true)
          setActive(-1)
          if (chosen) {
            setChosen(null)
            onPick(null)
          }
          search(value)
        }}
        onFocus={() => {
          if (!fetcher.data && fetcher.state === 'idle') search(text)
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault()
            if (!open) setOpen(true)
            setActive((index) => Math.min(index + 1, matches.length - 1))
          } else if (event.key === 'ArrowUp') {
            event.preventDefault()
            setActive((index) => Math.max(index - 1, 0))
          } else if (event.key === 'Enter') {
            // Enter chooses the highlighted match; it never submits the form half-filled.
            if (open) {
              event.preventDefault()
              const match = matches[active] ?? (matches.length === 1 ? matches[0] : undefined)
              if (match) choose(match)
            }
          } else if (event.key === 'Escape') {
            if (open) {
              event.preventDefault()
              setOpen(false)
            } else if (text) {
              event.preventDefault()
              setText('')
              setChosen(null)
              onPick(null)
            }
          }
        }}
      />
      <input type="hidden" name={name} value={chosen?.id ?? ''} />
      {/* The ARIA combobox pattern: focus stays in the input, which points at the active option
          (aria-activedescendant); options are reachable by arrow keys, never by Tab. */}
      <div
        id={listId}
        role="listbox"
        aria-label={`${label} matches`}
        hidden={!open || matches.length === 0}
        className="absolute z-30 mt-1 max-h-80 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
      >
        {matches.map((customer, index) => (
          <div
            key={customer.id}
            id={`${id}-option-${index}`}
            role="option"
            tabIndex={-1}
            aria-selected={index === active}
            // Chosen on mousedown, before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault()
              choose(customer)
            }}
            className={cn(
              'cursor-pointer px-3 py-2',
              index === active ? 'bg-brand-50 text-brand-900' : 'text-slate-900 hover:bg-slate-50',
            )}
          >
            <span className="block font-medium">{customer.customerName}</span>
            {customer.detail ? (
              <span className="block truncate text-xs font-normal text-slate-600">{customer.detail}</span>
            ) : null}
          </div>
        ))}
      </div>
      {open && matches.length === 0 && !searching && fetcher.data ? (
        <p className="absolute z-30 mt-1 w-full rounded-lg border border-slate-200 bg-white px-3 py-2 font-normal text-slate-600 shadow-lg">
          No customers match “{fetcher.data.query}”.
        </p>
      ) : null}
      <p aria-live="polite" className="sr-only">
        {open && fetcher.data && !searching
          ? `${matches.length} ${matches.length === 1 ? 'customer' : 'customers'} found`
          : ''}
      </p>
    </FieldFrame>
  )
}
