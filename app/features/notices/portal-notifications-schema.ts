// The portal's "Notifications" form (docs/decisions/047-customer-times.md): one checkbox per event and channel the
// company sends, each posting "event:channel" under `on` when ticked. What is not posted is off.
import { z } from 'zod'
import { NOTICE_CHANNELS, NOTICE_EVENTS } from '~/notices/templates'

export const PORTAL_NOTIFICATIONS_INTENT = 'notifications'

const PAIRS = NOTICE_EVENTS.flatMap((event) => NOTICE_CHANNELS.map((channel) => `${event}:${channel}`))

export const PortalNotificationsSchema = z.object({
  intent: z.literal(PORTAL_NOTIFICATIONS_INTENT),
  on: z
    .preprocess(
      (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
      z.array(z.enum(PAIRS as [string, ...string[]], { error: 'Choose from the notices listed.' })),
    )
    .optional()
    .transform((value) => value ?? []),
})
