// "Refund" on the office's invoice page (decision 032): which card payment, and how much of it (all or part), in
// dollars as people type them. Asked first: the page shows what will be given back before anything is sent to Stripe.
// Safe in the browser (no database here).
import { z } from 'zod'
import { parseDollars } from '~/models/service-plan-schemas'
import { isUuid } from '~/utils/ids'

export const REFUND_INTENT = 'refund'

export const REFUND_FORM_MESSAGES = {
  payment: 'Choose the card payment to refund.',
  amountMissing: 'Enter the amount to refund.',
  amountFormat: 'Enter the amount in dollars and cents, like 93 or 1,234.50.',
  amountPositive: 'Enter an amount greater than $0.00.',
} as const

export const RefundSchema = z.object({
  paymentId: z.string({ error: REFUND_FORM_MESSAGES.payment }).refine(isUuid, REFUND_FORM_MESSAGES.payment),
  amount: z.string({ error: REFUND_FORM_MESSAGES.amountMissing }).transform((text, ctx) => {
    const cents = parseDollars(text)
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: REFUND_FORM_MESSAGES.amountFormat })
      return z.NEVER
    }
    if (cents <= 0) {
      ctx.addIssue({ code: 'custom', message: REFUND_FORM_MESSAGES.amountPositive })
      return z.NEVER
    }
    return cents
  }),
})
