// The settings route's part for its own form (it posts no intent): what the form shows, and its save. Owners and
// admins save; only the owner changes the card-provider fields.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { notFound, requireMemberCapability } from '~/auth/guards.server'
import { getCompanySettings, updateCompanySettings } from '~/models/company.server'
import { companyLogoPath } from '~/models/company-brand'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { timezoneList } from '~/utils/dates'
import { logger } from '~/utils/logger.server'
import type { Role } from '~/utils/permissions'
import { companySettingsSchema } from './company-settings-schema'

/** The form's values (blank for an unset optional field) and the timezones it offers. */
export async function loadCompanySettings(companyId: string) {
  const settings = await getCompanySettings(companyId)
  if (!settings) notFound()
  return {
    settings: {
      name: settings.name,
      email: settings.email ?? '',
      mailingAddress: settings.mailingAddress ?? '',
      timezone: settings.timezone,
      defaultServiceWindow: settings.defaultServiceWindow,
      cardPublishableKey: settings.cardPublishableKey ?? '',
      stripeAccountId: settings.stripeAccountId ?? '',
      customerPortalUrl: settings.customerPortalUrl ?? '',
      serviceReportsEnabled: settings.serviceReportsEnabled,
      itemizeChemicals: settings.itemizeChemicals,
    },
    timezones: timezoneList(settings.timezone),
    logoUrl: companyLogoPath(settings.logoKey),
  }
}

export type CompanySettingsData = Awaited<ReturnType<typeof loadCompanySettings>>

/** Saves the form; the reply (`result`, `notice`) goes back to it. */
export async function saveCompanySettings(user: { companyId: string; role: Role }, formData: FormData) {
  const current = await getCompanySettings(user.companyId)
  if (!current) notFound()
  const submission = parseWithZod(formData, { schema: companySettingsSchema(timezoneList(current.timezone)) })
  if (submission.status !== 'success') return data({ result: submission.reply(), notice: null }, 400)
  // A card field left out of the post (admins see it disabled) keeps its stored value.
  const { cardPublishableKey, stripeAccountId, ...fields } = submission.value
  const billing = { cardPublishableKey, stripeAccountId }
  const changedBilling = Object.fromEntries(
    (Object.keys(billing) as Array<keyof typeof billing>)
      .filter((key) => formData.has(key) && billing[key] !== current[key])
      .map((key) => [key, billing[key]]),
  )
  // Admins see the card fields disabled: a change to them is a hand-made post, answered with the 403 card.
  if (Object.keys(changedBilling).length > 0) requireMemberCapability(user, 'settings:billing')
  try {
    const saved = await updateCompanySettings(user.companyId, { ...fields, ...changedBilling })
    if (!saved) throw new Error('company not found')
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, companyId: user.companyId }, 'company settings save failed')
    return data({ result: submission.reply({ formErrors: ['Unable to save settings.'] }), notice: null }, 500)
  }
  return { result: submission.reply(), notice: 'Settings saved.' }
}
