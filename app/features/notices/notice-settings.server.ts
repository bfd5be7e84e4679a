// The settings route's part for "Customer notices": what the section shows, and its save (intent 'notice-settings').
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { notFound, refusalStatus } from '~/auth/guards.server'
import { getNoticeSettings, saveNoticeSettings } from '~/models/notice-settings.server'
import type { TemplateValues } from '~/notices/templates'
import { env } from '~/utils/env.server'
import { NoticeSettingsSchema } from './notice-settings-schema'

/** What the section shows: the form's values and the sample values its previews are rendered with. */
export async function loadNoticeSettings(companyId: string) {
  const found = await getNoticeSettings(companyId)
  if (!found.ok) notFound()
  const { events, quietHours, companyName, timezone } = found.settings
  const sample: TemplateValues = {
    customer: 'Jordan Lee',
    technician: 'Sam Rivera',
    eta: '2:45 PM',
    reason: 'Locked gate',
    company: companyName,
    // As long as a real link, so the preview's segment count is the one customers will cost.
    link: `${env().APP_URL}/customer/4f9c2b7e-8d1a-4c3e-9b6f-2a5d7e8c1f03`,
  }
  return {
    form: { events, quietHoursFrom: quietHours.from, quietHoursUntil: quietHours.until },
    sample,
    timezone,
  }
}

export type NoticeSettingsSectionData = Awaited<ReturnType<typeof loadNoticeSettings>>

/** Saves the section's form; the reply goes back to the section (keyed `noticeSettings`), errors at their fields. */
export async function saveNoticeSettingsForm(companyId: string, formData: FormData) {
  const submission = parseWithZod(formData, { schema: NoticeSettingsSchema })
  if (submission.status !== 'success') {
    return data({ noticeSettings: { result: submission.reply(), message: null } }, 400)
  }
  const { events, quietHoursFrom, quietHoursUntil } = submission.value
  const saved = await saveNoticeSettings({
    companyId,
    input: { events, quietHours: { from: quietHoursFrom, until: quietHoursUntil } },
  })
  if (!saved.ok) {
    return data(
      { noticeSettings: { result: submission.reply({ formErrors: [saved.message] }), message: null } },
      refusalStatus(saved),
    )
  }
  return data({ noticeSettings: { result: submission.reply(), message: 'Customer notices saved.' } })
}
