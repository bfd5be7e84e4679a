// Settings → "Checklist" (docs/product.md "The visit"): the items technicians tick on every visit, in order. Owners and
// admins add, rename, reorder and remove items and set "Photo required"; dispatchers read it. Every control is a plain
// form posting an intent to the settings page, so it works before JavaScript; with it, one shared fetcher sends them,
// shows what is pending, and keeps the keyboard's place when a row moves or goes.
import { getFormProps } from '@conform-to/react'
import { type ReactNode, useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { TextField } from '~/components/ui/field'
import { useZodForm } from '~/components/ui/form'
import { CHECKLIST_LIMIT } from '~/models/checklist-rules'
import { useHydrated } from '~/utils/use-hydrated'
import { AddChecklistItemSchema, type ChecklistReply, RenameChecklistItemSchema } from './checklist-forms'

const ACTION = '/app/settings'
/** One fetcher for the section: its rows disable their buttons while any checklist change is on its way. */
const FETCHER_KEY = 'settings-checklist'

type Item = { id: string; label: string; photoRequired: boolean }
type ChecklistFetcher = ReturnType<typeof useFetcher<{ checklist: ChecklistReply }>>

const useChecklistFetcher = () => useFetcher<{ checklist: ChecklistReply }>({ key: FETCHER_KEY })

/** A `<summary>` that looks like a button (no disclosure triangle in any browser). */
const summaryClass = (variant: 'secondary' | 'ghost') =>
  buttonClass(variant, 'cursor-pointer list-none px-3 [&::-webkit-details-marker]:hidden')

export function ChecklistSection({
  items,
  canEdit,
  reply: pageReply,
}: {
  items: readonly Item[]
  canEdit: boolean
  /** The answer to a checklist form posted without JavaScript (the page's action data). */
  reply: ChecklistReply | undefined
}) {
  const fetcher = useChecklistFetcher()
  const busy = fetcher.state !== 'idle'
  const reply = busy ? undefined : (fetcher.data?.checklist ?? pageReply)
  const section = useKeepFocus(fetcher)
  const hydrated = useHydrated()
  // Refusals of "Add item" and rename show at their field; everything else answers here.
  const message = reply?.message && !(reply.tone === 'error' && reply.result) ? reply : undefined
  return (
    <Card ref={section} aria-labelledby="checklist-heading" className="space-y-4">
      <div className="space-y-1">
        <h2 id="checklist-heading" className="text-lg font-semibold">
          Checklist
        </h2>
        <p className="text-sm text-slate-700">
          What technicians tick on every visit, in this order. With “Photo required”, a visit cannot be completed
          without a photo while that item is ticked.
        </p>
      </div>
      {canEdit ? null : <Alert tone="info">Only owners and admins can change the checklist.</Alert>}
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">No items: technicians see no checklist on their visits.</p>
      ) : (
        <ol aria-label="Checklist items" className="divide-y divide-slate-200 border-y border-slate-200">
          {items.map((item, index) =>
            canEdit ? (
              <EditableRow
                key={item.id}
                item={item}
                number={index + 1}
                isFirst={index === 0}
                isLast={index === items.length - 1}
                reply={reply}
                hydrated={hydrated}
              />
            ) : (
              <ReadOnlyRow key={item.id} item={item} number={index + 1} />
            ),
          )}
        </ol>
      )}
      {message ? <ReplyMessage reply={message} /> : null}
      {canEdit ? (
        items.length >= CHECKLIST_LIMIT ? (
          <p className="text-sm text-slate-700">
            The checklist holds at most {CHECKLIST_LIMIT} items. Remove one to add another.
          </p>
        ) : (
          <AddItemForm reply={reply?.intent === 'checklist-add' ? reply : undefined} />
        )
      ) : null}
    </Card>
  )
}

function RowLabel({ number, children }: { number: number; children: ReactNode }) {
  return (
    <p className="flex min-w-0 gap-2 font-medium text-slate-900">
      <span aria-hidden="true" className="w-6 shrink-0 text-right text-slate-500 tabular-nums">
        {number}.
      </span>
      <span className="min-w-0 break-words">{children}</span>
    </p>
  )
}

function ReadOnlyRow({ item, number }: { item: Item; number: number }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <RowLabel number={number}>{item.label}</RowLabel>
      {item.photoRequired ? (
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800">Photo required</span>
      ) : null}
    </li>
  )
}

function EditableRow({
  item,
  number,
  isFirst,
  isLast,
  reply,
  hydrated,
}: {
  item: Item
  number: number
  isFirst: boolean
  isLast: boolean
  reply: ChecklistReply | undefined
  hydrated: boolean
}) {
  const fetcher = useChecklistFetcher()
  const busy = fetcher.state !== 'idle'
  const sending = fetcher.formData?.get('itemId') === item.id ? fetcher.formData : undefined
  const sendingIntent = sending?.get('intent')
  // The box shows what was just asked for until the page has reloaded with it.
  const photoRequired =
    sendingIntent === 'checklist-photo' ? sending?.get('photoRequired') === 'on' : item.photoRequired
  const renameRefused = reply?.intent === 'checklist-rename' && reply.itemId === item.id && reply.tone === 'error'
  return (
    <li data-checklist-item={item.id} tabIndex={-1} className="space-y-2 py-3 focus-visible:outline-2">
      <RowLabel number={number}>{item.label}</RowLabel>
      <div className="flex flex-wrap items-start gap-2 sm:pl-8">
        <fetcher.Form method="post" action={ACTION} className="flex items-center gap-1">
          <input type="hidden" name="intent" value="checklist-photo" />
          <input type="hidden" name="itemId" value={item.id} />
          <label className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
            <input
              type="checkbox"
              name="photoRequired"
              aria-label={`Photo required: ${item.label}`}
              checked={photoRequired}
              onChange={(event) =>
                fetcher.submit(
                  {
                    intent: 'checklist-photo',
                    itemId: item.id,
                    ...(event.currentTarget.checked ? { photoRequired: 'on' } : {}),
                  },
                  { method: 'post', action: ACTION },
                )
              }
              className="size-5 shrink-0 accent-brand-700"
            />
            <span>Photo required</span>
          </label>
          {/* Before JavaScript a ticked box needs a button to send it; after, ticking sends it. */}
          {hydrated ? null : (
            <Button
              type="submit"
              variant="secondary"
              className="px-3"
              aria-label={`Save Photo required: ${item.label}`}
            >
              Save
            </Button>
          )}
        </fetcher.Form>
        <fetcher.Form method="post" action={ACTION} className="flex gap-2">
          <input type="hidden" name="intent" value="checklist-move" />
          <input type="hidden" name="itemId" value={item.id} />
          {(['up', 'down'] as const).map((direction) => (
            <Button
              key={direction}
              type="submit"
              name="direction"
              value={direction}
              variant="secondary"
              className="min-w-11 px-3"
              data-move={`${item.id}:${direction}`}
              aria-label={`Move ${direction}: ${item.label}`}
              disabled={busy || (direction === 'up' ? isFirst : isLast)}
            >
              {/* An arrow on a phone, where four words would not fit one line; its name says it all. */}
              <span aria-hidden="true">{direction === 'up' ? '↑' : '↓'}</span>
              <span className="hidden sm:inline">Move {direction}</span>
            </Button>
          ))}
        </fetcher.Form>
        {/* A new label closes the rename (a new element); a refusal keeps it open, with or without JavaScript. */}
        <details key={`rename-${item.label}`} open={renameRefused} className="group/rename open:basis-full">
          <summary data-checklist-rename={item.id} className={summaryClass('secondary')}>
            <span className="group-open/rename:hidden">
              Rename<span className="sr-only"> {item.label}</span>
            </span>
            <span className="hidden group-open/rename:inline">
              Cancel rename<span className="sr-only"> {item.label}</span>
            </span>
          </summary>
          <RenameForm item={item} fetcher={fetcher} reply={renameRefused ? reply : undefined} />
        </details>
        <details className="group/remove open:basis-full">
          <summary className={summaryClass('ghost')}>
            <span className="group-open/remove:hidden">
              Remove<span className="sr-only"> {item.label}</span>
            </span>
            <span className="hidden group-open/remove:inline">
              Keep<span className="sr-only"> {item.label}</span>
            </span>
          </summary>
          <fetcher.Form
            method="post"
            action={ACTION}
            className="mt-2 flex flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 p-3"
          >
            <input type="hidden" name="intent" value="checklist-remove" />
            <input type="hidden" name="itemId" value={item.id} />
            <p className="basis-full text-sm text-slate-800">
              Remove “{item.label}” from the checklist? Visits already done keep their ticks.
            </p>
            <Button
              type="submit"
              variant="danger"
              disabled={busy}
              pending={sendingIntent === 'checklist-remove'}
              pendingLabel="Removing…"
            >
              Yes, remove
            </Button>
          </fetcher.Form>
        </details>
      </div>
    </li>
  )
}

function RenameForm({
  item,
  fetcher,
  reply,
}: {
  item: Item
  fetcher: ChecklistFetcher
  reply: ChecklistReply | undefined
}) {
  const [form, fields] = useZodForm(RenameChecklistItemSchema, {
    id: `checklist-rename-${item.id}`,
    lastResult: reply?.result,
    defaultValue: { label: item.label },
    shouldValidate: 'onBlur',
  })
  const saving = fetcher.formData?.get('intent') === 'checklist-rename' && fetcher.formData.get('itemId') === item.id
  return (
    <fetcher.Form method="post" action={ACTION} {...getFormProps(form)} className="mt-2 space-y-2">
      <input type="hidden" name="intent" value="checklist-rename" />
      <input type="hidden" name="itemId" value={item.id} />
      <TextField field={fields.label} label={`New name for “${item.label}”`} autoComplete="off" />
      <Button type="submit" pending={saving} pendingLabel="Saving…">
        Save name
      </Button>
    </fetcher.Form>
  )
}

function AddItemForm({ reply }: { reply: ChecklistReply | undefined }) {
  const fetcher = useChecklistFetcher()
  const [form, fields] = useZodForm(AddChecklistItemSchema, { id: 'checklist-add', lastResult: reply?.result })
  const adding = fetcher.formData?.get('intent') === 'checklist-add'
  return (
    <fetcher.Form method="post" action={ACTION} {...getFormProps(form)} className="space-y-2">
      <input type="hidden" name="intent" value="checklist-add" />
      <TextField
        field={fields.label}
        label="New item"
        hint="For example “Clean filter”. It goes at the end; move it where it belongs."
        autoComplete="off"
      />
      <Button type="submit" pending={adding} pendingLabel="Adding…">
        Add item
      </Button>
    </fetcher.Form>
  )
}

/** The answer to the last change, with "Undo" after "Remove". */
function ReplyMessage({ reply }: { reply: ChecklistReply }) {
  const fetcher = useChecklistFetcher()
  const undoing = fetcher.formData?.get('intent') === 'checklist-restore'
  return (
    <Alert tone={reply.tone} className="flex flex-wrap items-center justify-between gap-2">
      <span className="min-w-0 break-words">{reply.message}</span>
      {reply.undo ? (
        <fetcher.Form method="post" action={ACTION}>
          <input type="hidden" name="intent" value="checklist-restore" />
          <input type="hidden" name="itemId" value={reply.undo.itemId} />
          <Button
            type="submit"
            variant="secondary"
            data-checklist-undo=""
            aria-label={undoing ? undefined : `Undo: put “${reply.undo.label}” back`}
            pending={undoing}
            pendingLabel="Undoing…"
          >
            Undo
          </Button>
        </fetcher.Form>
      ) : null}
    </Alert>
  )
}

/**
 * A change re-draws the list under the keyboard: the button pressed is disabled, moved or gone. Once the answer has
 * come and the list has reloaded, focus goes where the person would look next: the same "Move" button (or the other
 * one at an end), "Undo" after "Remove", the row put back by "Undo", the "Rename" of a renamed item.
 */
function useKeepFocus(fetcher: ChecklistFetcher) {
  const section = useRef<HTMLElement>(null)
  const sent = useRef<FormData | undefined>(undefined)
  const handled = useRef<unknown>(undefined)
  if (fetcher.formData) sent.current = fetcher.formData
  useEffect(() => {
    const answer = fetcher.data?.checklist
    if (fetcher.state !== 'idle' || !answer || handled.current === fetcher.data) return
    handled.current = fetcher.data
    const root = section.current
    if (!root || answer.tone !== 'success' || !answer.itemId) return
    const find = (selector: string) => root.querySelector<HTMLElement>(selector)
    const id = CSS.escape(answer.itemId)
    if (answer.intent === 'checklist-move') {
      const direction = sent.current?.get('direction') === 'down' ? 'down' : 'up'
      const other = direction === 'up' ? 'down' : 'up'
      const target = [direction, other]
        .map((d) => find(`button[data-move="${id}:${d}"]`) as HTMLButtonElement | null)
        .find((button) => button && !button.disabled)
      target?.focus()
    } else if (answer.intent === 'checklist-remove') {
      find('[data-checklist-undo]')?.focus()
    } else if (answer.intent === 'checklist-restore') {
      find(`[data-checklist-item="${id}"]`)?.focus()
    } else if (answer.intent === 'checklist-rename') {
      find(`[data-checklist-rename="${id}"]`)?.focus()
    }
  }, [fetcher.state, fetcher.data])
  return section
}
