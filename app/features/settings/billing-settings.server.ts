// The settings route's part for "Plan" and "Billing" (docs/billing.md): what the two sections show, and the save of
// "Billing" (intent 'billing-settings'; owners and admins, as every settings save).
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { notFound } from '~/auth/guards.server'
import { POOL_BUD_PLAN_DETAILS, trialStatus } from '~/billing/pool-bud-plans'
import { getCompanyBilling, saveBillingTerms } from '~/models/company-billing.server'
import { formatDate } from '~/utils/dates'
import { BILLING_MESSAGES, BillingSettingsSchema } from './billing-settings-schema'

/** What "Plan" and "Billing" show. */
export async function loadBillingSettings(companyId: string, timezone: string, now = new Date()) {
  const billing = await getCompanyBilling(companyId)
  if (!billing) notFound()
  const trial = trialStatus(billing.trialEndsAt, now)
  return {
    plan: {
      key: billing.plan,
      ...POOL_BUD_PLAN_DETAILS[billing.plan],
      trial: trial && billing.trialEndsAt ? { ...trial, endsOn: formatDate(billing.trialEndsAt, timezone) } : null,
    },
    form: { paymentTermsDays: String(billing.paymentTermsDays) },
  }
}

export type BillingSettingsData = Awaited<ReturnType<typeof loadBillingSettings>>

/** Saves "Billing"; the reply goes back to the section (keyed `billingSettings`), errors at their fields. */
export async function saveBillingSettingsForm(companyId: string, formData: FormData) {
  const submission = parseWithZod(formData, { schema: BillingSettingsSchema })
  if (submission.status !== 'success') {
    return data({ billingSettings: { result: submission.reply(), message: null } }, 400)
  }
  const saved = await saveBillingTerms(companyId, { paymentTermsDays: submission.value.paymentTermsDays })
  if (!saved) notFound()
  return data({ billingSettings: { result: submission.reply(), message: BILLING_MESSAGES.saved } })
}
