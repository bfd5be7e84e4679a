// POST /webhooks/sms — Twilio's inbound-message webhook (docs/product.md "Notices"): a customer replying STOP (or
// UNSUBSCRIBE, CANCEL …) is never texted again until they reply START. Only a request Twilio signed for the configured
// URL (APP_URL + /webhooks/sms) with our auth token changes anything; a bad or missing signature is a 403. Answers
// empty TwiML: Twilio itself sends the carrier-required confirmation for these keywords. Each MessageSid is applied
// once (decision 032): Twilio's signatures carry no time, so a replayed signed START changes nothing.

import { smsKeyword } from '~/notices/sms-keywords'
import { twilioConfig } from '~/notices/twilio-config.server'
import { isTwilioSignatureValid } from '~/notices/twilio-signature.server'
import { applyInboundKeyword } from '~/outbox/text-delivery.server'
import { env } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { toE164 } from '~/utils/phone'
import type { Route } from './+types/sms-webhook'

export const SMS_WEBHOOK_PATH = '/webhooks/sms'
const MAX_BODY_BYTES = 16 * 1024
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>'

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

export async function action({ request }: Route.ActionArgs) {
  const config = twilioConfig()
  // Without Twilio there is no number to reply to: the webhook does not exist.
  if (!config) return plain(404, 'Not found')
  if (!(request.headers.get('Content-Type') ?? '').startsWith('application/x-www-form-urlencoded')) {
    return plain(400, 'Expected a form post.')
  }
  const raw = await request.text()
  if (raw.length > MAX_BODY_BYTES) return plain(413, 'Too large.')
  const params = [...new URLSearchParams(raw)]
  const url = `${env().APP_URL}${SMS_WEBHOOK_PATH}`
  if (!isTwilioSignatureValid(config.authToken, request.headers.get('X-Twilio-Signature'), url, params)) {
    logger.warn({ url }, 'inbound text refused: the Twilio signature does not match')
    return plain(403, 'Invalid signature.')
  }
  const form = new URLSearchParams(raw)
  // Twilio sends every inbound text with its MessageSid ("SM" + 32 hex digits); one without it is not Twilio's.
  const messageSid = form.get('MessageSid') ?? ''
  if (!/^(SM|MM)[0-9a-f]{32}$/i.test(messageSid)) return plain(400, 'Missing MessageSid.')
  const body = form.get('Body') ?? ''
  const keyword = smsKeyword(body)
  const outcome = await applyInboundKeyword({
    messageSid,
    phone: toE164(form.get('From') ?? ''),
    keyword,
    via: body.trim().toUpperCase().slice(0, 20),
  })
  if (outcome === 'duplicate') logger.info('inbound text already handled (same MessageSid); nothing changed')
  else if (keyword !== 'none') logger.info({ keyword }, 'inbound text keyword applied')
  return new Response(EMPTY_TWIML, { headers: { 'Content-Type': 'text/xml; charset=utf-8' } })
}
