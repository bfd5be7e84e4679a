// The office's quote editor (issue 33 item 2): "Add line" from the price book or typed, with "Optional"; the terms
// ("Deposit", "Valid until", "Note for customer"). Editing a sent quote makes its next version (docs/quotes.md).
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { CheckboxField, SelectField, TextareaField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import type { QuoteDocument } from './quote-page.server'
import { QuoteLineSchema, QuoteTermsSchema } from './quote-schemas'

export function AddQuoteLineForm({
  priceBook,
  itemQuery,
  moreItems,
  lastResult,
  saved,
  sent,
}: {
  priceBook: { value: string; label: string }[]
  /** The "Find in price book" text the list was narrowed by ('' for none). */
  itemQuery: string
  /** More items match than the list shows: search to narrow it. */
  moreItems: boolean
  lastResult?: SubmissionResult<string[]>
  saved?: string
  sent: boolean
}) {
  const posting = usePosting('add-line')
  const [form, fields] = useZodForm(QuoteLineSchema, {
    id: 'quote-add-line',
    lastResult,
    defaultValue: { quantity: '1' },
  })
  return (
    <Card className="space-y-4" aria-labelledby="quote-add-line-heading">
      <h2 id="quote-add-line-heading" className="text-lg font-semibold">
        Add line
      </h2>
      {sent ? (
        <p className="text-sm text-slate-700">
          This version was sent: a change makes a new version, and the customer sees it once you send the quote again.
        </p>
      ) : null}
      <Form method="get" role="search" className="flex flex-wrap items-end gap-2" preventScrollReset>
        <div className="space-y-1">
          <label htmlFor="quote-item-search" className="block text-sm font-medium">
            Find in price book
          </label>
          <input
            id="quote-item-search"
            name="item"
            type="search"
            defaultValue={itemQuery}
            className="input-field"
            autoComplete="off"
          />
        </div>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </Form>
      {itemQuery && priceBook.length === 0 ? (
        <p className="text-sm text-slate-700">No price book item’s name contains “{itemQuery}”.</p>
      ) : null}
      {moreItems ? (
        <p className="text-sm text-slate-700">
          The list shows the first {priceBook.length} items{itemQuery ? ' found' : ''}: search to find others.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="add-line" />
        <SelectField
          field={fields.priceBookItemId}
          label="Price book item"
          hint="Leave description and unit price blank to use the item's."
          options={priceBook}
        >
          <option value="">None (type the line)</option>
        </SelectField>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField field={fields.description} label="Description" className="sm:col-span-3" autoComplete="off" />
          <TextField field={fields.quantity} label="Quantity" inputMode="decimal" />
          <TextField field={fields.unitPrice} label="Unit price ($)" inputMode="decimal" placeholder="45.00" />
        </div>
        <CheckboxField field={fields.optional} label="Optional" />
        <FormErrors form={form} />
        {saved && !form.errors?.length ? <Alert tone="success">{saved}</Alert> : null}
        <Button type="submit" pending={posting} pendingLabel="Adding…">
          Add line
        </Button>
      </Form>
    </Card>
  )
}

export function QuoteTermsForm({
  quote,
  lastResult,
  saved,
}: {
  quote: QuoteDocument
  lastResult?: SubmissionResult<string[]>
  saved?: string
}) {
  const posting = usePosting('terms')
  const [form, fields] = useZodForm(QuoteTermsSchema, {
    id: 'quote-terms',
    lastResult,
    constraint: null,
    defaultValue: {
      depositKind: quote.depositKind,
      depositPercent: quote.depositPercent,
      depositAmount: quote.depositAmount,
      validUntil: quote.validUntil ?? '',
      note: quote.note ?? '',
    },
  })
  return (
    <Card className="space-y-4" aria-labelledby="quote-terms-heading">
      <h2 id="quote-terms-heading" className="text-lg font-semibold">
        Terms
      </h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="terms" />
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField
            field={fields.depositKind}
            label="Deposit"
            options={[
              { value: 'none', label: 'No deposit' },
              { value: 'percent', label: 'Percent of total' },
              { value: 'amount', label: 'Amount' },
            ]}
          />
          <TextField field={fields.depositPercent} label="Deposit percent" inputMode="numeric" placeholder="30" />
          <TextField field={fields.depositAmount} label="Deposit amount ($)" inputMode="decimal" placeholder="250" />
          <TextField field={fields.validUntil} label="Valid until" type="date" />
        </div>
        <TextareaField field={fields.note} label="Note for customer" />
        <FormErrors form={form} />
        {saved && !form.errors?.length ? <Alert tone="success">{saved}</Alert> : null}
        <Button type="submit" pending={posting} pendingLabel="Saving…">
          Save terms
        </Button>
      </Form>
    </Card>
  )
}
