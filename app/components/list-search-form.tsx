import { useEffect, useRef } from 'react'
import { Form, useNavigation, useSubmit } from 'react-router'
import { Button } from './ui/button'
import { Field } from './ui/field'

/**
 * The search box of a list page: a plain GET form (works without JavaScript) that also
 * submits by itself shortly after the user stops typing.
 */
export function ListSearchForm({
  path,
  id,
  label,
  placeholder,
  q,
  editingId,
  hidden,
}: {
  /** The list page's path, to tell its own searches from other navigations. */
  path: string
  id: string
  label: string
  placeholder: string
  q: string
  /** Searching while an item is open for editing keeps it open. */
  editingId: string | null
  /** Other parameters of the list that a search keeps (a filter). */
  hidden?: Record<string, string> | undefined
}) {
  const navigation = useNavigation()
  const submit = useSubmit()
  const inputRef = useRef<HTMLInputElement>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  // Back/forward changes q under a field the user is not typing in: show the list's real query.
  useEffect(() => {
    const input = inputRef.current
    if (input && document.activeElement !== input) input.value = q
  }, [q])
  const searching =
    navigation.state === 'loading' &&
    navigation.location.pathname === path &&
    navigation.formMethod?.toUpperCase() === 'GET'
  return (
    <Form
      method="get"
      role="search"
      className="flex flex-wrap items-end gap-2"
      onChange={(event) => {
        const form = event.currentTarget
        clearTimeout(timer.current)
        timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 300)
      }}
      onSubmit={() => clearTimeout(timer.current)}
    >
      <Field
        label={label}
        className="min-w-0 flex-1"
        inputProps={{ ref: inputRef, id, type: 'search', name: 'q', defaultValue: q, maxLength: 100, placeholder }}
      />
      {editingId ? <input type="hidden" name="edit" value={editingId} /> : null}
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant="secondary" pending={searching} pendingLabel="Searching…">
        Search
      </Button>
    </Form>
  )
}
