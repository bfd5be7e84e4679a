// The "Record payment" form (docs/billing.md) on the invoice page and on the customer record: one schema, parsed by
// Conform in the browser and again by the action. Safe in the browser (no database here).
import { z } from 'zod'
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '~/billing/billing-fields'
import { PAYMENT_MESSAGES } from '~/billing/payment-messages'
import { parseDollars } from '~/models/service-plan-schemas'
import { isLocalDate, type LocalDate } from '~/schedule/local-date'
import { isUuid } from '~/utils/ids'

export const RECORD_PAYMENT_INTENT = 'record-payment'

/** "Apply to": the value that records the money as the customer's account credit (no invoice). */
export const ACCOUNT_CREDIT = 'credit'

export const REFERENCE_MAX = 100

export const PAYMENT_FORM_MESSAGES = {
  amountMissing: 'Enter the amount received.',
  amountFormat: 'Enter the amount in dollars and cents, like 120 or 1,234.50.',
  amountPositive: PAYMENT_MESSAGES.amount,
  dateMissing: 'Enter the date the payment was received.',
  dateFormat: 'Enter the date as a date, like 2026-11-30.',
  futureDate: PAYMENT_MESSAGES.futureDate,
  method: 'Choose how it was paid: Cash, Check, Card or Bank transfer.',
  appliesTo: 'Choose an open invoice or “Account credit”.',
  referenceTooLong: `Use at most ${REFERENCE_MAX} characters.`,
} as const

export const PAYMENT_METHOD_OPTIONS = PAYMENT_METHODS.map((method) => ({
  value: method,
  label: PAYMENT_METHOD_LABELS[method],
}))

const amount = z.string({ error: PAYMENT_FORM_MESSAGES.amountMissing }).transform((text, ctx) => {
  // "$1,234.50", "1234.5", "85": whole cents without floating point; three decimals or a sign is not an amount.
  const cents = parseDollars(text)
  if (cents === null) {
    ctx.addIssue({ code: 'custom', message: PAYMENT_FORM_MESSAGES.amountFormat })
    return z.NEVER
  }
  if (cents <= 0) {
    ctx.addIssue({ code: 'custom', message: PAYMENT_FORM_MESSAGES.amountPositive })
    return z.NEVER
  }
  return cents
})

/**
 * The form's schema. `today` is the company's today (the loader's, in the browser; the action's own on the server):
 * a payment is received on or before it. `withTarget` adds "Apply to" (the customer record chooses the invoice; the
 * invoice page is the invoice).
 */
export function recordPaymentSchema({ today, withTarget }: { today: LocalDate; withTarget: boolean }) {
  const appliesTo = z
    .string({ error: PAYMENT_FORM_MESSAGES.appliesTo })
    .refine((value) => value === ACCOUNT_CREDIT || isUuid(value), PAYMENT_FORM_MESSAGES.appliesTo)
  return z.object({
    amount,
    receivedOn: z
      .string({ error: PAYMENT_FORM_MESSAGES.dateMissing })
      .trim()
      // One reason at a time: a date that is not one is not also "in the future".
      .refine(isLocalDate, { error: PAYMENT_FORM_MESSAGES.dateFormat, abort: true })
      .refine((date) => date <= today, PAYMENT_FORM_MESSAGES.futureDate),
    method: z.enum(PAYMENT_METHODS, { error: PAYMENT_FORM_MESSAGES.method }),
    reference: z
      .string()
      .trim()
      .max(REFERENCE_MAX, PAYMENT_FORM_MESSAGES.referenceTooLong)
      .optional()
      .transform((value) => value || null),
    // On an invoice's own page the invoice is the page's: nothing to choose (and anything posted is not read).
    appliesTo: withTarget ? appliesTo : appliesTo.optional(),
  })
}
