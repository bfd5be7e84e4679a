// Settings → "Customer notices" (docs/product.md "Notices", "Easy to get wrong"): a company's channels and wording per
// event and its quiet hours. What the company never set reads as the defaults of app/notices/templates.ts; a saved
// wording equal to the default (or a blank one) is stored as "not set", so the company keeps following the default
// wording.
import { eq } from 'drizzle-orm'
import { companies } from '~/db/schema'
import type { NoticeSettings } from '~/db/schema/companies'
import type { QuietHours } from '~/notices/quiet-hours'
import {
  DEFAULT_TEMPLATES,
  NOTICE_CHANNELS,
  NOTICE_EVENTS,
  NOTICE_LABELS,
  type NoticeChannel,
  type NoticeEvent,
  templateProblem,
} from '~/notices/templates'
import { isWallTime } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { noticeSettingFor } from './notice.server'

export type EventSetting = Record<NoticeChannel, boolean> & Record<`${NoticeChannel}Template`, string>

export type CompanyNoticeSettings = {
  events: Record<NoticeEvent, EventSetting>
  quietHours: QuietHours
  companyName: string
  timezone: string
}

const CHANNEL_NAMES: Record<NoticeChannel, string> = { email: 'Email', text: 'Text' }

const NOT_FOUND = 'This company no longer exists.'

/** The company's notice settings with the defaults filled in, as Settings shows them. */
export async function getNoticeSettings(companyId: string): Promise<Result<{ settings: CompanyNoticeSettings }>> {
  if (!isUuid(companyId)) return failure('not-found', NOT_FOUND)
  const [row] = await db()
    .select({
      noticeSettings: companies.noticeSettings,
      from: companies.quietHoursFrom,
      until: companies.quietHoursUntil,
      name: companies.name,
      timezone: companies.timezone,
    })
    .from(companies)
    .where(eq(companies.id, companyId))
  if (!row) return failure('not-found', NOT_FOUND)
  const events = Object.fromEntries(
    NOTICE_EVENTS.map((event) => {
      const { channels, templates } = noticeSettingFor(row.noticeSettings, event)
      return [event, { ...channels, emailTemplate: templates.email, textTemplate: templates.text }]
    }),
  ) as Record<NoticeEvent, EventSetting>
  return success({
    settings: {
      events,
      quietHours: { from: row.from, until: row.until },
      companyName: row.name,
      timezone: row.timezone,
    },
  })
}

/**
 * Why one channel's wording cannot be saved, or null. A channel that is off may be left blank (it keeps the default
 * wording); any wording typed must be a template the notices can render.
 */
export function channelTemplateProblem(on: boolean, template: string): string | null {
  if (!on && !template.trim()) return null
  return templateProblem(template)
}

/** Saves every event's channels and wording and the quiet hours of one company, or says what cannot be saved. */
export async function saveNoticeSettings({
  companyId,
  input,
}: {
  companyId: string
  input: { events: Record<NoticeEvent, EventSetting>; quietHours: QuietHours }
}): Promise<Result> {
  if (!isUuid(companyId)) return failure('not-found', NOT_FOUND)
  const { from, until } = input.quietHours
  if (!isWallTime(from) || !isWallTime(until))
    return failure('invalid', 'Choose the quiet hours’ From and Until times.')
  const stored: NoticeSettings = {}
  for (const event of NOTICE_EVENTS) {
    const setting = input.events[event]
    const own: NonNullable<NoticeSettings[string]> = { email: setting.email, text: setting.text }
    for (const channel of NOTICE_CHANNELS) {
      const template = setting[`${channel}Template`]
      const problem = channelTemplateProblem(setting[channel], template)
      if (problem) return failure('invalid', `${NOTICE_LABELS[event]} (${CHANNEL_NAMES[channel]}): ${problem}`)
      if (template.trim() && template !== DEFAULT_TEMPLATES[event]) own[`${channel}Template`] = template
    }
    stored[event] = own
  }
  const saved = await db()
    .update(companies)
    .set({ noticeSettings: stored, quietHoursFrom: from, quietHoursUntil: until })
    .where(eq(companies.id, companyId))
    .returning({ id: companies.id })
  return saved.length ? success({}) : failure('not-found', NOT_FOUND)
}
