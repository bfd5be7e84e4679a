// Settings → "Customer notices" (docs/product.md "Notices", "Easy to get wrong"): one form for the six events — each
// channel on or off and its wording — and "Quiet hours". Shared by the settings route (the server's parse), the section
// (the browser's check) and their tests, so the browser and the server refuse the same things with the same words
// (templateProblem's).
import { z } from 'zod'
import { NOTICE_CHANNELS, type NoticeEvent, templateProblem } from '~/notices/templates'

export const NOTICE_SETTINGS_INTENT = 'notice-settings'

// The shape of app/schedule/local-date.ts's WallTime, repeated here so the browser does not load Temporal for it.
const WALL_TIME = /^([01]\d|2[0-3]):[0-5]\d$/

const TimeSchema = z.string({ error: 'Choose a time.' }).regex(WALL_TIME, 'Choose a time.')

/** One event: its channels (an unticked switch is absent from the form) and the wording of each. */
const EventSchema = z
  .object({
    email: z.boolean().default(false),
    text: z.boolean().default(false),
    emailTemplate: z.string().default(''),
    textTemplate: z.string().default(''),
  })
  .superRefine((value, context) => {
    for (const channel of NOTICE_CHANNELS) {
      const template = value[`${channel}Template`]
      // A channel that is off may be left blank: it keeps the default wording for when it is turned on.
      if (!value[channel] && !template.trim()) continue
      const problem = templateProblem(template)
      if (problem) context.addIssue({ code: 'custom', path: [`${channel}Template`], message: problem })
    }
  })

export const NoticeSettingsSchema = z.object({
  events: z.object({
    'on-my-way': EventSchema,
    'visit-completed': EventSchema,
    'visit-skipped': EventSchema,
    'visit-reminder': EventSchema,
    'invoice-sent': EventSchema,
    'payment-overdue': EventSchema,
  } satisfies Record<NoticeEvent, typeof EventSchema>),
  quietHoursFrom: TimeSchema,
  quietHoursUntil: TimeSchema,
})

export type NoticeSettingsInput = z.output<typeof NoticeSettingsSchema>
