// Settings → "Billing" (OPERATIONS §7): the tax rate every invoice carries and the payment terms that set its due
// date. One schema for the section (the browser's check), the settings route's action and their tests, so both
// refuse the same things with the same words. The rate is typed as a percent with up to two decimals and kept in
// basis points (7.25 % → 725): read digit by digit, never through a float, so 7.29 stays 729.
import { z } from 'zod'
import { MAX_PAYMENT_TERMS_DAYS, MAX_TAX_RATE_BASIS_POINTS } from '~/billing/billing-fields'

export const BILLING_SETTINGS_INTENT = 'billing-settings'

export const BILLING_MESSAGES = {
  taxRate: `Enter a tax rate from 0 to ${MAX_TAX_RATE_BASIS_POINTS / 100} %, with at most 2 decimals (like 7.25).`,
  paymentTerms: `Enter payment terms from 0 to ${MAX_PAYMENT_TERMS_DAYS} days.`,
  saved: 'Billing settings saved.',
} as const

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?\s*%?$/

/** "7.25" (or "7.25 %") as basis points (725); null when it is not a percent with at most two decimals. */
export function percentToBasisPoints(text: string): number | null {
  const match = PERCENT.exec(text.trim())
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/** 725 → "7.25", 700 → "7", 750 → "7.5": how the form shows a stored rate. */
export function basisPointsToPercent(basisPoints: number): string {
  const whole = Math.floor(basisPoints / 100)
  const hundredths = basisPoints % 100
  if (hundredths === 0) return String(whole)
  return `${whole}.${String(hundredths).padStart(2, '0')}`.replace(/0$/, '')
}

const paymentTermsDays = z
  .number({ error: BILLING_MESSAGES.paymentTerms })
  .int(BILLING_MESSAGES.paymentTerms)
  .min(0, BILLING_MESSAGES.paymentTerms)
  .max(MAX_PAYMENT_TERMS_DAYS, BILLING_MESSAGES.paymentTerms)

/** The form's fields as typed (what the browser's constraints are read from: no transforms). */
export const BillingSettingsFields = z.object({
  taxRate: z.string({ error: BILLING_MESSAGES.taxRate }),
  paymentTermsDays,
})

export const BillingSettingsSchema = z.object({
  taxRate: z.string({ error: BILLING_MESSAGES.taxRate }).transform((text, context) => {
    const basisPoints = percentToBasisPoints(text)
    if (basisPoints === null || basisPoints > MAX_TAX_RATE_BASIS_POINTS) {
      context.addIssue({ code: 'custom', message: BILLING_MESSAGES.taxRate })
      return z.NEVER
    }
    return basisPoints
  }),
  paymentTermsDays,
})

export type BillingSettingsInput = z.input<typeof BillingSettingsSchema>
