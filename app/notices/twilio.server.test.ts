import { afterEach, describe, expect, it } from 'vitest'
import { type FakeTwilio, startFakeTwilio } from '../../tests/helpers/fake-twilio'
import { findSentText, retryAfterMs, sendText, type TextOutcome } from './twilio.server'
import { twilioConfig } from './twilio-config.server'

const FROM = '+18135550100'
const DANA = '+18135550101'

let twilio: FakeTwilio | undefined
afterEach(async () => {
  await twilio?.close()
  twilio = undefined
})

async function fake() {
  twilio = await startFakeTwilio()
  const config = twilioConfig({
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_FROM: FROM,
    TWILIO_API_BASE: `${twilio.url}/`,
  })
  if (!config) throw new Error('configured above')
  return { twilio, config }
}

describe('Twilio settings', () => {
  const sid = `AC${'0a'.repeat(16)}`
  it('is "not configured" with nothing set, and defaults the API base to Twilio', () => {
    expect(twilioConfig({})).toBeUndefined()
    expect(twilioConfig({ TWILIO_ACCOUNT_SID: ' ', TWILIO_API_BASE: 'http://127.0.0.1:1' })).toBeUndefined()
    expect(twilioConfig({ TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: FROM })).toEqual({
      accountSid: sid,
      authToken: 'token',
      from: FROM,
      apiBase: 'https://api.twilio.com',
    })
  })

  it.each([
    [{ TWILIO_ACCOUNT_SID: sid }, 'missing: TWILIO_AUTH_TOKEN, TWILIO_FROM'],
    [{ TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '(813) 555-0100' }, 'TWILIO_FROM must be'],
    [{ TWILIO_ACCOUNT_SID: 'SK123', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: FROM }, 'TWILIO_ACCOUNT_SID must be'],
    [
      { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: FROM, TWILIO_API_BASE: 'ftp://x' },
      'TWILIO_API_BASE must be',
    ],
  ])('refuses incomplete or wrong settings %#', (env, message) => {
    expect(() => twilioConfig(env)).toThrow(message)
  })
})

describe('sending a text through Twilio', () => {
  it('posts To, From and Body with Basic auth to the account’s Messages resource and keeps the sid', async () => {
    const { twilio, config } = await fake()
    const outcome = await sendText(config, { to: DANA, body: 'Hi Dana, Sam is on the way & arrives ~10:40.' })
    expect(twilio.accepted).toEqual([
      {
        sid: expect.stringMatching(/^SM[0-9a-f]{32}$/),
        to: DANA,
        from: FROM,
        body: 'Hi Dana, Sam is on the way & arrives ~10:40.',
        dateCreated: expect.any(Date),
      },
    ])
    expect(outcome).toEqual({ status: 'accepted', sid: twilio.accepted[0]?.sid })
  })

  it('sends nothing when Twilio is not configured', async () => {
    expect(await sendText(undefined, { to: DANA, body: 'Hi' })).toEqual({ status: 'not-configured' })
  })

  it('refuses a number that is not E.164, an empty text and one over 1600 characters without a request', async () => {
    const { twilio, config } = await fake()
    for (const message of [
      { to: '813-555-0101', body: 'Hi' },
      { to: DANA, body: '  ' },
      { to: DANA, body: 'x'.repeat(1601) },
    ]) {
      expect((await sendText(config, message)).status).toBe('failed')
    }
    expect(twilio.calls).toBe(0)
  })

  it('marks an invalid number (400, error 21211) failed with Twilio’s reason', async () => {
    const { twilio, config } = await fake()
    twilio.answer = () => ({
      status: 400,
      code: 21211,
      message: "The 'To' number +15005550001 is not a valid phone number.",
    })
    expect(await sendText(config, { to: '+15005550001', body: 'Hi' })).toEqual({
      status: 'failed',
      code: 21211,
      message: "The 'To' number +15005550001 is not a valid phone number.",
    })
  })

  it('reports a recipient who replied STOP (21610) as opted out', async () => {
    const { twilio, config } = await fake()
    twilio.optedOut.add(DANA)
    expect(await sendText(config, { to: DANA, body: 'Hi' })).toEqual({
      status: 'opted-out',
      code: 21610,
      message: 'The recipient replied STOP to this number.',
    })
    expect(twilio.accepted).toEqual([])
  })

  it('retries after 429 as long as Retry-After says, seconds or a date', async () => {
    const { twilio, config } = await fake()
    twilio.answer = () => ({ status: 429, retryAfter: '7' })
    expect(await sendText(config, { to: DANA, body: 'Hi' })).toMatchObject({
      status: 'retry',
      retryAfterMs: 7000,
      ambiguous: false,
    })
    const now = Date.parse('2026-06-10T12:00:00Z')
    twilio.answer = () => ({ status: 429, retryAfter: 'Wed, 10 Jun 2026 12:00:30 GMT' })
    expect(await sendText(config, { to: DANA, body: 'Hi' }, { now: () => now })).toMatchObject({ retryAfterMs: 30_000 })
    twilio.answer = () => ({ status: 429 })
    expect(await sendText(config, { to: DANA, body: 'Hi' })).toMatchObject({ status: 'retry', retryAfterMs: null })
    expect(twilio.accepted).toEqual([])
  })

  it('parses Retry-After strictly', () => {
    expect(retryAfterMs(null, 0)).toBeNull()
    expect(retryAfterMs('soon', 0)).toBeNull()
    expect(retryAfterMs('0', 0)).toBe(0)
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:00 GMT', 5000)).toBe(0)
  })

  it('retries a server error, saying Twilio may have taken the message', async () => {
    const { twilio, config } = await fake()
    twilio.answer = () => ({ status: 500 })
    expect(await sendText(config, { to: DANA, body: 'Hi' })).toMatchObject({ status: 'retry', ambiguous: true })
    twilio.answer = () => ({ status: 503 })
    expect(await sendText(config, { to: DANA, body: 'Hi' })).toMatchObject({ status: 'retry', ambiguous: false })
  })

  it('gives up waiting after the timeout and retries', async () => {
    const { twilio, config } = await fake()
    twilio.answer = () => 'hang'
    const started = Date.now()
    const outcome = await sendText(config, { to: DANA, body: 'Hi' }, { timeoutMs: 300 })
    expect(outcome).toEqual({
      status: 'retry',
      retryAfterMs: null,
      ambiguous: true,
      message: 'Twilio did not answer within 0.3 s',
    })
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('retries when Twilio cannot be reached, knowing nothing was sent', async () => {
    const { twilio, config } = await fake()
    await twilio.close()
    expect(await sendText(config, { to: DANA, body: 'Hi' })).toMatchObject({
      status: 'retry',
      ambiguous: false,
      message: 'Twilio could not be reached (ECONNREFUSED)',
    })
  })

  it('keeps texts for later when the credentials are refused, naming the settings to check', async () => {
    const { twilio, config } = await fake()
    const outcome = await sendText({ ...config, authToken: 'wrong' }, { to: DANA, body: 'Hi' })
    expect(outcome).toMatchObject({ status: 'retry', ambiguous: false })
    expect(outcome.status === 'retry' && outcome.message).toContain('Check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN')
    const elsewhere = await sendText({ ...config, accountSid: `AC${'1'.repeat(32)}` }, { to: DANA, body: 'Hi' })
    expect(elsewhere.status).toBe('retry')
    expect(twilio.accepted).toEqual([])
  })

  it('100 texts while a third of calls fail, hang or lose their answer: each accepted once, invalid numbers failed without retries, opted-out never sent', async () => {
    const { twilio, config } = await fake()
    // A seeded generator: the same trouble on every run.
    let seed = 20
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed / 2 ** 31
    }
    const invalid = new Set(['+15005550001', '+15005550002', '+15005550003'])
    const optedOut = new Set(['+18135550198', '+18135550199'])
    for (const number of optedOut) twilio.optedOut.add(number)
    twilio.answer = (_, form) => {
      if (invalid.has(form.get('To') ?? '')) return { status: 400, code: 21211 }
      const roll = random()
      if (roll < 0.1) return { status: 429, retryAfter: '0' }
      if (roll < 0.2) return { status: 500 }
      if (roll < 0.25) return { status: 503 }
      if (roll < 0.3) return 'hang'
      // Taken, but the answer never comes back: only asking Twilio keeps it from being sent twice.
      if (roll < 0.35) return 'accept-then-hang'
      return 'accept'
    }
    const numbers = [
      ...invalid,
      ...optedOut,
      ...Array.from({ length: 95 }, (_, i) => `+1813555${String(1000 + i).padStart(4, '0')}`),
    ]
    const notices = numbers.map((to, i) => ({ to, body: `Notice ${i}: your pool was serviced today.` }))
    const attempts = new Map<string, number>()
    const results = new Map<string, TextOutcome>()
    // A minimal stand-in for the delivery engine (text-delivery.server.ts): send, and when told to retry, send again
    // — after a pause, and after asking Twilio first if the answer was lost. The engine's pause is its back-off
    // (minutes); here a second lets a request still on its way land before the question, as it would on a busy
    // machine, and a time-out of 1.5 s is long enough that only the fake's hangs reach it.
    const since = new Date(Date.now() - 1000)
    const pause = () => new Promise((resolve) => setTimeout(resolve, 1000))
    async function deliver(notice: { to: string; body: string }) {
      let answerLost = false
      for (;;) {
        if (answerLost) {
          await pause()
          const found = await findSentText(config, { ...notice, since }, { timeoutMs: 1500 })
          if (found === 'unknown') continue
          if (found) return results.set(notice.body, { status: 'accepted', sid: found })
        }
        attempts.set(notice.body, (attempts.get(notice.body) ?? 0) + 1)
        const outcome = await sendText(config, notice, { timeoutMs: 1500 })
        if (outcome.status !== 'retry') return results.set(notice.body, outcome)
        answerLost = outcome.ambiguous
      }
    }
    for (let i = 0; i < notices.length; i += 20) await Promise.all(notices.slice(i, i + 20).map(deliver))

    expect(twilio.calls).toBeGreaterThan(110) // the trouble really happened
    const bodies = twilio.accepted.map((text) => text.body)
    expect(new Set(bodies).size).toBe(bodies.length)
    expect(bodies).toHaveLength(95)
    for (const notice of notices) {
      const outcome = results.get(notice.body)
      if (invalid.has(notice.to)) {
        expect(outcome).toMatchObject({ status: 'failed', code: 21211 })
        expect(attempts.get(notice.body)).toBe(1)
      } else if (optedOut.has(notice.to)) {
        expect(outcome?.status).toBe('opted-out')
      } else {
        expect(outcome?.status).toBe('accepted')
      }
    }
    expect(twilio.accepted.some((text) => optedOut.has(text.to) || invalid.has(text.to))).toBe(false)
  })
})
