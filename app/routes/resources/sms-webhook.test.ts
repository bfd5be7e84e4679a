// The STOP/START webhook: only Twilio's signed requests change anything; STOP stops texts to the number, START
// allows them again; a forged or tampered request is a 403 and changes nothing.
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inboundTexts, textOptOuts } from '~/db/schema'
import { twilioSignature } from '~/notices/twilio-signature.server'
import { db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { routeArgs } from '../../../tests/helpers/requests'
import { action, SMS_WEBHOOK_PATH } from './sms-webhook'

const TOKEN = '0123456789abcdef0123456789abcdef'
const TWILIO = {
  TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
  TWILIO_AUTH_TOKEN: TOKEN,
  TWILIO_FROM: '+18135550100',
}
const PHONE = '+18135550123'

function inbound(fields: Record<string, string>, signWith: Record<string, string> | null = fields, token = TOKEN) {
  const body = new URLSearchParams(fields)
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' }
  if (signWith) {
    headers['X-Twilio-Signature'] = twilioSignature(
      token,
      `${env().APP_URL}${SMS_WEBHOOK_PATH}`,
      Object.entries(signWith),
    )
  }
  const request = new Request(`http://internal.example${SMS_WEBHOOK_PATH}`, { method: 'POST', headers, body })
  return action(routeArgs(request))
}

const optedOut = async () => (await db().select().from(textOptOuts).where(eq(textOptOuts.phone, PHONE))).length === 1
let sids = 0
/** Twilio's MessageSid: a new one for every text, as Twilio gives. */
const nextSid = () => `SM${(++sids).toString(16).padStart(32, '0')}`
const reply = (body: string, MessageSid = nextSid()) => ({
  MessageSid,
  From: PHONE,
  To: TWILIO.TWILIO_FROM,
  Body: body,
})

describe('POST /webhooks/sms', () => {
  beforeAll(() => Object.assign(process.env, TWILIO))
  afterAll(() => {
    for (const name of Object.keys(TWILIO)) delete process.env[name]
  })

  it('stops texts to a number that replies STOP, and allows them again on START', async () => {
    const stop = await inbound(reply(' stop '))
    expect(stop.status).toBe(200)
    expect(stop.headers.get('Content-Type')).toMatch(/^text\/xml/)
    expect(await stop.text()).toContain('<Response></Response>')
    expect(await optedOut()).toBe(true)
    expect((await inbound(reply('Stop by at noon please'))).status).toBe(200)
    expect(await optedOut()).toBe(true)
    await inbound(reply('START'))
    expect(await optedOut()).toBe(false)
  })

  it('refuses a request without a valid signature, and changes nothing', async () => {
    expect((await inbound(reply('STOP'), null)).status).toBe(403)
    expect((await inbound(reply('STOP'), reply('STOP'), 'f'.repeat(32))).status).toBe(403)
    // Signed for another body: the signature covers every parameter.
    expect((await inbound(reply('STOP'), reply('Hello'))).status).toBe(403)
    expect(await optedOut()).toBe(false)
  })

  it('applies a MessageSid once: a captured signed START posted again does not undo a later STOP (I-2)', async () => {
    const start = reply('START')
    await inbound(reply('STOP'))
    expect(await optedOut()).toBe(true)
    expect((await inbound(start)).status).toBe(200)
    expect(await optedOut()).toBe(false)
    await inbound(reply('STOP'))
    expect(await optedOut()).toBe(true)
    // The replay, signed exactly as Twilio signed it, once and then twice at once.
    const replays = await Promise.all([inbound(start), inbound(start), inbound(start)])
    expect(replays.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(await optedOut()).toBe(true)
    const [handled] = await db()
      .select({ n: count() })
      .from(inboundTexts)
      .where(eq(inboundTexts.messageSid, start.MessageSid))
    expect(handled?.n).toBe(1)
    await inbound(reply('START'))
    expect(await optedOut()).toBe(false)
  })

  it('refuses a signed post without a MessageSid with 400, and changes nothing', async () => {
    const { MessageSid: _sid, ...noSid } = reply('STOP')
    expect((await inbound(noSid)).status).toBe(400)
    expect(await optedOut()).toBe(false)
  })

  it('does not exist when texts are not configured', async () => {
    for (const name of Object.keys(TWILIO)) delete process.env[name]
    expect((await inbound(reply('STOP'))).status).toBe(404)
    Object.assign(process.env, TWILIO)
  })
})
