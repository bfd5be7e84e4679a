// The Node adapter both servers hand requests to React Router through (server/app.mjs mounts it in production and
// under `npm run dev`; dev-server.test.ts checks the running dev server). Here it runs on a real HTTP server in front
// of a stand-in for React Router, so what reaches the app — and what the client gets — can be seen exactly.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { postChunked } from '../tests/e2e/raw-http'
import { createRequestHandler, MAX_BODY_BYTES, MAX_IMPORT_BYTES, MAX_UPLOAD_BYTES } from './http-adapter.mjs'

const ORIGIN = 'https://pool.example.com'

type Handler = (request: Request) => Promise<Response>
let server: http.Server | undefined
let logged: Record<string, unknown>[] = []

afterEach(async () => {
  logged = []
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** Serves `handler` through the adapter; returns the base URL. */
async function serve(handler: Handler) {
  const adapter = createRequestHandler({
    getBuild: () => ({ entry: { module: {} } }) as never,
    origin: ORIGIN,
    createHandler: () => handler,
    log: (fields: Record<string, unknown>) => logged.push(fields),
  })
  const listening = http.createServer((req, res) =>
    adapter(req, res, (error: unknown) => {
      res.statusCode = 500
      res.end(String(error))
    }),
  )
  server = listening
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
}

describe('request bodies', () => {
  it('a declared Content-Length over the cap is refused with 413 before the app runs', async () => {
    let called = false
    const base = await serve(async () => {
      called = true
      return new Response('ok')
    })
    const response = await fetch(`${base}/login`, { method: 'POST', body: new Uint8Array(MAX_BODY_BYTES + 1) })
    expect(response.status).toBe(413)
    expect(await response.text()).toBe('Request too large.')
    expect(called).toBe(false)
    expect(logged).toEqual([
      { method: 'POST', path: '/login', limit: MAX_BODY_BYTES, msg: 'request body too large: answered 413' },
    ])
  })

  it('a chunked body is read only up to the cap: 413 while the client still sends, then the connection closes', async () => {
    let seen: { error?: string; aborted?: boolean } = {}
    const base = await serve(async (request) => {
      try {
        await request.text()
      } catch (error) {
        seen = { error: (error as Error).message, aborted: request.signal.aborted }
      }
      return new Response('read it all')
    })
    const planned = 64 * 1024 * 1024
    const outcome = await postChunked(base, '/app/account', { plannedBytes: planned })
    expect(outcome.status).toBe(413)
    expect(outcome.body).toBe('Request too large.')
    expect(outcome.headers.connection).toBe('close')
    expect(outcome.sentWhenAnswered).toBeLessThan(planned)
    expect(outcome.closedByServer).toBe(true)
    // The app's reader failed, on a request marked aborted (React Router does not log those as errors).
    expect(seen).toEqual({ error: 'Request too large.', aborted: true })
    expect(logged).toMatchObject([{ path: '/app/account', msg: 'request body too large: answered 413' }])
  })

  it('the photo upload route may send up to its own cap, not a byte more', async () => {
    const base = await serve(async (request) => new Response(String((await request.arrayBuffer()).byteLength)))
    const within = MAX_UPLOAD_BYTES - 64 * 1024
    const ok = await postChunked(base, '/app/visits/1/photos', { plannedBytes: within, awaitClose: false })
    expect(ok.status).toBe(200)
    expect(ok.body).toBe(String(within))
    const over = await postChunked(base, '/app/visits/1/photos', { plannedBytes: MAX_UPLOAD_BYTES + 1024 * 1024 })
    expect(over.status).toBe(413)
    // Any other path has the form cap.
    const elsewhere = await postChunked(base, '/app/visits/1', { plannedBytes: 2 * MAX_BODY_BYTES })
    expect(elsewhere.status).toBe(413)
  })

  it('the customer import page may be sent a 50 MB file, which it answers itself; more is refused', async () => {
    let called = false
    const base = await serve(async (request) => {
      called = true
      // The page reads what it needs (the first 10 MB) and answers; the rest is never read.
      const reader = request.body?.getReader()
      let read = 0
      while (reader && read < 10 * 1024 * 1024) read += (await reader.read()).value?.byteLength ?? Infinity
      await reader?.cancel()
      return new Response('This file is too large. Split it into files under 10 MB.', { status: 400 })
    })
    const fifty = await postChunked(base, '/app/customers/import', { plannedBytes: 50 * 1024 * 1024 })
    expect(fifty.status).toBe(400)
    expect(fifty.body).toContain('Split it into files under 10 MB')
    expect(called).toBe(true)
    const declared = await fetch(`${base}/app/customers/import`, {
      method: 'POST',
      body: new Uint8Array(MAX_IMPORT_BYTES + 1),
    })
    expect(declared.status).toBe(413)
  })

  it('a body within the cap reaches the app whole, chunked or with a length', async () => {
    const base = await serve(async (request) => new Response(await request.text()))
    const form = 'intent=login&email=a%40example.test'
    const declared = await fetch(`${base}/login`, { method: 'POST', body: form })
    expect(await declared.text()).toBe(form)
    const chunked = await postChunked(base, '/login', { plannedBytes: 5 * 64 * 1024, awaitClose: false })
    expect(chunked.status).toBe(200)
    expect(chunked.body).toBe('a'.repeat(5 * 64 * 1024))
  })

  it('a body the app did not read closes the connection after the answer, unread', async () => {
    const base = await serve(async () => Response.json({ ok: false }, { status: 401 }))
    const outcome = await postChunked(base, '/app/visits/1/photos', { plannedBytes: 64 * 1024 * 1024 })
    expect(outcome.status).toBe(401)
    expect(outcome.headers.connection).toBe('close')
    expect(outcome.closedByServer).toBe(true)
  })
})

describe('requests and responses', () => {
  it('the app sees the public origin, whatever Host the client sent', async () => {
    const base = await serve(async (request) => new Response(request.url))
    const response = await fetch(`${base}/app/visits?x=1`, { headers: { Host: 'evil.example' } })
    expect(await response.text()).toBe(`${ORIGIN}/app/visits?x=1`)
  })

  it('a response is not cached unless it says so, and keeps every cookie', async () => {
    const base = await serve(async (request) => {
      if (request.url.endsWith('/photo')) {
        return new Response('jpeg', { headers: { 'Cache-Control': 'private, max-age=3600' } })
      }
      const headers = new Headers()
      headers.append('Set-Cookie', 'a=1; Path=/')
      headers.append('Set-Cookie', 'b=2; Path=/')
      return new Response('page', { headers })
    })
    const page = await fetch(`${base}/app`)
    expect(page.headers.get('Cache-Control')).toBe('no-store')
    expect(page.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/'])
    expect((await fetch(`${base}/photo`)).headers.get('Cache-Control')).toBe('private, max-age=3600')
  })

  it('an event stream is flushed as it is written, and its request aborts when the client leaves', async () => {
    let aborted: () => void = () => {}
    const gone = new Promise<void>((resolve) => {
      aborted = resolve
    })
    const base = await serve(async (request) => {
      request.signal.addEventListener('abort', () => aborted())
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(': connected\n\n'))
        },
      })
      return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } })
    })
    const controller = new AbortController()
    const response = await fetch(`${base}/app/events`, { signal: controller.signal })
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    // The first message arrives while the stream is still open.
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': connected\n\n')
    controller.abort()
    await gone
  })

  it('a body of one buffer (every rendered page) goes out with its length in one write; a longer stream is chunked', async () => {
    const page = 'x'.repeat(15_000)
    const base = await serve(async (request) => {
      if (new URL(request.url).pathname === '/about') return new Response(page)
      const parts = ['one,', 'two,', 'three']
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const part = parts.shift()
          if (part === undefined) controller.close()
          else controller.enqueue(new TextEncoder().encode(part))
        },
      })
      return new Response(stream)
    })
    const raw = (path: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        http
          .get(`${base}${path}`, (res) => {
            let body = ''
            res.setEncoding('utf8')
            res.on('data', (chunk: string) => {
              body += chunk
            })
            res.on('end', () => resolve({ headers: res.headers, body }))
          })
          .on('error', reject)
      })
    const whole = await raw('/about')
    expect(whole.headers['content-length']).toBe(String(page.length))
    expect(whole.headers['transfer-encoding']).toBeUndefined()
    expect(whole.body).toBe(page)
    const streamed = await raw('/export.csv')
    expect(streamed.headers['transfer-encoding']).toBe('chunked')
    expect(streamed.body).toBe('one,two,three')
  })
})
