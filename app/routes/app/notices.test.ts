// The notice parts of two pages: Settings → "Customer notices" (intent 'notice-settings' of /app/settings) and the
// customer record's "Notices" (intent 'notice-preference' and "Messages" of /app/customers/:customerId).
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, emailOutbox, textOptOuts } from '~/db/schema'
import { DEFAULT_TEMPLATES, NOTICE_EVENTS } from '~/notices/templates'
import { db } from '~/utils/db.server'
import { formatPhone } from '~/utils/phone'
import { addTestCustomer, type TestCustomer } from '../../../tests/helpers/customers'
import { pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import * as customerRoute from './customer'
import * as settingsRoute from './settings'

function postTo(path: string, cookie: string, fields: Record<string, string>) {
  return new Request(`${TEST_ORIGIN}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
}

type SettingsPage = Awaited<ReturnType<typeof settingsRoute.loader>>
type NoticeForm = SettingsPage['notices']['form']

async function settingsPage(cookie: string) {
  return (await settingsRoute.loader({
    request: pageRequest('/app/settings', cookie),
    params: {},
    context: {},
  } as never)) as SettingsPage
}

/** The form as the browser posts it: ticked switches as 'on', unticked ones absent. */
function formFields(form: NoticeForm): Record<string, string> {
  const fields: Record<string, string> = {
    intent: 'notice-settings',
    quietHoursFrom: form.quietHoursFrom,
    quietHoursUntil: form.quietHoursUntil,
  }
  for (const event of NOTICE_EVENTS) {
    const setting = form.events[event]
    if (setting.email) fields[`events.${event}.email`] = 'on'
    if (setting.text) fields[`events.${event}.text`] = 'on'
    fields[`events.${event}.emailTemplate`] = setting.emailTemplate
    fields[`events.${event}.textTemplate`] = setting.textTemplate
  }
  return fields
}

async function saveNotices(cookie: string, fields: Record<string, string>) {
  const { returned, thrown } = await settle(settingsRoute.action(routeArgs(postTo('/app/settings', cookie, fields))))
  const none: Record<string, string[] | null> = {}
  if (thrown) return { thrown, status: statusOf(thrown), message: null, errors: none }
  const value = returned as unknown as {
    data: { noticeSettings: { message: string | null; result: { error?: Record<string, string[] | null> } } }
    init: { status?: number } | null
  }
  return {
    thrown: undefined,
    status: value.init?.status ?? 200,
    message: value.data.noticeSettings.message,
    errors: value.data.noticeSettings.result.error ?? none,
  }
}

async function recordPage(cookie: string, customerId: string, search = '') {
  return (await customerRoute.loader({
    request: pageRequest(`/app/customers/${customerId}${search}`, cookie),
    params: { customerId },
    context: {},
  } as never)) as Awaited<ReturnType<typeof customerRoute.loader>>
}

function postPreference(cookie: string, customerId: string, fields: Record<string, string>) {
  return settle(
    customerRoute.action({
      request: postTo(`/app/customers/${customerId}`, cookie, { intent: 'notice-preference', ...fields }),
      params: { customerId },
      context: {},
    } as never),
  )
}

let sunsetOwner: string
let sunsetId: string
let blueOwner: string
let dispatcher: string
let customer: TestCustomer

beforeAll(async () => {
  await useDemoData()
  sunsetOwner = await signInAs('owner@sunsetpools.test')
  blueOwner = await signInAs('owner@bluelagoon.test')
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  const [sunset] = await db().select().from(companies).where(eq(companies.name, 'Sunset Pool Care'))
  sunsetId = sunset?.id ?? ''
  customer = await addTestCustomer(sunsetId, {
    customerName: 'Notified Nora',
    address: '9 Notice Ln',
    email: 'nora@example.com',
    phone: '+15555550177',
  })
})

describe('Settings → Customer notices', () => {
  it('shows the defaults with sample values for the previews', async () => {
    const page = await settingsPage(sunsetOwner)
    expect(page.notices.form.quietHoursFrom).toBe('21:00')
    expect(page.notices.form.events['visit-reminder']).toEqual({
      email: false,
      text: false,
      emailTemplate: DEFAULT_TEMPLATES['visit-reminder'],
      textTemplate: DEFAULT_TEMPLATES['visit-reminder'],
    })
    expect(page.notices.sample.company).toBe('Sunset Pool Care')
    expect(page.notices.timezone).toBe('America/Phoenix')
  })

  it("saves the owner's changes and shows them on the next visit; the other company is untouched", async () => {
    const before = await settingsPage(sunsetOwner)
    const fields = formFields(before.notices.form)
    fields['events.visit-reminder.text'] = 'on'
    fields['events.visit-reminder.textTemplate'] = 'Hi {customer}, {technician} comes tomorrow 🏊'
    fields.quietHoursUntil = '07:30'
    const saved = await saveNotices(sunsetOwner, fields)
    expect(saved).toMatchObject({ status: 200, message: 'Customer notices saved.' })
    const after = await settingsPage(sunsetOwner)
    expect(after.notices.form.events['visit-reminder']).toMatchObject({
      text: true,
      textTemplate: 'Hi {customer}, {technician} comes tomorrow 🏊',
    })
    expect(after.notices.form.quietHoursUntil).toBe('07:30')
    expect((await settingsPage(blueOwner)).notices.form.events['visit-reminder'].text).toBe(false)
    // The company's other settings were not part of this form and are unchanged.
    expect(after.settings).toEqual(before.settings)
  })

  it("refuses a bad template at its field with templateProblem's words, saving nothing", async () => {
    const before = await settingsPage(sunsetOwner)
    const fields = formFields(before.notices.form)
    fields['events.on-my-way.textTemplate'] = '{technician} is coming at {time}'
    fields['events.visit-skipped.email'] = 'on'
    fields['events.visit-skipped.emailTemplate'] = ''
    fields.quietHoursFrom = ''
    const refused = await saveNotices(sunsetOwner, fields)
    expect(refused.status).toBe(400)
    expect(refused.errors['events.on-my-way.textTemplate']).toEqual([
      '{time} is not a placeholder. Use {customer}, {technician}, {eta}, {reason}, {company}, {link}, {arrival}.',
    ])
    expect(refused.errors['events.visit-skipped.emailTemplate']).toEqual([
      'Write the message, or turn this notice off.',
    ])
    expect(refused.errors.quietHoursFrom).toEqual(['Choose a time.'])
    expect((await settingsPage(sunsetOwner)).notices).toEqual(before.notices)
  })

  it('shows the dispatcher the section read-only and refuses their save with 403', async () => {
    const page = await settingsPage(dispatcher)
    expect(page.canSave).toBe(false)
    expect(page.notices.form.events['on-my-way'].text).toBe(true)
    const refused = await saveNotices(dispatcher, formFields(page.notices.form))
    expect(refused.status).toBe(403)
  })
})

describe("the customer record's Notices", () => {
  it('lists the messages newest first with their status in words, and pages them', async () => {
    const now = Date.now()
    const row = (minutesAgo: number, fields: Partial<typeof emailOutbox.$inferInsert>) => ({
      companyId: sunsetId,
      customerId: customer.id,
      kind: 'text' as const,
      to: '+15555550177',
      subject: 'On my way',
      html: '',
      text: 'On the way',
      noticeEvent: 'on-my-way',
      noticeSubject: `v-${minutesAgo}`,
      createdAt: new Date(now - minutesAgo * 60_000),
      ...fields,
    })
    await db()
      .insert(emailOutbox)
      .values([
        row(1, { status: 'failed', lastError: 'The number is not a mobile phone.' }),
        row(2, { kind: 'email', to: 'nora@example.com', noticeEvent: 'visit-completed', status: 'sent' }),
        row(3, { status: 'opted-out' }),
        ...Array.from({ length: 20 }, (_, i) => row(10 + i, { status: 'sent', sentAt: new Date(now) })),
      ])
    const page = await recordPage(sunsetOwner, customer.id)
    expect(page.notices.total).toBe(23)
    expect(page.notices.pageCount).toBe(2)
    expect(page.notices.rows.slice(0, 3).map((r) => [r.what, r.channel, r.to, r.status.text])).toEqual([
      ['On my way', 'Text', formatPhone('+15555550177'), 'Failed: The number is not a mobile phone.'],
      ['Visit completed', 'Email', 'nora@example.com', 'Sent'],
      ['On my way', 'Text', formatPhone('+15555550177'), 'Not sent: the customer replied STOP'],
    ])
    const second = await recordPage(sunsetOwner, customer.id, '?messages=2')
    expect(second.notices.rows).toHaveLength(3)
    expect(second.notices.page).toBe(2)
    expect(page.notices.textsStoppedOn).toBeNull()
    await db()
      .insert(textOptOuts)
      .values({ phone: '+15555550177', via: 'STOP', optedOutAt: new Date('2026-11-02T18:00:00Z') })
    expect((await recordPage(sunsetOwner, customer.id)).notices.textsStoppedOn).toBe('Nov 2, 2026')
  })

  it("saves the customer's channel switch and says so", async () => {
    const { thrown } = await postPreference(sunsetOwner, customer.id, { channel: 'text', enabled: 'off' })
    expect(thrown).toHaveRedirect(`/app/customers/${customer.id}`)
    const [row] = await db().select().from(customers).where(eq(customers.id, customer.id))
    expect(row).toMatchObject({ noticesByText: false, noticesByEmail: true })
    expect((await recordPage(sunsetOwner, customer.id)).notices).toMatchObject({ byText: false, byEmail: true })
  })

  it('refuses a post without a channel, and answers another company as if the customer did not exist', async () => {
    const { returned } = await postPreference(sunsetOwner, customer.id, {})
    expect((returned as { init: { status: number } }).init.status).toBe(400)
    const other = await postPreference(blueOwner, customer.id, { channel: 'email', enabled: 'off' })
    expect(statusOf(other.thrown)).toBe(404)
    const otherPage = await settle(recordPage(blueOwner, customer.id))
    expect(statusOf(otherPage.thrown)).toBe(404)
    const [row] = await db().select().from(customers).where(eq(customers.id, customer.id))
    expect(row?.noticesByEmail).toBe(true)
  })
})
