// Texts are sent exactly once (issue #20, docs/product.md "Notices"): through the one outbox worker, against a local
// server that speaks Twilio's Messages API, while 30 % of its calls fail or time out — some after Twilio took the
// message, so only asking Twilio before sending again avoids a second text. Invalid numbers fail at once without
// retries; opted-out numbers and quiet hours are never texted. Then two production servers on one PostgreSQL share the
// outbox and each notice still goes once.
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { companies, emailOutbox, textOptOuts } from '~/db/schema'
import { prng } from '~/demo/prng'
import { deliverTextRow } from '~/outbox/text-delivery.server'
import { deliverDueEmails, registerTextSender } from '~/outbox/worker.server'
import { db } from '~/utils/db.server'
import { type FakeTwilio, type FakeTwilioAnswer, startFakeTwilio } from '../helpers/fake-twilio'
import { type ProductionServer, scratchDatabase, startProductionServer } from '../helpers/production-server'

const database = inject('testDatabase')
const FROM = '+18135550100'
const INVALID = '+15005550001'
/** 10 pm in New York, then 8 am the next morning (when the quiet hours end), in December (EST, UTC−5). */
const NIGHT = new Date('2026-12-01T03:00:00Z')
const MORNING = new Date('2026-12-01T13:00:00Z')

describe('the outbox worker sending texts through Twilio', () => {
  let fake: FakeTwilio
  let companyId: string
  const postsTo = new Map<string, number>()

  beforeAll(async () => {
    fake = await startFakeTwilio()
    const config = { accountSid: fake.accountSid, authToken: fake.authToken, from: FROM, apiBase: fake.url }
    // Short timeouts so a hung call costs the test little; the production default is 10 s.
    registerTextSender((row, now) => deliverTextRow(row, now, { config, timeoutMs: 300 }))
    const [company] = await db()
      .insert(companies)
      .values({ name: 'Texting Pools', timezone: 'America/New_York' })
      .returning({ id: companies.id })
    companyId = company?.id ?? ''
    const random = prng(20)
    const trouble: FakeTwilioAnswer[] = ['hang', 'accept-then-hang', { status: 429 }, { status: 500 }, { status: 503 }]
    fake.answer = (_call, form) => {
      const to = form.get('To') ?? ''
      postsTo.set(to, (postsTo.get(to) ?? 0) + 1)
      if (to === INVALID)
        return { status: 400, code: 21211, message: `The 'To' number ${to} is not a valid phone number.` }
      return random() < 0.3 ? (trouble[Math.floor(random() * trouble.length)] ?? 'accept') : 'accept'
    }
  })
  afterAll(async () => {
    await fake?.close()
  })

  it('delivers 100 notices once each, fails invalid numbers at once, skips opted-out numbers and waits out the night', async () => {
    const number = (n: number) => `+1813555${String(1000 + n).padStart(4, '0')}`
    const optedOut = [number(900), number(901), number(902)]
    await db()
      .insert(textOptOuts)
      .values(optedOut.map((phone) => ({ phone, via: 'STOP' })))
    const rows = [
      ...Array.from({ length: 100 }, (_, n) => ({ to: number(n), text: `Notice ${n}: Tyler is on the way.` })),
      ...Array.from({ length: 4 }, (_, n) => ({ to: INVALID, text: `Invalid ${n}` })),
      ...optedOut.map((to, n) => ({ to, text: `Opted out ${n}` })),
    ]
    const queued = await db()
      .insert(emailOutbox)
      .values(
        rows.map((row, n) => ({
          kind: 'text' as const,
          companyId,
          to: row.to,
          subject: 'On my way',
          html: '',
          text: row.text,
          noticeEvent: 'on-my-way',
          noticeSubject: `visit-${n}`,
          createdAt: new Date(NIGHT.getTime() - 60_000),
          nextAttemptAt: NIGHT,
        })),
      )
      .returning({ id: emailOutbox.id })
    const ids = queued.map((row) => row.id)

    // At 10 pm on the company's clock nothing is sent: every text waits for 8 am.
    await deliverDueEmails({ now: NIGHT })
    expect(fake.calls).toBe(0)
    const waiting = await db().select().from(emailOutbox).where(inArray(emailOutbox.id, ids))
    for (const row of waiting) {
      if (row.status === 'pending') expect(row.nextAttemptAt).toEqual(MORNING)
    }

    // From 8 am, rounds ten minutes apart, two workers at once each time, until nothing is left to send.
    let now = MORNING
    fake.now = () => now
    for (let round = 0; round < 60; round++) {
      await Promise.all([deliverDueEmails({ now }), deliverDueEmails({ now })])
      const left = await db()
        .select({ status: emailOutbox.status })
        .from(emailOutbox)
        .where(inArray(emailOutbox.id, ids))
      if (left.every((row) => row.status !== 'pending')) break
      now = new Date(now.getTime() + 10 * 60_000)
    }

    const final = await db().select().from(emailOutbox).where(inArray(emailOutbox.id, ids))
    const byText = new Map(final.map((row) => [row.text, row]))
    for (let n = 0; n < 100; n++) {
      const row = byText.get(`Notice ${n}: Tyler is on the way.`)
      const copies = fake.accepted.filter((message) => message.body === row?.text)
      expect(copies, `notice ${n}`).toHaveLength(1)
      expect(row?.status).toBe('sent')
      expect(row?.providerId).toBe(copies[0]?.sid)
    }
    // Some calls really did fail, and some after Twilio had taken the message: the retries were tested.
    expect(fake.calls).toBeGreaterThan(120)
    expect(final.some((row) => row.status === 'sent' && row.attempts > 1)).toBe(true)
    // An invalid number is refused for good: one call each, no retries, marked failed with Twilio's reason.
    for (const row of final.filter((row) => row.to === INVALID)) {
      expect(row.status).toBe('failed')
      expect(row.attempts).toBe(1)
      expect(row.lastError).toMatch(/not a valid phone number/)
    }
    expect(postsTo.get(INVALID)).toBe(4)
    // Opted-out numbers: recorded as such, never called.
    for (const phone of optedOut) {
      expect(postsTo.get(phone)).toBeUndefined()
      expect(byText.get(`Opted out ${optedOut.indexOf(phone)}`)?.status).toBe('opted-out')
    }
  })

  it('records a number Twilio reports as unsubscribed (21610), and texts it no more', async () => {
    const phone = '+18135557777'
    fake.optedOut.add(phone)
    const [row] = await db()
      .insert(emailOutbox)
      .values({
        kind: 'text',
        companyId,
        to: phone,
        subject: 'Visit skipped',
        html: '',
        text: 'Skipped: locked gate',
        createdAt: new Date(MORNING.getTime() - 60_000),
        nextAttemptAt: MORNING,
      })
      .returning({ id: emailOutbox.id })
    // 21610 comes back only on an accepted-path call: let this one through whatever the dice say.
    const answer = fake.answer
    fake.answer = (call, form) => (form.get('To') === phone ? 'accept' : answer(call, form))
    await deliverDueEmails({ now: MORNING })
    fake.answer = answer
    const [after] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.id, row?.id ?? ''))
    expect(after?.status).toBe('opted-out')
    expect(await db().select().from(textOptOuts).where(eq(textOptOuts.phone, phone))).toHaveLength(1)
  })
})

describe.runIf(database.kind === 'postgres')('two servers sending texts from one PostgreSQL', () => {
  let fake: FakeTwilio
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>
  let a: ProductionServer
  let b: ProductionServer

  beforeAll(async () => {
    if (database.kind !== 'postgres') return
    fake = await startFakeTwilio()
    const env = {
      TWILIO_ACCOUNT_SID: fake.accountSid,
      TWILIO_AUTH_TOKEN: fake.authToken,
      TWILIO_FROM: FROM,
      TWILIO_API_BASE: fake.url,
    }
    scratch = await scratchDatabase(database.adminUrl)
    a = await startProductionServer({ databaseUrl: scratch.url, env })
    b = await startProductionServer({ databaseUrl: scratch.url, env: { ...env, SEED_DEMO: '0' } })
  }, 600_000)
  afterAll(async () => {
    await a?.cleanup()
    await b?.cleanup()
    await scratch?.drop()
    await fake?.close()
  })

  it('texts each of 60 notices once', async () => {
    const [company] = await scratch.query<{ id: string }>(
      `update companies set quiet_hours_from = '00:00', quiet_hours_until = '00:00'
       where name = 'Blue Lagoon Pool Co.' returning id`,
    )
    const values = Array.from({ length: 60 }, (_, n) => n)
    await scratch.query(
      `insert into email_outbox (kind, company_id, "to", subject, html, text, notice_event, notice_subject)
       select 'text', $1, '+1813556' || lpad(n::text, 4, '0'), 'On my way', '', 'Two servers ' || n, 'on-my-way', 'v' || n
       from unnest($2::int[]) as n`,
      [company?.id, values],
    )
    const deadline = Date.now() + 90_000
    let sent = 0
    while (Date.now() < deadline) {
      const [row] = await scratch.query<{ n: string }>(
        `select count(*) as n from email_outbox where kind = 'text' and status = 'sent'`,
      )
      sent = Number(row?.n)
      if (sent === 60) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(sent).toBe(60)
    expect(fake.accepted).toHaveLength(60)
    expect(new Set(fake.accepted.map((message) => message.body)).size).toBe(60)
  }, 180_000)
})
