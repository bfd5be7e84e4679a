// Approving a quote (issue 33 item 3, docs/quotes.md): the customer's "Approve" (optional items ticked, typed name,
// signature) and "Decline" with a reason in the portal; the office's "Mark as approved" (who, how, when); and the
// decision as the office reads it.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import type { ReactNode } from 'react'
import { Form } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { SelectField, TextareaField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import type { DepositData } from './quote-approval.server'
import type { QuoteDocument } from './quote-page.server'
import { ApproveQuoteSchema, DeclineQuoteSchema, MarkApprovedSchema } from './quote-schemas'
import { SignaturePad } from './signature-pad'

function OptionalChoices({ quote }: { quote: QuoteDocument }) {
  const optional = quote.lines.filter((line) => line.optional)
  if (!optional.length) return null
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-semibold">Optional items</legend>
      {optional.map((line) => (
        <label key={line.id} className="flex min-h-11 items-center gap-3 text-sm">
          <input type="checkbox" name="optionalLineId" value={line.id} className="size-5 rounded border-slate-300" />
          {line.description} (+{line.amount})
        </label>
      ))}
    </fieldset>
  )
}

export function ApproveQuoteForm({
  quote,
  lastResult,
  disabled,
  withDeposit = false,
}: {
  quote: QuoteDocument
  lastResult?: SubmissionResult<string[]>
  disabled: boolean
  /** Stripe is set and the quote asks for a deposit: approving goes on to pay it by card. */
  withDeposit?: boolean
}) {
  const posting = usePosting('approve')
  const [form, fields] = useZodForm(ApproveQuoteSchema, { id: 'approve-quote', lastResult, constraint: null })
  return (
    <Card className="space-y-4" aria-labelledby="approve-heading">
      <h2 id="approve-heading" className="text-lg font-semibold">
        Approve this quote
      </h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="approve" />
        <input type="hidden" name="versionId" value={quote.versionId} />
        <OptionalChoices quote={quote} />
        <TextField field={fields.signerName} label="Your full name" autoComplete="name" />
        <SignaturePad name="signature" />
        <FormErrors form={form} />
        {withDeposit ? (
          <p className="text-sm text-slate-700">
            Approving takes you to Stripe's secure page to pay the deposit by card.
          </p>
        ) : null}
        <Button type="submit" pending={posting} pendingLabel="Approving…" disabled={disabled}>
          {withDeposit ? 'Approve and pay deposit' : 'Approve'}
        </Button>
      </Form>
    </Card>
  )
}

export function DeclineQuoteForm({
  quote,
  lastResult,
  disabled,
}: {
  quote: QuoteDocument
  lastResult?: SubmissionResult<string[]>
  disabled: boolean
}) {
  const posting = usePosting('decline')
  const [form, fields] = useZodForm(DeclineQuoteSchema, { id: 'decline-quote', lastResult })
  return (
    <Card className="space-y-4" aria-labelledby="decline-heading">
      <h2 id="decline-heading" className="text-lg font-semibold">
        Decline
      </h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="decline" />
        <input type="hidden" name="versionId" value={quote.versionId} />
        <TextareaField field={fields.reason} label="Reason" />
        <FormErrors form={form} />
        <Button type="submit" variant="secondary" pending={posting} pendingLabel="Declining…" disabled={disabled}>
          Decline
        </Button>
      </Form>
    </Card>
  )
}

export function MarkApprovedForm({
  quote,
  today,
  lastResult,
}: {
  quote: QuoteDocument
  today: string
  lastResult?: SubmissionResult<string[]>
}) {
  const posting = usePosting('mark-approved')
  const [form, fields] = useZodForm(MarkApprovedSchema, {
    id: 'mark-approved',
    lastResult,
    constraint: null,
    defaultValue: { approvedBy: quote.customerName, method: 'phone', approvedOn: today },
  })
  return (
    <Card className="space-y-4" aria-labelledby="mark-approved-heading">
      <h2 id="mark-approved-heading" className="text-lg font-semibold">
        Mark as approved
      </h2>
      <p className="text-sm text-slate-700">For a quote approved by phone, on paper or in person.</p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="mark-approved" />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField field={fields.approvedBy} label="Who approved" />
          <SelectField
            field={fields.method}
            label="How"
            options={[
              { value: 'phone', label: 'Phone' },
              { value: 'paper', label: 'Paper' },
              { value: 'in-person', label: 'In person' },
            ]}
          />
          <TextField field={fields.approvedOn} label="When" type="date" />
        </div>
        <OptionalChoices quote={quote} />
        <FormErrors form={form} />
        <Button type="submit" variant="secondary" pending={posting} pendingLabel="Saving…">
          Mark as approved
        </Button>
      </Form>
    </Card>
  )
}

export type DecisionData = {
  heading: string
  lines: string[]
  total: string | null
  deposit: string | null
}

/**
 * The deposit in the portal (decision 062): received, on its way (back from Stripe's page before the webhook landed),
 * or due — with "Pay deposit" when the customer can pay it here by card.
 */
export function DepositStatus({
  deposit,
  returned,
  companyName,
  pay,
}: {
  deposit: DepositData
  returned: boolean
  companyName: string | null
  pay: ReactNode
}) {
  return (
    <Card className="space-y-3" aria-labelledby="deposit-heading">
      <h2 id="deposit-heading" className="text-lg font-semibold">
        Deposit
      </h2>
      {deposit.due === null ? (
        <p role="status">Thank you — your deposit of {deposit.paid} was received.</p>
      ) : returned ? (
        <p role="status">
          Payment processing: your deposit of {deposit.due} is on its way. This page shows it once it is received.
        </p>
      ) : (
        <>
          <p>
            Deposit due <strong className="tabular-nums">{deposit.due}</strong>
            {pay ? null : `: ${companyName || 'the company'} will tell you how to pay it.`}
          </p>
          {pay}
        </>
      )}
    </Card>
  )
}

/** "Pay deposit": Stripe's Checkout page for the deposit still due. */
export function PayDepositForm({ due }: { due: string }) {
  const posting = usePosting('pay-deposit')
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="pay-deposit" />
      <Button type="submit" pending={posting} pendingLabel="Opening payment…">
        Pay deposit {due}
      </Button>
    </Form>
  )
}

export function QuoteDecisionCard({ decision, deposit }: { decision: DecisionData; deposit?: DepositData | null }) {
  return (
    <Card className="space-y-2" aria-labelledby="decision-heading">
      <h2 id="decision-heading" className="text-lg font-semibold">
        {decision.heading}
      </h2>
      {decision.lines.map((line) => (
        <p key={line} className="text-sm wrap-anywhere">
          {line}
        </p>
      ))}
      {decision.total ? (
        <p className="text-sm">
          Approved total <strong data-testid="approved-total">{decision.total}</strong>
          {decision.deposit ? ` · deposit ${decision.deposit}` : ''}
        </p>
      ) : null}
      {deposit?.paidLines.map((line) => (
        <p key={line} className="text-sm" data-testid="deposit-paid">
          {line}
        </p>
      ))}
      {deposit?.due ? (
        <p className="text-sm" data-testid="deposit-due">
          Deposit due <strong className="tabular-nums">{deposit.due}</strong>
        </p>
      ) : null}
    </Card>
  )
}

export function ApprovalRefusal({ message }: { message: string | undefined }) {
  return message ? <Alert tone="error">{message}</Alert> : null
}
