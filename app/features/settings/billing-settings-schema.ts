// Settings → "Billing" (OPERATIONS §7): the tax rate every invoice carries and the payment terms that set its due
// date. One schema for the section (the browser's check), the settings route's action and their tests, so both
// refuse the same things with the same words. The rate is typed as a percent with up to three decimals (8.875 % is a
// real rate) and kept in thousandths of a percent (7.25 % → 7250): read digit by digit, never through a float, so
// 7.29 stays 7290.
import { z } from 'zod'
import { MAX_PAYMENT_TERMS_DAYS, MAX_TAX_RATE_MILLI_PERCENT } from '~/billing/billing-fields'

export const BILLING_SETTINGS_INTENT = 'billing-settings'

export const BILLING_MESSAGES = {
  taxRate: `Enter a tax rate from 0 to ${MAX_TAX_RATE_MILLI_PERCENT / 1000} %, with at most 3 decimals (like 7.25 or 8.875).`,
  paymentTerms: `Enter payment terms from 0 to ${MAX_PAYMENT_TERMS_DAYS} days.`,
  saved: 'Billing settings saved.',
} as const

const PERCENT = /^(\d{1,3})(?:\.(\d{1,3}))?\s*%?$/

/** "8.875" (or "8.875 %") as thousandths of a percent (8875); null when it is not a percent with at most 3 decimals. */
export function percentToMilliPercent(text: string): number | null {
  const match = PERCENT.exec(text.trim())
  if (!match) return null
  return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'))
}

/** 7250 → "7.25", 7000 → "7", 8875 → "8.875": how the form shows a stored rate. */
export function milliPercentToPercent(milliPercent: number): string {
  const whole = Math.floor(milliPercent / 1000)
  const thousandths = milliPercent % 1000
  if (thousandths === 0) return String(whole)
  return `${whole}.${String(thousandths).padStart(3, '0')}`.replace(/0+$/, '')
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
    const milliPercent = percentToMilliPercent(text)
    if (milliPercent === null || milliPercent > MAX_TAX_RATE_MILLI_PERCENT) {
      context.addIssue({ code: 'custom', message: BILLING_MESSAGES.taxRate })
      return z.NEVER
    }
    return milliPercent
  }),
  paymentTermsDays,
})
