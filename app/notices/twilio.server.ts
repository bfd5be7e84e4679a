// Sends one text through Twilio's Messages resource (POST {TWILIO_API_BASE}/2010-04-01/Accounts/{AccountSid}/
// Messages.json, form-encoded To/From/Body, HTTP Basic auth with the Account SID and auth token) with plain fetch,
// and says what the delivery engine must do next. Decision 020: why not the `twilio` package, and the
// classification below.
//
// - accepted: Twilio took the message (its sid is kept); never send it again.
// - opted-out: the recipient replied STOP to our number (Twilio error 21610); record it, never retry.
// - failed: Twilio refused this message for good (400: an invalid or unreachable number, an empty body…);
//   retrying would be refused the same way.
// - retry: nothing was decided — rate limited (429), Twilio or the network failed (5xx, timeouts, resets), or our
//   credentials were refused (401/403/404: the operator can fix them, and texts should then go rather than be
//   lost). `retryAfterMs` carries Twilio's Retry-After; `ambiguous` says Twilio may have taken the message anyway
//   (the request reached it and no answer came back), which the engine must weigh before sending again.
// - not-configured: no Twilio settings; the app shows the text in the built-in mailbox instead.
import { z } from 'zod'
import type { TwilioConfig } from './twilio-config.server'

export type TextMessage = {
  /** E.164. */
  to: string
  body: string
}

export type TextOutcome =
  | { status: 'accepted'; sid: string }
  | { status: 'opted-out'; code: number; message: string }
  | { status: 'failed'; code: number | null; message: string }
  | { status: 'retry'; retryAfterMs: number | null; ambiguous: boolean; message: string }
  | { status: 'not-configured' }

/** A send waits this long: Twilio answers in well under a second; a hung connection must not hold a worker. */
export const TWILIO_TIMEOUT_MS = 10_000
/** Twilio's limit for a message body (error 21617 beyond it). */
export const MAX_BODY_CHARACTERS = 1600
/** Twilio's error for a recipient who replied STOP to this sender. */
export const UNSUBSCRIBED_RECIPIENT = 21610

const E164 = /^\+[1-9]\d{6,14}$/

const TwilioError = z.object({ code: z.number().int().optional(), message: z.string().optional() })
const TwilioMessage = z.object({ sid: z.string().min(1) })

export async function sendText(
  config: TwilioConfig | undefined,
  message: TextMessage,
  { timeoutMs = TWILIO_TIMEOUT_MS, now = () => Date.now() }: { timeoutMs?: number; now?: () => number } = {},
): Promise<TextOutcome> {
  if (!config) return { status: 'not-configured' }
  // Refused here rather than by Twilio: the answer is the same and no request is spent.
  if (!E164.test(message.to))
    return { status: 'failed', code: null, message: 'The number is not a valid phone number.' }
  if (message.body.trim() === '') return { status: 'failed', code: null, message: 'The text is empty.' }
  if (message.body.length > MAX_BODY_CHARACTERS) {
    return { status: 'failed', code: null, message: `The text is longer than ${MAX_BODY_CHARACTERS} characters.` }
  }
  const url = `${config.apiBase}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`
  const credentials = Buffer.from(`${config.accountSid}:${config.authToken}`, 'utf8').toString('base64')
  let response: Response
  let body: unknown
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ To: message.to, From: config.from, Body: message.body }),
      // Twilio has no business redirecting this; following a redirect would resend the credentials elsewhere.
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    })
    body = await response.json().catch(() => undefined)
  } catch (error) {
    return unreachable(error, timeoutMs)
  }
  return classify(response.status, body, response.headers.get('retry-after'), now())
}

function classify(status: number, body: unknown, retryAfter: string | null, now: number): TextOutcome {
  if (status >= 200 && status < 300) {
    const accepted = TwilioMessage.safeParse(body)
    if (accepted.success) return { status: 'accepted', sid: accepted.data.sid }
    return {
      status: 'retry',
      retryAfterMs: null,
      ambiguous: true,
      message: `Twilio answered HTTP ${status} without a message sid`,
    }
  }
  const error = TwilioError.safeParse(body)
  const code = error.success ? (error.data.code ?? null) : null
  const said = error.success && error.data.message ? `: ${error.data.message}` : ''
  const detail = `Twilio answered HTTP ${status}${code === null ? '' : ` (error ${code})`}${said}`
  if (status === 429 || status === 503) {
    return { status: 'retry', retryAfterMs: retryAfterMs(retryAfter, now), ambiguous: false, message: detail }
  }
  if (status >= 500) {
    return { status: 'retry', retryAfterMs: retryAfterMs(retryAfter, now), ambiguous: true, message: detail }
  }
  if (status === 401 || status === 403 || status === 404) {
    return {
      status: 'retry',
      retryAfterMs: null,
      ambiguous: false,
      message: `${detail}. Check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN.`,
    }
  }
  if (code === UNSUBSCRIBED_RECIPIENT) {
    return { status: 'opted-out', code, message: 'The recipient replied STOP to this number.' }
  }
  return { status: 'failed', code, message: (error.success && error.data.message) || detail }
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds from now; null if absent. */
export function retryAfterMs(header: string | null, now: number): number | null {
  const value = header?.trim()
  if (!value) return null
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

function unreachable(error: unknown, timeoutMs: number): TextOutcome {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    // The request may have reached Twilio and been accepted: only the answer is missing.
    return {
      status: 'retry',
      retryAfterMs: null,
      ambiguous: true,
      message: `Twilio did not answer within ${timeoutMs / 1000} s`,
    }
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined
  const code = cause && 'code' in cause ? String(cause.code) : undefined
  // No connection means no request: Twilio cannot have taken the message.
  const neverSent =
    code !== undefined && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)
  return {
    status: 'retry',
    retryAfterMs: null,
    ambiguous: !neverSent,
    message: `Twilio could not be reached (${code ?? (error instanceof Error ? error.message : String(error))})`,
  }
}

const TwilioMessageList = z.object({
  messages: z.array(
    z.object({ sid: z.string(), to: z.string(), body: z.string(), date_created: z.string().nullish() }),
  ),
})

/**
 * Whether Twilio already took this text: asked before sending again after an attempt whose answer was lost (a
 * timeout after the request went out, a 5xx), so a retry never makes the customer's phone buzz twice. Lists the
 * sender's messages to the number created since the first attempt (Messages resource, GET with To, From and
 * DateSent>) and matches the body. Returns the sid, null when it is not there, or 'unknown' when Twilio could not be
 * asked (then the engine waits and asks again rather than risk a second text).
 */
export async function findSentText(
  config: TwilioConfig,
  message: TextMessage & { since: Date },
  { timeoutMs = TWILIO_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<string | null | 'unknown'> {
  const query = new URLSearchParams({
    To: message.to,
    From: config.from,
    // Twilio's inequality filter: the key is "DateSent>" (on or after that UTC day).
    'DateSent>': message.since.toISOString().slice(0, 10),
    PageSize: '100',
  })
  const url = `${config.apiBase}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json?${query}`
  const credentials = Buffer.from(`${config.accountSid}:${config.authToken}`, 'utf8').toString('base64')
  try {
    const response = await fetch(url, {
      headers: { authorization: `Basic ${credentials}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!response.ok) return 'unknown'
    const list = TwilioMessageList.safeParse(await response.json())
    if (!list.success) return 'unknown'
    const found = list.data.messages.find((sent) => sent.to === message.to && sent.body === message.body)
    return found?.sid ?? null
  } catch {
    return 'unknown'
  }
}
