// The forms of Settings → "Tax rates" (issue 31 item 9; docs/decisions/052-tax-rates.md): one schema for the page,
// its action and their tests, so both refuse the same things with the same words. The percent is typed as "7.25"
// (or "7.25 %") and kept in thousandths of a percent, read digit by digit, never through a float; 0 to 30 %.
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { MAX_TAX_RATE_MILLI_PERCENT } from '~/billing/billing-fields'
import { percentToMilliPercent } from './billing-settings-schema'

export const TAX_RATE_INTENTS = ['tax-rate-add', 'tax-rate-update', 'tax-rate-remove', 'tax-rate-default'] as const
export type TaxRateIntent = (typeof TAX_RATE_INTENTS)[number]

export const TAX_RATE_NAME_MAX = 60

export const TAX_RATE_FORM_MESSAGES = {
  name: 'Enter a name for the rate, like “Tampa”.',
  nameTooLong: `Keep the name to ${TAX_RATE_NAME_MAX} characters.`,
  percent: `Enter a percent from 0 to ${MAX_TAX_RATE_MILLI_PERCENT / 1000}, with at most 3 decimals (like 7.25 or 8.875).`,
  unknown: 'Unknown tax rate.',
} as const

const name = z
  .string({ error: TAX_RATE_FORM_MESSAGES.name })
  .trim()
  .min(1, TAX_RATE_FORM_MESSAGES.name)
  .max(TAX_RATE_NAME_MAX, TAX_RATE_FORM_MESSAGES.nameTooLong)

const percent = z.string({ error: TAX_RATE_FORM_MESSAGES.percent }).transform((text, context) => {
  const milliPercent = percentToMilliPercent(text)
  if (milliPercent === null || milliPercent > MAX_TAX_RATE_MILLI_PERCENT) {
    context.addIssue({ code: 'custom', message: TAX_RATE_FORM_MESSAGES.percent })
    return z.NEVER
  }
  return milliPercent
})

const rateId = z.uuid({ error: TAX_RATE_FORM_MESSAGES.unknown })

/** "Add rate". */
export const AddTaxRateSchema = z.object({ intent: z.literal('tax-rate-add'), name, percent })
/** "Save" on a rate being edited: its name and percent. */
export const UpdateTaxRateSchema = z.object({ intent: z.literal('tax-rate-update'), rateId, name, percent })
/** "Remove" (after its confirmation) and "Make default". */
export const RemoveTaxRateSchema = z.object({ intent: z.literal('tax-rate-remove'), rateId })
export const DefaultTaxRateSchema = z.object({ intent: z.literal('tax-rate-default'), rateId })

/** What the page's action answers a tax-rate form. */
export type TaxRateReply = {
  intent: TaxRateIntent
  rateId?: string
  /** Set for "Add rate" and "Save": the form's values and errors, kept when refused. */
  result?: SubmissionResult<string[]>
  message: string
  tone: 'success' | 'error'
}
