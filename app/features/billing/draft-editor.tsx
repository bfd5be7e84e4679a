// The draft editor on the office's invoice page (issue 31 item 1; docs/billing.md): each line with "Edit" and
// "Remove line" (asked first: the confirmation opens from a link, `?remove=<line>`, so it works before JavaScript),
// "Add line" (Description, Quantity, Unit price; an inventory item fills the description and price left blank),
// "Add discount" and "Note for customer". The server recomputes the totals after each change.
import { Form, Link, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { Field, FieldFrame, inputClass } from '~/components/ui/field'
import { textLinkTarget } from '~/components/ui/touch'

type EditorLine = { id: string; kind: string; description: string; quantity: string; unitPrice: string }

type Props = {
  editor: {
    lines: EditorLine[]
    editLineId: string | null
    removeLineId: string | null
    note: string
    items: { id: string; label: string }[]
  }
  refusal: { intent: string; message: string | null } | undefined
}

const linkClass = cn('font-medium text-brand-700 hover:underline', textLinkTarget)

function LineFields({ line, items }: { line?: EditorLine; items: Props['editor']['items'] }) {
  const discount = line?.kind === 'discount'
  return (
    <div className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
      <Field
        label="Description"
        inputProps={{ name: 'description', defaultValue: line?.description ?? '', maxLength: 200 }}
      />
      <Field
        label="Quantity"
        inputProps={{ name: 'quantity', defaultValue: line?.quantity ?? '1', inputMode: 'decimal', required: true }}
      />
      <Field
        label={discount ? 'Discount' : 'Unit price'}
        hint={line ? undefined : 'Blank: the item’s price.'}
        inputProps={{ name: 'unitPrice', defaultValue: line?.unitPrice ?? '', inputMode: 'decimal' }}
      />
      {!line && items.length > 0 ? (
        <FieldFrame id="draft-line-item" label="Inventory item (optional)" className="sm:col-span-3">
          <select id="draft-line-item" name="inventoryItemId" className={inputClass} defaultValue="">
            <option value="">None</option>
            {items.map((item) => (
              <option key={item.id} value={item.id}>
                {item.label}
              </option>
            ))}
          </select>
        </FieldFrame>
      ) : null}
    </div>
  )
}

export function DraftEditor({ editor, refusal }: Props) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const refused = (intent: string) => (refusal?.intent === intent && refusal.message ? refusal.message : null)
  return (
    <div className="space-y-6 print:hidden">
      <Card aria-labelledby="draft-lines-heading" className="space-y-3">
        <h2 id="draft-lines-heading" className="text-lg font-semibold">
          Edit draft
        </h2>
        <ul className="divide-y divide-slate-100 text-sm">
          {editor.lines.map((line) => (
            <li key={line.id} className="space-y-2 py-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="wrap-anywhere">{line.description}</span>
                <span className="flex gap-3">
                  <Link to={`?edit=${line.id}`} preventScrollReset className={linkClass}>
                    Edit<span className="sr-only"> {line.description}</span>
                  </Link>
                  <Link to={`?remove=${line.id}`} preventScrollReset className={linkClass}>
                    Remove line<span className="sr-only"> {line.description}</span>
                  </Link>
                </span>
              </div>
              {editor.editLineId === line.id ? (
                <Form method="post" className="space-y-3" aria-label={`Edit ${line.description}`}>
                  <input type="hidden" name="intent" value="edit-line" />
                  <input type="hidden" name="lineId" value={line.id} />
                  <LineFields line={line} items={editor.items} />
                  <div className="flex flex-wrap gap-2">
                    <Button type="submit" pending={pending === 'edit-line'} pendingLabel="Saving…">
                      Save line
                    </Button>
                    <Link to="." className={buttonClass('secondary')} preventScrollReset>
                      Cancel
                    </Link>
                  </div>
                  {refused('edit-line') ? <Alert tone="error">{refused('edit-line')}</Alert> : null}
                </Form>
              ) : null}
              {editor.removeLineId === line.id ? (
                <div className="space-y-2 rounded-md border border-red-200 p-3">
                  <p className="font-semibold">Remove “{line.description}”?</p>
                  <p className="text-slate-700">The totals are worked out again without it.</p>
                  <div className="flex flex-wrap gap-2">
                    <Form method="post">
                      <input type="hidden" name="intent" value="remove-line" />
                      <input type="hidden" name="lineId" value={line.id} />
                      <Button
                        type="submit"
                        variant="danger"
                        pending={pending === 'remove-line'}
                        pendingLabel="Removing…"
                      >
                        Yes, remove line
                      </Button>
                    </Form>
                    <Link to="." className={buttonClass('secondary')} preventScrollReset>
                      Cancel
                    </Link>
                  </div>
                  {refused('remove-line') ? <Alert tone="error">{refused('remove-line')}</Alert> : null}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      </Card>
      <Card aria-labelledby="add-line-heading" className="space-y-3">
        <h2 id="add-line-heading" className="text-lg font-semibold">
          Add line
        </h2>
        {/* A new key for each line saved: the form starts empty again after a redirect. */}
        <Form key={editor.lines.length} method="post" className="space-y-3" aria-labelledby="add-line-heading">
          <input type="hidden" name="intent" value="add-line" />
          <LineFields items={editor.items} />
          <Button type="submit" pending={pending === 'add-line'} pendingLabel="Adding…">
            Add line
          </Button>
          {refused('add-line') ? <Alert tone="error">{refused('add-line')}</Alert> : null}
        </Form>
      </Card>
      <Card aria-labelledby="add-discount-heading" className="space-y-3">
        <h2 id="add-discount-heading" className="text-lg font-semibold">
          Add discount
        </h2>
        <Form key={editor.lines.length} method="post" className="space-y-3" aria-labelledby="add-discount-heading">
          <input type="hidden" name="intent" value="add-discount" />
          <div className="grid gap-3 sm:grid-cols-[2fr_1fr]">
            <Field
              label="Discount description"
              inputProps={{ name: 'description', placeholder: 'Discount', maxLength: 200 }}
            />
            <Field label="Discount amount" inputProps={{ name: 'amount', inputMode: 'decimal', required: true }} />
          </div>
          <Button type="submit" pending={pending === 'add-discount'} pendingLabel="Adding…">
            Add discount
          </Button>
          {refused('add-discount') ? <Alert tone="error">{refused('add-discount')}</Alert> : null}
        </Form>
      </Card>
      <Card aria-labelledby="note-heading" className="space-y-3">
        <h2 id="note-heading" className="text-lg font-semibold">
          Note for customer
        </h2>
        <Form method="post" className="space-y-3" aria-labelledby="note-heading">
          <input type="hidden" name="intent" value="save-note" />
          <FieldFrame
            id="draft-note"
            label="Note for customer"
            hideLabel
            hint="Shown on the invoice, in the portal and the email."
          >
            <textarea
              id="draft-note"
              name="note"
              rows={3}
              maxLength={1000}
              defaultValue={editor.note}
              className={inputClass}
            />
          </FieldFrame>
          <Button type="submit" pending={pending === 'save-note'} pendingLabel="Saving…">
            Save note
          </Button>
          {refused('save-note') ? <Alert tone="error">{refused('save-note')}</Alert> : null}
        </Form>
      </Card>
    </div>
  )
}
