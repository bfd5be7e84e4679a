// What counts as a database outage, and what a request that hit one is answered. The real thing (PostgreSQL
// restarted under load, answers counted) is tests/integration/database-reconnect.test.ts.
import { DrizzleQueryError } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  answerDatabaseOutage,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  noteDatabaseOutage,
  throwIfDatabaseUnavailable,
} from './database-unavailable.server'

/** A node-postgres server error with its SQLSTATE. */
function pgError(code: string, message: string) {
  return Object.assign(new Error(message), { code })
}

/** How Drizzle hands the driver's error on. */
function viaDrizzle(cause: unknown) {
  return new DrizzleQueryError('select 1', [], cause as Error)
}

const OUTAGES = {
  'the server terminated the connection (restart)': pgError(
    '57P01',
    'terminating connection due to administrator command',
  ),
  'the server is starting up': pgError('57P03', 'the database system is starting up'),
  'the database refuses connections': pgError('55000', 'database "pool_bud" is not currently accepting connections'),
  'a connection exception': pgError('08006', 'connection failure'),
  'the socket closed mid-query': new Error('Connection terminated unexpectedly'),
  'a connection that already failed': new Error('Client has encountered a connection error and is not queryable'),
  'no connection in time': new Error('timeout exceeded when trying to connect'),
  'nothing listens on the port': Object.assign(new AggregateError([], 'connect ECONNREFUSED'), {
    code: 'ECONNREFUSED',
  }),
  'the network dropped': Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
}

const NOT_OUTAGES = {
  'a duplicate key': pgError('23505', 'duplicate key value violates unique constraint'),
  'a syntax error': pgError('42601', 'syntax error at or near "selec"'),
  'another prerequisite-state error': pgError('55000', 'cannot refresh materialized view concurrently'),
  'a bug': new TypeError("Cannot read properties of undefined (reading 'id')"),
  'a thrown string': 'Connection terminated',
  nothing: undefined,
}

describe('isDatabaseUnavailable', () => {
  for (const [name, error] of Object.entries(OUTAGES)) {
    it(`is true for ${name}, as thrown and as Drizzle wraps it`, () => {
      expect(isDatabaseUnavailable(error)).toBe(true)
      expect(isDatabaseUnavailable(viaDrizzle(error))).toBe(true)
    })
  }
  for (const [name, error] of Object.entries(NOT_OUTAGES)) {
    it(`is false for ${name}`, () => {
      expect(isDatabaseUnavailable(error)).toBe(false)
      expect(isDatabaseUnavailable(viaDrizzle(error))).toBe(false)
    })
  }

  it('lets an outage through a catch, and leaves other failures to it', () => {
    expect(() => throwIfDatabaseUnavailable(viaDrizzle(OUTAGES['the socket closed mid-query']))).toThrow()
    expect(() => throwIfDatabaseUnavailable(NOT_OUTAGES['a duplicate key'])).not.toThrow()
  })
})

describe('a request that hit a database outage', () => {
  const outage = viaDrizzle(OUTAGES['the server terminated the connection (restart)'])
  const failed = () => new Response('Unexpected Server Error', { status: 500 })

  it('is answered 503 with a page for a browser', async () => {
    const request = new Request('http://localhost:3999/app', { headers: { Accept: 'text/html,*/*' } })
    expect(noteDatabaseOutage(outage, request)).toBe(true)
    const response = answerDatabaseOutage(request, failed())
    expect(response.status).toBe(503)
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(response.headers.get('Retry-After')).toBe('5')
    // The page has no scripts and its own CSP, whose nonce its one stylesheet carries.
    const html = await response.text()
    expect(html).toContain(DATABASE_UNAVAILABLE_MESSAGE)
    expect(html).not.toContain('<script')
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('Content-Security-Policy') ?? '')?.[1]
    expect(html).toContain(`<style nonce="${nonce}">`)
  })

  it('is answered 503 with the message for a .data request (the error boundary shows it) and for a script', async () => {
    for (const [url, accept] of [
      ['http://localhost:3999/app.data', '*/*'],
      ['http://localhost:3999/app/visits/x/photos', 'application/json'],
    ] as const) {
      const request = new Request(url, { method: 'POST', headers: { Accept: accept } })
      noteDatabaseOutage(outage, request)
      const response = answerDatabaseOutage(request, failed())
      expect(response.status).toBe(503)
      expect(response.headers.get('X-Remix-Response')).toBeNull()
      expect(await response.text()).toBe(DATABASE_UNAVAILABLE_MESSAGE)
    }
  })

  it('keeps any other answer: a bug stays a 500, a redirect stays a redirect', () => {
    const bug = new Request('http://localhost:3999/app')
    expect(noteDatabaseOutage(new TypeError('x is undefined'), bug)).toBe(false)
    expect(answerDatabaseOutage(bug, failed()).status).toBe(500)

    const redirected = new Request('http://localhost:3999/app')
    noteDatabaseOutage(outage, redirected)
    expect(answerDatabaseOutage(redirected, new Response(null, { status: 302 })).status).toBe(302)
  })
})
