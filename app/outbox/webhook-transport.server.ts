// How a webhook leaves (docs/decisions/051-webhooks.md): the event's body, its signature, and one signed JSON POST to
// the address that was checked. The connection's own DNS look-up is replaced by the checked address, so nothing
// resolves the name a second time. The worker (app/outbox/webhook-worker.server.ts) decides when and what to send.
import { createHmac } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'

export const WEBHOOK_TIMEOUT_MS = 10_000

/** The JSON body of an event, the same bytes on every attempt. */
export function eventBody(event: { id: string; type: string; createdAt: Date; data: unknown }) {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created: Math.floor(event.createdAt.getTime() / 1000),
    data: event.data,
  })
}

/** `Pool-Bud-Signature`: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the endpoint's secret>. */
export function signatureHeader(secret: string, body: string, unixSeconds: number) {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')
  return `t=${unixSeconds},v1=${v1}`
}

export type SendOutcome = { statusCode: number | null; durationMs: number; error: string | null }

export function postWebhook({
  url,
  address,
  family,
  body,
  headers,
}: {
  url: URL
  address: string
  family: number
  body: string
  headers: Record<string, string>
}): Promise<SendOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup,
        timeout: WEBHOOK_TIMEOUT_MS,
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'PoolBud-Webhooks/1', ...headers },
      },
      (response) => {
        // The answer's body is not read beyond draining it: only its status counts; redirects are not followed.
        response.resume()
        response.on('end', () =>
          resolve({ statusCode: response.statusCode ?? null, durationMs: elapsed(), error: null }),
        )
        response.on('error', (error) =>
          resolve({ statusCode: response.statusCode ?? null, durationMs: elapsed(), error: error.message }),
        )
      },
    )
    request.on('timeout', () => request.destroy(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds`)))
    request.on('error', (error) => resolve({ statusCode: null, durationMs: elapsed(), error: error.message }))
    request.end(body)
  })
}
