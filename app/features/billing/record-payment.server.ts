// "Record payment" posted from the invoice page or the customer record: the form parsed with its schema, the
// payment recorded once per form (the form's idempotency key: a double click or a retry after a lost answer records
// one payment, and gets the first answer), and the model's refusals put back on the form next to the field they are
// about, with everything typed kept.

import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { notFound } from '~/auth/guards.server'
import { saveOnce } from '~/features/forms/save-once.server'
import { recordPayment } from '~/models/payment.server'
import { localDateAt } from '~/schedule/local-date'
import { redirectWithFlash } from '~/utils/flash.server'
import { formatCents } from '~/utils/money'
import { ACCOUNT_CREDIT, recordPaymentSchema } from './payment-form'

/** A refusal: Conform's answer for the form and the status to send it with (the route wraps it in its own reply). */
export type RecordPaymentRefusal = { result: SubmissionResult<string[]>; status: number }

type Member = { id: string; companyId: string; timezone: string }

const RECORD_FAILED = 'Unable to record the payment.'

/**
 * Records the posted payment for `customerId` and redirects to `back` with "Payment of $X recorded."; a refusal
 * is returned for the form (400 for what was typed, the model's status for the rest, at the field it names).
 * `invoiceId` is the invoice page's invoice; without it the form's "Apply to" chooses (an open invoice or account
 * credit).
 */
export async function recordPaymentFromForm({
  member,
  customerId,
  invoiceId,
  formData,
  back,
  now = new Date(),
}: {
  member: Member
  customerId: string
  invoiceId?: string
  formData: FormData
  back: string
  now?: Date
}): Promise<RecordPaymentRefusal> {
  const today = localDateAt(now, member.timezone)
  const submission = parseWithZod(formData, { schema: recordPaymentSchema({ today, withTarget: !invoiceId }) })
  if (submission.status !== 'success') return { result: submission.reply(), status: 400 }
  const { amount, receivedOn, method, reference, appliesTo } = submission.value
  const target = invoiceId ?? (appliesTo === ACCOUNT_CREDIT ? null : (appliesTo ?? null))
  const outcome = await saveOnce(
    {
      formData,
      submission,
      companyId: member.companyId,
      userId: member.id,
      // The invoice page's invoice, or the customer whose record the form is on ("Apply to" is in the body).
      target: invoiceId ?? customerId,
      action: 'payment.record',
      failedMessage: RECORD_FAILED,
    },
    (tx) =>
      recordPayment(
        {
          companyId: member.companyId,
          customerId,
          invoiceId: target,
          amountCents: amount,
          receivedOn,
          method,
          reference,
          recordedBy: member.id,
          now,
        },
        tx,
      ),
  )
  if (outcome.ok) return redirectWithFlash(back, `Payment of ${formatCents(amount)} recorded.`)
  // The invoice page's own invoice gone (another company's, say) is a 404 like its page; an invoice chosen on the
  // record that is not the customer's is answered at "Apply to".
  if (outcome.status === 404 && invoiceId) notFound()
  return outcome
}
