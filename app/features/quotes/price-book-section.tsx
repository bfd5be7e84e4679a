// Settings → "Price book" (issue 33 item 1): the add/edit form and the paged list with "Search" (name contains),
// "Edit", "Archive" (asked first) and "Restore".
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, Link } from 'react-router'
import { ConfirmForm } from '~/components/confirm-buttons'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Pager } from '~/components/pager'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { CheckboxField, SelectField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { type PriceBookFormValues, PriceBookItemSchema } from './quote-schemas'

export type PriceBookRow = {
  id: string
  name: string
  kind: string
  price: string
  cost: string
  taxable: boolean
  inventoryItemName: string | null
  archived: boolean
}

export function PriceBookForm({
  editing,
  freshKey,
  inventory,
  lastResult,
  saved,
}: {
  editing: PriceBookFormValues | null
  freshKey: string
  inventory: { value: string; label: string }[]
  lastResult?: SubmissionResult<string[]>
  saved?: string
}) {
  const saving = usePosting('save')
  const idempotencyKey = useIdempotencyKey(freshKey, saved)
  const [form, fields] = useZodForm(PriceBookItemSchema, {
    id: `price-book-${editing?.itemId ?? 'new'}`,
    lastResult,
    defaultValue: editing ?? { kind: 'part', taxable: 'on' },
  })
  return (
    <Card className="space-y-4" aria-labelledby="price-book-form">
      <h2 id="price-book-form" className="text-lg font-semibold">
        {editing ? `Edit ${editing.name}` : 'Add an item'}
      </h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="save" />
        {editing ? (
          <input type="hidden" name="itemId" value={editing.itemId} />
        ) : (
          <IdempotencyKeyInput value={idempotencyKey} />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.name} label="Name" autoComplete="off" />
          <SelectField
            field={fields.kind}
            label="Kind"
            options={[
              { value: 'part', label: 'Part' },
              { value: 'labor', label: 'Labor' },
            ]}
          />
          <TextField field={fields.price} label="Price ($)" inputMode="decimal" placeholder="45.00" />
          <TextField
            field={fields.cost}
            label="Cost ($)"
            hint="What it costs you; never shown to customers."
            inputMode="decimal"
            placeholder="20.00"
          />
          <SelectField
            field={fields.inventoryItemId}
            label="Inventory item"
            hint="Parts only: the stock item this part is."
            options={inventory}
          >
            <option value="">None</option>
          </SelectField>
          <CheckboxField field={fields.taxable} label="Taxable" />
        </div>
        <FormErrors form={form} />
        {saved && !form.errors?.length ? <Alert tone="success">{saved}</Alert> : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" pending={saving} pendingLabel="Saving…">
            {editing ? 'Save changes' : 'Add item'}
          </Button>
          {editing ? (
            <Link to="/app/settings/price-book" className={buttonClass('secondary')}>
              Cancel
            </Link>
          ) : null}
        </div>
      </Form>
    </Card>
  )
}

export function PriceBookList({
  items,
  page,
  pageCount,
  archived,
  query,
}: {
  items: PriceBookRow[]
  page: number
  pageCount: number
  archived: boolean
  /** The "Search" text the list is narrowed by ('' for none). */
  query: string
}) {
  const searchParam = query ? `q=${encodeURIComponent(query)}` : ''
  return (
    <Card className="space-y-4" aria-labelledby="price-book-items">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="price-book-items" className="text-lg font-semibold">
          Items
        </h2>
        <Link
          to={`/app/settings/price-book?${[archived ? '' : 'archived=1', searchParam].filter(Boolean).join('&')}`}
          className="text-sm underline"
        >
          {archived ? 'Hide archived items' : 'Show archived items'}
        </Link>
      </div>
      <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
        {archived ? <input type="hidden" name="archived" value="1" /> : null}
        <div className="space-y-1">
          <label htmlFor="price-book-search" className="block text-sm font-medium">
            Search by name
          </label>
          <input
            id="price-book-search"
            name="q"
            type="search"
            defaultValue={query}
            className="input-field"
            autoComplete="off"
          />
        </div>
        <Button type="submit" variant="secondary">
          Search
        </Button>
        {query ? (
          <Link
            to={archived ? '/app/settings/price-book?archived=1' : '/app/settings/price-book'}
            className="text-sm underline"
          >
            Clear search
          </Link>
        ) : null}
      </Form>
      {items.length === 0 ? (
        <p className="text-sm text-slate-700">
          {query
            ? `No item’s name contains “${query}”.`
            : 'No items yet. Add the parts and labor you quote most often.'}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium break-words">
                  {item.name} {item.archived ? <span className="text-sm text-slate-600">(Archived)</span> : null}
                </p>
                <p className="text-sm text-slate-700">
                  {item.kind} · {item.price} · cost {item.cost} · {item.taxable ? 'Taxable' : 'Not taxable'}
                  {item.inventoryItemName ? ` · Stock: ${item.inventoryItemName}` : ''}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Link
                  to={`/app/settings/price-book?edit=${item.id}`}
                  className={buttonClass('secondary')}
                  aria-label={`Edit ${item.name}`}
                >
                  Edit
                </Link>
                {item.archived ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="itemId" value={item.id} />
                    <Button type="submit" variant="secondary" aria-label={`Restore ${item.name}`}>
                      Restore
                    </Button>
                  </Form>
                ) : (
                  <ConfirmForm
                    fields={{ intent: 'archive', itemId: item.id }}
                    label="Archive"
                    question={`Archive ${item.name}? It will no longer be offered on new quotes.`}
                    confirm="Yes, archive"
                  />
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pageCount={pageCount} label="Price book pages" hash="price-book-items" />
    </Card>
  )
}
