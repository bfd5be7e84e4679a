import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, emailOutbox, visits } from '~/db/schema'
import { DEFAULT_TEMPLATES, NOTICE_EVENTS, type NoticeEvent } from '~/notices/templates'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { queueVisitNotice } from './notice.server'
import { type EventSetting, getNoticeSettings, saveNoticeSettings } from './notice-settings.server'

let blueId: string
let sunsetId: string

beforeAll(async () => {
  const rows = await db()
    .insert(companies)
    .values([{ name: 'Blue Notice Pools' }, { name: 'Sunset Notice Pools' }])
    .returning({ id: companies.id })
  blueId = rows[0]?.id ?? ''
  sunsetId = rows[1]?.id ?? ''
})

async function settingsOf(companyId: string) {
  const found = await getNoticeSettings(companyId)
  if (!found.ok) throw new Error(found.message)
  return found.settings
}

function withEvent(
  events: Record<NoticeEvent, EventSetting>,
  event: NoticeEvent,
  change: Partial<EventSetting>,
): Record<NoticeEvent, EventSetting> {
  return { ...events, [event]: { ...events[event], ...change } }
}

describe('notice settings', () => {
  it('reads the defaults of docs/product.md "Easy to get wrong" for a company that never saved any', async () => {
    const settings = await settingsOf(blueId)
    expect(settings.quietHours).toEqual({ from: '21:00', until: '08:00' })
    expect(settings.events['on-my-way']).toMatchObject({ email: false, text: true })
    expect(settings.events['visit-skipped']).toMatchObject({ email: true, text: true })
    expect(settings.events['visit-reminder']).toMatchObject({ email: false, text: false })
    expect(settings.events['invoice-sent']).toMatchObject({ email: true, text: false })
    for (const event of NOTICE_EVENTS) {
      expect(settings.events[event].textTemplate).toBe(DEFAULT_TEMPLATES[event])
    }
  })

  it('saves channels, wording and quiet hours, and reads them back; the other company keeps its own', async () => {
    const before = await settingsOf(blueId)
    const wording = '{company}: see you tomorrow, {customer} 🌊'
    const saved = await saveNoticeSettings({
      companyId: blueId,
      input: {
        events: withEvent(before.events, 'visit-reminder', { text: true, textTemplate: wording }),
        quietHours: { from: '20:30', until: '07:15' },
      },
    })
    expect(saved).toEqual({ ok: true })
    const after = await settingsOf(blueId)
    expect(after.events['visit-reminder']).toEqual({
      email: false,
      text: true,
      emailTemplate: DEFAULT_TEMPLATES['visit-reminder'],
      textTemplate: wording,
    })
    expect(after.quietHours).toEqual({ from: '20:30', until: '07:15' })
    // Wording equal to the default is not stored, so the company follows the default wording.
    const [row] = await db().select().from(companies).where(eq(companies.id, blueId))
    expect(row?.noticeSettings['visit-reminder']).toEqual({ email: false, text: true, textTemplate: wording })
    expect(row?.noticeSettings['on-my-way']).toEqual({ email: false, text: true })
    expect((await settingsOf(sunsetId)).events['visit-reminder'].text).toBe(false)
  })

  it('keeps the default wording for a channel that is off and left blank', async () => {
    const before = await settingsOf(blueId)
    const saved = await saveNoticeSettings({
      companyId: blueId,
      input: {
        events: withEvent(before.events, 'payment-overdue', { email: false, emailTemplate: '  ' }),
        quietHours: before.quietHours,
      },
    })
    expect(saved.ok).toBe(true)
    expect((await settingsOf(blueId)).events['payment-overdue']).toMatchObject({
      email: false,
      emailTemplate: DEFAULT_TEMPLATES['payment-overdue'],
    })
  })

  it('refuses a template with an unknown placeholder, or a blank one for a channel that is on, with its message', async () => {
    const before = await settingsOf(blueId)
    const unknown = await saveNoticeSettings({
      companyId: blueId,
      input: {
        events: withEvent(before.events, 'on-my-way', { textTemplate: 'Hi {name}, {technician} is coming' }),
        quietHours: before.quietHours,
      },
    })
    expect(unknown).toEqual({
      ok: false,
      code: 'invalid',
      message:
        'On my way (Text): {name} is not a placeholder. Use {customer}, {technician}, {eta}, {reason}, {company}, {link}, {arrival}.',
    })
    const blank = await saveNoticeSettings({
      companyId: blueId,
      input: {
        events: withEvent(before.events, 'visit-skipped', { emailTemplate: '' }),
        quietHours: before.quietHours,
      },
    })
    expect(blank).toMatchObject({
      ok: false,
      message: 'Visit skipped (Email): Write the message, or turn this notice off.',
    })
    const badTime = await saveNoticeSettings({
      companyId: blueId,
      input: { events: before.events, quietHours: { from: '25:00', until: '08:00' } },
    })
    expect(badTime).toMatchObject({ ok: false, code: 'invalid' })
    // Nothing of a refused save was written.
    expect(await settingsOf(blueId)).toEqual(before)
  })

  it('answers a company that does not exist as not found', async () => {
    const before = await settingsOf(blueId)
    const missing = '00000000-0000-4000-8000-000000000000'
    expect(await getNoticeSettings(missing)).toMatchObject({ ok: false, code: 'not-found' })
    expect(await getNoticeSettings('not-a-uuid')).toMatchObject({ ok: false, code: 'not-found' })
    expect(
      await saveNoticeSettings({ companyId: missing, input: { events: before.events, quietHours: before.quietHours } }),
    ).toMatchObject({ ok: false, code: 'not-found' })
  })

  it('is the wording a queued notice is sent with', async () => {
    const before = await settingsOf(sunsetId)
    await saveNoticeSettings({
      companyId: sunsetId,
      input: {
        events: withEvent(before.events, 'visit-reminder', { text: true, textTemplate: 'Tomorrow: {customer}!' }),
        quietHours: before.quietHours,
      },
    })
    const customer = await addTestCustomer(sunsetId, {
      customerName: 'Reminded Rita',
      address: '4 Reminder Rd',
      phone: '+15555550142',
    })
    const [visit] = await db()
      .insert(visits)
      .values({
        companyId: sunsetId,
        customerId: customer.id,
        locationId: customer.locationId,
        customerName: customer.customerName,
        address: customer.address,
        scheduledAt: new Date(),
      })
      .returning({ id: visits.id })
    expect(
      await queueVisitNotice(db(), { companyId: sunsetId, visitId: visit?.id ?? '', event: 'visit-reminder' }),
    ).toBe(1)
    const rows = await db()
      .select({ kind: emailOutbox.kind, text: emailOutbox.text })
      .from(emailOutbox)
      .where(eq(emailOutbox.customerId, customer.id))
    expect(rows).toEqual([{ kind: 'text', text: 'Tomorrow: Reminded Rita!' }])
  })
})
