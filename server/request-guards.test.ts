import { describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER, REQUEST_ID_HEADER, requestGuards } from './request-guards.mjs'

type Req = { method: string; url: string; headers: Record<string, string>; socket: { remoteAddress: string } }

/** Runs the guards in order over a fake request; returns the response headers and status. */
function run(appOrigin: string, req: Partial<Req>) {
  const headers: Record<string, string> = {}
  const res = {
    statusCode: 200,
    body: '',
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value
    },
    end(body: string) {
      this.body = body
    },
  }
  const request: Req = { method: 'GET', url: '/', headers: {}, socket: { remoteAddress: '203.0.113.5' }, ...req }
  let passed = 0
  for (const guard of requestGuards({ appOrigin, clientIp: () => undefined })) {
    let next = false
    guard(request as never, res as never, () => {
      next = true
    })
    if (!next) break
    passed++
  }
  return { headers, res, request, passed }
}

describe('request guards', () => {
  it('give every request an id of ours, in the request the app logs and in the response', () => {
    const first = run('http://localhost:3000', { headers: { [REQUEST_ID_HEADER]: 'forged-by-client' } })
    const second = run('http://localhost:3000', {})
    const id = first.request.headers[REQUEST_ID_HEADER]
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(first.headers['x-request-id']).toBe(id)
    expect(second.request.headers[REQUEST_ID_HEADER]).not.toBe(id)
  })

  it('send HSTS only when the app is served over HTTPS', () => {
    expect(run('https://pool.example.com', {}).headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    )
    expect(run('http://localhost:3000', {}).headers['strict-transport-security']).toBeUndefined()
  })

  it('overwrite a client-sent client-IP header with the socket address', () => {
    const { request } = run('http://localhost:3000', { headers: { [CLIENT_IP_HEADER]: '1.2.3.4' } })
    expect(request.headers[CLIENT_IP_HEADER]).toBe('203.0.113.5')
  })

  it("refuse cross-origin posts before the app sees them (the body cap is the adapter's: http-adapter.test.ts)", () => {
    const cross = run('https://pool.example.com', { method: 'POST', headers: { origin: 'https://evil.example' } })
    expect(cross.res.statusCode).toBe(403)
    const flagged = run('https://pool.example.com', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } })
    expect(flagged.res.statusCode).toBe(403)
    const sameOrigin = run('https://pool.example.com', {
      method: 'POST',
      headers: { origin: 'https://pool.example.com' },
    })
    expect(sameOrigin.passed).toBe(2)
  })
})
