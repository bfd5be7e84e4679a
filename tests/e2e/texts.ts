// The texts the app sent in this run, read back from the local Twilio-speaking server of the global setup through
// Twilio's own list API, and inbound texts (a customer's STOP) posted to the app signed as Twilio signs them.
import { twilioSignature } from '../../app/notices/twilio-signature.server'

export const E2E_TWILIO_ENV = 'E2E_TWILIO'
export const E2E_TWILIO_FROM = '+18135550100'

type Texting = { url: string; accountSid: string; authToken: string; from: string }

function texting(): Texting {
  const value = process.env[E2E_TWILIO_ENV]
  if (!value) throw new Error(`${E2E_TWILIO_ENV} is not set: the global setup starts the Twilio-speaking server`)
  return JSON.parse(value) as Texting
}

export type SentText = { sid: string; to: string; body: string; date_created: string }

/** Every text the app sent (to `to`, E.164, when given), newest first. */
export async function sentTexts(to?: string): Promise<SentText[]> {
  const { url, accountSid, authToken } = texting()
  const query = new URLSearchParams(to ? { To: to } : {})
  const response = await fetch(`${url}/2010-04-01/Accounts/${accountSid}/Messages.json?${query}`, {
    headers: { authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}` },
  })
  const list = (await response.json()) as { messages: SentText[] }
  return list.messages
}

/** Posts an inbound text from `from` to the app's webhook, signed with the account's auth token as Twilio does. */
export async function replyText(baseURL: string, from: string, body: string, { sign = true } = {}) {
  const { authToken, from: ourNumber } = texting()
  const params = { MessageSid: `SM${crypto.randomUUID().replaceAll('-', '')}`, From: from, To: ourNumber, Body: body }
  const url = `${baseURL}/webhooks/sms`
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(sign ? { 'x-twilio-signature': twilioSignature(authToken, url, Object.entries(params)) } : {}),
    },
    body: new URLSearchParams(params),
  })
}
