// Settings → "Billing" (docs/billing.md): the payment terms that set an invoice's due date (tax rates have a page of
// their own, Settings → "Tax rates", docs/decisions/052-tax-rates.md). One schema for the section (the browser's
// check), the settings route's action and their tests, so both refuse the same things with the same words. A percent
// (a tax rate's) is typed with up to three decimals (8.875 % is a real rate) and kept in thousandths of a percent
// (7.25 % → 7250): read digit by digit, never through a float, so 7.29 stays 7290.
import { z } from 'zod'
import { MAX_PAYMENT_TERMS_DAYS } from '~/billing/billing-fields'

export const BILLING_SETTINGS_INTENT = 'billing-settings'

export const BILLING_MESSAGES = {
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

const paymentTermsDays = z
  .number({ error: BILLING_MESSAGES.paymentTerms })
  .int(BILLING_MESSAGES.paymentTerms)
  .min(0, BILLING_MESSAGES.paymentTerms)
  .max(MAX_PAYMENT_TERMS_DAYS, BILLING_MESSAGES.paymentTerms)

/** The form's fields as typed (what the browser's constraints are read from: no transforms). */
export const BillingSettingsFields = z.object({ paymentTermsDays })

export const BillingSettingsSchema = BillingSettingsFields
