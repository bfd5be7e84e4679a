// The portal's "Notifications": what the section shows and its save (docs/decisions/047-customer-times.md).
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { notFound } from '~/auth/guards.server'
import { getCustomerNoticeChoices, saveCustomerNoticeChoices } from '~/models/customer-notices.server'
import type { PortalAccess } from '~/models/portal.server'
import { PortalNotificationsSchema } from './portal-notifications-schema'

/** Saves the customer's own choice; staff previewing the portal are refused by the route's guard. */
export async function savePortalNotifications(access: PortalAccess, formData: FormData) {
  const submission = parseWithZod(formData, { schema: PortalNotificationsSchema })
  if (submission.status !== 'success') {
    return data({ notifications: { result: submission.reply(), message: null } }, 400)
  }
  const saved = await saveCustomerNoticeChoices({
    companyId: access.companyId,
    customerId: access.customerId,
    on: submission.value.on,
  })
  if (!saved) notFound()
  return data({ notifications: { result: submission.reply(), message: 'Notifications saved.' } })
}

export async function loadPortalNotifications(access: PortalAccess) {
  return getCustomerNoticeChoices(access)
}
