// A local server that speaks Twilio's Messages API (POST /2010-04-01/Accounts/{sid}/Messages.json) for tests of
// the texts adapter and, later, the delivery engine. It checks what Twilio checks — Basic auth with the Account SID
// and auth token, a form-encoded body with To, From and Body — and answers as Twilio does: 201 with the message
// resource, or an error status with Twilio's JSON error body. A test scripts trouble per call (429, 500, 400,
// hang) and reads back the messages it accepted.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type AcceptedText = { sid: string; to: string; from: string; body: string; dateCreated: Date }

/** What the server does with one well-formed call: accept it, answer an error, or never answer (a timeout). */
export type FakeTwilioAnswer =
  | 'accept'
  | 'hang'
  /** Takes the message, then never answers: the answer is lost (the engine must not send it twice). */
  | 'accept-then-hang'
  | { status: 429; retryAfter?: string }
  | { status: 500 | 502 | 503 }
  | { status: 400; code: number; message?: string }

export type FakeTwilio = {
  url: string
  accountSid: string
  authToken: string
  /** Messages accepted, in order. */
  accepted: AcceptedText[]
  /** Every call that reached the server, well-formed or not. */
  calls: number
  /** Decides each well-formed call (1-based call number, the form); default: accept. */
  answer: (call: number, form: URLSearchParams) => FakeTwilioAnswer
  /** Numbers that replied STOP to our sender: Twilio refuses them with 21610. */
  optedOut: Set<string>
  /** Twilio's clock, for the messages' dates (a test that moves the engine's clock moves this one with it). */
  now: () => Date
  close: () => Promise<void>
}

const E164 = /^\+[1-9]\d{6,14}$/

export async function startFakeTwilio({
  accountSid = `AC${randomBytes(16).toString('hex')}`,
  authToken = randomBytes(16).toString('hex'),
} = {}): Promise<FakeTwilio> {
  const fake: FakeTwilio = {
    url: '',
    accountSid,
    authToken,
    accepted: [],
    calls: 0,
    answer: () => 'accept',
    optedOut: new Set(),
    now: () => new Date(),
    close: async () => {},
  }
  const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`
  const server = http.createServer(async (request, response) => {
    fake.calls += 1
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`
    if (request.headers.authorization !== expected) {
      return error(response, 401, 20003, 'Authenticate')
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (url.pathname !== path)
      return error(response, 404, 20404, `The requested resource ${url.pathname} was not found`)
    if (request.method === 'GET') return list(response, url.searchParams)
    if (request.method !== 'POST') return error(response, 405, 20004, 'Method not allowed')
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      return error(response, 400, 21100, 'Content-Type must be application/x-www-form-urlencoded')
    }
    const form = new URLSearchParams(raw)
    const to = form.get('To') ?? ''
    const from = form.get('From') ?? ''
    const body = form.get('Body') ?? ''
    if (!to) return error(response, 400, 21604, "A 'To' phone number is required.")
    if (!from) return error(response, 400, 21603, "A 'From' phone number is required.")
    if (!body) return error(response, 400, 21602, 'Message body is required.')
    if (!E164.test(to)) return error(response, 400, 21211, `The 'To' number ${to} is not a valid phone number.`)
    if (body.length > 1600)
      return error(response, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.')
    const answer = fake.answer(fake.calls, form)
    if (answer === 'hang') return // the client's timeout ends it; close() cuts the connection
    if (answer !== 'accept' && answer !== 'accept-then-hang') {
      if (answer.status === 429) {
        const headers: Record<string, string> = answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}
        return error(response, 429, 20429, 'Too Many Requests', headers)
      }
      if (answer.status === 400) return error(response, 400, answer.code, answer.message ?? `Error ${answer.code}`)
      return error(response, answer.status, 20500, 'Internal Server Error')
    }
    if (fake.optedOut.has(to)) {
      return error(response, 400, 21610, 'Attempt to send to unsubscribed recipient')
    }
    const sid = `SM${randomBytes(16).toString('hex')}`
    fake.accepted.push({ sid, to, from, body, dateCreated: fake.now() })
    if (answer === 'accept-then-hang') return
    response.writeHead(201, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        sid,
        account_sid: accountSid,
        to,
        from,
        body,
        status: 'queued',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        error_code: null,
        error_message: null,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      }),
    )
  })
  /** GET Messages.json: the accepted messages filtered by To, From and DateSent> (a UTC day), newest first. */
  function list(response: http.ServerResponse, query: URLSearchParams) {
    const since = query.get('DateSent>')
    const messages = fake.accepted
      .filter(
        (m) => (!query.get('To') || m.to === query.get('To')) && (!query.get('From') || m.from === query.get('From')),
      )
      .filter((m) => !since || m.dateCreated.toISOString().slice(0, 10) >= since)
      .reverse()
      .map((m) => ({ sid: m.sid, to: m.to, from: m.from, body: m.body, date_created: m.dateCreated.toUTCString() }))
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ messages, page: 0, page_size: messages.length, next_page_uri: null }))
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return fake
}

function error(
  response: http.ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }))
}
