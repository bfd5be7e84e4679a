// The Express app of server.mjs (server/app.mjs) with a stand-in for the app's build: what COMPRESSION does to a
// page's response (decision 065), a page being compressed whole in one call (decision 072). The raw bytes are read
// with node:http, which — unlike fetch — does not undo the encoding.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from './app.mjs'

const PAGE = `<!DOCTYPE html><html><body>${'<p>A page large enough to be worth compressing.</p>'.repeat(100)}</body></html>`

let server: http.Server | undefined
afterEach(async () => {
  const listening = server
  server = undefined
  if (!listening) return
  listening.closeAllConnections()
  await new Promise((resolve) => listening.close(resolve))
})

/** Serves a page (and an event stream at /events) through createApp; returns the base URL. */
async function serve(compress?: boolean) {
  const build = {
    entry: {
      module: {
        // The app's own wrapper (entry.server.tsx) answers here, so React Router is never asked.
        serveRequest: async (request: Request) => {
          const { pathname } = new URL(request.url)
          if (pathname === '/events')
            return new Response(`data: ${'x'.repeat(4000)}\n\n`, { headers: { 'Content-Type': 'text/event-stream' } })
          if (pathname === '/small') return new Response('<p>Short.</p>', { headers: { 'Content-Type': 'text/html' } })
          if (pathname === '/no-transform')
            return new Response(PAGE, { headers: { 'Content-Type': 'text/html', 'Cache-Control': 'no-transform' } })
          if (pathname === '/photo.jpg') return new Response(PAGE, { headers: { 'Content-Type': 'image/jpeg' } })
          if (pathname === '/export.csv') {
            // A body in several chunks (a download written as it is read): compressed by the middleware's stream.
            const rows = ['name,city\n', ...Array.from({ length: 50 }, (_, i) => `Customer ${i},Tampa\n`.repeat(20))]
            const stream = new ReadableStream<Uint8Array>({
              start(controller) {
                for (const row of rows) controller.enqueue(new TextEncoder().encode(row))
                controller.close()
              },
            })
            return new Response(stream, { headers: { 'Content-Type': 'text/csv' } })
          }
          return new Response(PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8', Vary: 'Cookie' } })
        },
      },
    },
  }
  const app = createApp({
    appOrigin: 'http://pool.example.com',
    proxyHops: 0,
    getBuild: () => build as never,
    shutdown: { middleware: (_req: unknown, _res: unknown, next: () => void) => next() },
    ...(compress === undefined ? {} : { compress }),
  })
  const listening = http.createServer(app)
  server = listening
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
}

/** GET `url` asking for gzip (or what `acceptEncoding` says); the status, headers and the body as sent. */
function get(url: string, acceptEncoding: string | null = 'gzip') {
  type Answer = { status: number; encoding: string | undefined; headers: http.IncomingHttpHeaders; body: Buffer }
  return new Promise<Answer>((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding === null ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        )
        res.on('error', reject)
      })
      .on('error', reject)
  })
}

describe('COMPRESSION', () => {
  it('on (the default): a client that accepts gzip gets the page gzipped', async () => {
    const base = await serve()
    const response = await get(`${base}/about`)
    expect(response.status).toBe(200)
    expect(response.encoding).toBe('gzip')
    expect(response.body.length).toBeLessThan(PAGE.length / 4)
    expect(gunzipSync(response.body).toString()).toBe(PAGE)
  })

  it('off: the same request gets the page as is (identity), for the reverse proxy in front to compress', async () => {
    const base = await serve(false)
    const response = await get(`${base}/about`)
    expect(response.status).toBe(200)
    expect(response.encoding).toBeUndefined()
    expect(response.body.toString()).toBe(PAGE)
  })

  it('on: an event stream is still never compressed (each message must flush)', async () => {
    const base = await serve(true)
    const response = await get(`${base}/events`)
    expect(response.encoding).toBeUndefined()
    expect(response.body.toString()).toContain('data: xxx')
  })

  it('on: a page is encoded as the browser prefers (Brotli, else gzip, else deflate), whole, with its length', async () => {
    const base = await serve()
    const browser = await get(`${base}/about`, 'gzip, deflate, br, zstd')
    expect(browser.encoding).toBe('br')
    expect(brotliDecompressSync(browser.body).toString()).toBe(PAGE)
    // One call, one buffer: the length is known (the middleware's stream would have sent it chunked).
    expect(Number(browser.headers['content-length'])).toBe(browser.body.length)
    expect(browser.headers.vary).toBe('Cookie, Accept-Encoding')

    const noGzip = await get(`${base}/about`, 'gzip;q=0, deflate')
    expect(noGzip.encoding).toBe('deflate')
    expect(inflateSync(noGzip.body).toString()).toBe(PAGE)
  })

  it('on: what the middleware would not encode stays as it is', async () => {
    const base = await serve()
    for (const [path, accept] of [
      ['/about', null], // no Accept-Encoding
      ['/about', 'identity'],
      ['/small', 'gzip'], // under 1 kB
      ['/no-transform', 'gzip'],
      ['/photo.jpg', 'gzip'], // not a compressible type
    ] as const) {
      const response = await get(`${base}${path}`, accept)
      expect(response.encoding, `${path} with ${accept}`).toBeUndefined()
      expect(Number(response.headers['content-length'])).toBe(response.body.length)
    }
    expect((await get(`${base}/no-transform`)).body.toString()).toBe(PAGE)
  })

  it('on: a body in several chunks is compressed as it streams; off, it goes out as it is', async () => {
    const on = await get(`${await serve()}/export.csv`)
    expect(on.encoding).toBe('gzip')
    expect(on.headers['content-length']).toBeUndefined()
    const csv = gunzipSync(on.body).toString()
    expect(csv.startsWith('name,city\nCustomer 0,Tampa\n')).toBe(true)
    expect(csv.split('\n')).toHaveLength(1 + 50 * 20 + 1)
    const off = await get(`${await serve(false)}/export.csv`)
    expect(off.encoding).toBeUndefined()
    expect(off.body.toString()).toBe(csv)
  })
})
