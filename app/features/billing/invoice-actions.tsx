// What the office does to one invoice (docs/billing.md): "Send invoice" (a draft), "Record payment" (a sent one) and
// "Void invoice", asked first with what it does. The confirmation opens from a link (`?confirm=void`), so it works
// before JavaScript and survives a reload.
import type { SubmissionResult } from '@conform-to/react'
import { Form, Link, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button, ButtonLink, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import type { LocalDate } from '~/schedule/local-date'
import { RecordPaymentForm } from './record-payment-form'

type Props = {
  numberLabel: string
  state: 'draft' | 'sent' | 'void'
  /** Payments already on the invoice, in words ("$50.00"), for what voiding does with them; null when none. */
  paid: string | null
  confirmVoid: boolean
  recordPayment: {
    today: LocalDate
    /** Whether the form is open (`?record=payment`): nothing is recorded by one click. */
    open: boolean
    fullAmount: string
    idempotencyKey: string
    formKey: string
  } | null
  refusal: { intent: string; message: string | null; result?: SubmissionResult<string[]> } | undefined
}

export function InvoiceActions({ numberLabel, state, paid, confirmVoid, recordPayment, refusal }: Props) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const refused = (intent: string) => (refusal?.intent === intent && refusal.message ? refusal.message : null)
  return (
    <div className="space-y-6 print:hidden">
      {state === 'draft' ? (
        <Card aria-labelledby="send-heading" className="space-y-3">
          <h2 id="send-heading" className="text-lg font-semibold">
            Draft
          </h2>
          <p className="text-sm text-slate-700">
            Sending issues it today with its due date, emails it to the customer and shows it in their portal.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="send" />
            <Button type="submit" pending={pending === 'send'} pendingLabel="Sending…">
              Send invoice
            </Button>
          </Form>
          {refused('send') ? <Alert tone="error">{refused('send')}</Alert> : null}
        </Card>
      ) : null}
      {recordPayment?.open ? (
        <Card aria-labelledby="record-heading" className="space-y-3">
          <h2 id="record-heading" className="text-lg font-semibold">
            Record payment
          </h2>
          <RecordPaymentForm
            key={recordPayment.formKey}
            today={recordPayment.today}
            fullAmount={recordPayment.fullAmount}
            idempotencyKey={recordPayment.idempotencyKey}
            lastResult={refusal?.intent === 'record-payment' ? refusal.result : undefined}
          />
          <Link to="." className={buttonClass('ghost')} preventScrollReset>
            Cancel
          </Link>
        </Card>
      ) : recordPayment ? (
        <div>
          <ButtonLink to="?record=payment" preventScrollReset>
            Record payment
          </ButtonLink>
        </div>
      ) : null}
      {state === 'void' ? (
        <Card aria-labelledby="reissue-heading" className="space-y-3">
          <h2 id="reissue-heading" className="text-lg font-semibold">
            Re-issue
          </h2>
          <p className="text-sm text-slate-700">
            A new draft with the next number and this invoice’s lines, to correct and send.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="reissue" />
            <Button type="submit" pending={pending === 'reissue'} pendingLabel="Re-issuing…">
              Re-issue invoice
            </Button>
          </Form>
          {refused('reissue') ? <Alert tone="error">{refused('reissue')}</Alert> : null}
        </Card>
      ) : confirmVoid ? (
        <Card aria-labelledby="void-heading" className="space-y-3 border-red-200">
          <h2 id="void-heading" className="text-lg font-semibold">
            Void {numberLabel}?
          </h2>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
            <li>It keeps its number and no longer counts towards the customer’s balance.</li>
            {paid ? <li>The {paid} paid on it becomes the customer’s account credit.</li> : null}
            <li>It cannot be undone: a corrected invoice gets a new number.</li>
          </ul>
          <div className="flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="intent" value="void" />
              <Button type="submit" variant="danger" pending={pending === 'void'} pendingLabel="Voiding…">
                Yes, void invoice
              </Button>
            </Form>
            <Link to="." className={buttonClass('secondary')} preventScrollReset>
              Cancel
            </Link>
          </div>
          {refused('void') ? <Alert tone="error">{refused('void')}</Alert> : null}
        </Card>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-600">Billed by mistake? Void it; its number is kept.</p>
          <ButtonLink to="?confirm=void" variant="secondary" preventScrollReset>
            Void invoice
          </ButtonLink>
        </div>
      )}
    </div>
  )
}
