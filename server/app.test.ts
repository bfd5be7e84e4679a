// The Express app of server.mjs (server/app.mjs) with a stand-in for the app's build: what COMPRESSION does to a
// page's response (decision 065). The raw bytes are read with node:http, which — unlike fetch — does not undo gzip.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
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
        serveRequest: async (request: Request) =>
          new URL(request.url).pathname === '/events'
            ? new Response(`data: ${'x'.repeat(4000)}\n\n`, { headers: { 'Content-Type': 'text/event-stream' } })
            : new Response(PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
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

/** GET `url` asking for gzip; the status, the Content-Encoding and the body as sent. */
function get(url: string) {
  return new Promise<{ status: number; encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
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
})
