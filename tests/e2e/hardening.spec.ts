// Web hardening of the real production server (issue #8 §3), over plain HTTP: what a browser
// is told (headers, cookies, caching), and what an attacker's requests get (cross-origin posts,
// oversized bodies, brute force).
import type { APIRequestContext, Page } from '@playwright/test'
import sharp from 'sharp'
import { DEMO_PASSWORD, expect, test, waitForHydration } from './fixtures'
import { postChunked } from './raw-http'

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

test.describe('security headers', () => {
  for (const path of ['/', '/login', '/forgot-password', '/no-such-page']) {
    test(`${path} sends a nonce CSP, frame denial, nosniff and a referrer policy`, async ({ request }) => {
      const response = await request.get(path, { maxRedirects: 0 })
      const headers = response.headers()
      const csp = headers['content-security-policy'] ?? ''
      const scriptSrc = csp.split(';').find((part) => part.trim().startsWith('script-src')) ?? ''
      // Scripts run only with this response's nonce: never inline handlers or eval.
      expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=_-]{16,}'/)
      expect(scriptSrc).not.toContain("'unsafe-inline'")
      expect(scriptSrc).not.toContain("'unsafe-eval'")
      // Styles too: an injected style attribute or <style> could restyle the page to trick a user.
      const styleSrc = csp.split(';').find((part) => part.trim().startsWith('style-src')) ?? ''
      expect(styleSrc).toMatch(/'nonce-[A-Za-z0-9+/=_-]{16,}'/)
      expect(styleSrc).not.toContain("'unsafe-inline'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).toContain("object-src 'none'")
      expect(headers['x-frame-options']).toBe('DENY')
      expect(headers['x-content-type-options']).toBe('nosniff')
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
      expect(headers['x-powered-by']).toBeUndefined()
    })
  }

  test('each page gets a fresh nonce, and every inline script and stylesheet carries it', async ({ request }) => {
    const first = await request.get('/login')
    const second = await request.get('/login')
    const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1]
    const nonce = nonceOf(first.headers()['content-security-policy'] ?? '')
    expect(nonce).toBeTruthy()
    expect(nonceOf(second.headers()['content-security-policy'] ?? '')).not.toBe(nonce)
    const html = await first.text()
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
    for (const [tag] of html.matchAll(/<style\b[^>]*>/g)) expect(tag).toContain(`nonce="${nonce}"`)
  })

  test('the stylesheet is one hashed file the browser caches for a year, not CSS inside every page', async ({
    request,
  }) => {
    const html = await (await request.get('/login')).text()
    expect(html).not.toMatch(/<style\b/)
    const href = /<link rel="stylesheet" href="(\/assets\/[^"]+-[\w-]{6,}\.css)"/.exec(html)?.[1]
    expect(href).toBeTruthy()
    const css = await request.get(href as string)
    expect(css.status()).toBe(200)
    expect(css.headers()['content-type']).toContain('text/css')
    expect(css.headers()['cache-control']).toContain('immutable')
    expect(css.headers()['cache-control']).toContain('max-age=31536000')
  })

  test('public files are still served from the list the server made at start', async ({ request }) => {
    const favicon = await request.get('/favicon.svg')
    expect(favicon.status()).toBe(200)
    expect(favicon.headers()['content-type']).toContain('image/svg+xml')
    expect(favicon.headers()['cache-control']).toContain('max-age=3600')
  })
})

test.describe('requests an attacker can make', () => {
  test('a cross-origin form post is refused before any action runs', async ({ request }) => {
    const response = await request.post('/login', {
      headers: { ...FORM, origin: 'https://evil.example' },
      data: form({ intent: 'login', email: 'owner@bluelagoon.test', password: DEMO_PASSWORD }),
      maxRedirects: 0,
    })
    expect(response.status()).toBe(403)
    expect(await response.text()).toBe('Cross-origin requests are not allowed.')
    expect(response.headers()['set-cookie']).toBeUndefined()
  })

  test('a browser-flagged cross-site post is refused even without an Origin header', async ({ request }) => {
    const response = await request.post('/forgot-password', {
      headers: { ...FORM, 'sec-fetch-site': 'cross-site' },
      data: form({ email: 'owner@bluelagoon.test' }),
    })
    expect(response.status()).toBe(403)
  })

  test('a return path after login never leaves the site (open redirect)', async ({ request, baseURL }) => {
    const origin = new URL(baseURL as string).origin
    const hostile = [
      '/..//evil.example/x',
      '//evil.example/x',
      '/\\evil.example/x',
      '/%2F%2Fevil.example/x',
      '/%5Cevil.example/x',
      '/%2e%2e//evil.example/x',
      '/\t/evil.example/x',
      '///evil.example/x',
      'https://evil.example/x',
      'javascript:alert(1)',
    ]
    const staysHome = (location: string | undefined, redirectTo: string) => {
      expect({ redirectTo, location }).toEqual({ redirectTo, location: '/app' })
      expect(new URL(location as string, origin).origin).toBe(origin)
    }
    // The login POST, with each return path…
    for (const redirectTo of hostile) {
      const response = await request.post('/login', {
        headers: { ...FORM, origin },
        data: form({ intent: 'login', email: 'dispatch@bluelagoon.test', password: DEMO_PASSWORD, redirectTo }),
        maxRedirects: 0,
      })
      expect(response.status()).toBe(302)
      staysHome(response.headers().location, redirectTo)
    }
    // … and /login opened while signed in (the request context keeps the session cookie), as sent raw and encoded.
    const queries = [
      'redirectTo=/..//evil.example/x',
      ...hostile.map((path) => `redirectTo=${encodeURIComponent(path)}`),
    ]
    for (const query of queries) {
      const response = await request.get(`/login?${query}`, { maxRedirects: 0 })
      expect(response.status()).toBe(302)
      staysHome(response.headers().location, query)
    }
    // A path of this site, with its query, is still followed.
    const kept = await request.get(`/login?redirectTo=${encodeURIComponent('/app/customers?q=pool&page=2')}`, {
      maxRedirects: 0,
    })
    expect(kept.headers().location).toBe('/app/customers?q=pool&page=2')
  })

  test('an oversized form body is refused with 413', async ({ request, baseURL }) => {
    const response = await request.post('/login', {
      headers: { ...FORM, origin: new URL(baseURL as string).origin },
      data: form({ intent: 'login', email: 'x@example.test', password: 'p'.repeat(2 * 1024 * 1024) }),
    })
    expect(response.status()).toBe(413)
  })
})

/** Signs `email` in through the login form; returns the session cookie for a raw request. */
async function sessionCookie(request: APIRequestContext, baseURL: string, email: string) {
  const response = await request.post('/login', {
    headers: { ...FORM, origin: new URL(baseURL).origin },
    data: form({ intent: 'login', email, password: DEMO_PASSWORD }),
    maxRedirects: 0,
  })
  expect(response.status()).toBe(302)
  return response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === 'set-cookie')
    .map((header) => header.value.split(';')[0])
    .join('; ')
}

/** As the dispatcher, a new visit of Blue Lagoon's first customer (so no seeded visit's photos change); its id. */
async function newVisit(page: Page) {
  await page.goto('/login')
  await waitForHydration(page)
  await page.getByLabel('Email', { exact: true }).fill('dispatch@bluelagoon.test')
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
  await waitForHydration(page)
  const createForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create visit' }) })
  // The picker lists customers by name before anything is typed: ↓ opens it, and the first is chosen.
  await createForm.getByRole('combobox', { name: 'Customer', exact: true }).press('ArrowDown')
  await createForm.getByRole('listbox', { name: 'Customer matches' }).getByRole('option').first().click()
  await createForm.getByRole('button', { name: 'Create visit' }).click()
  const link = page.getByRole('link', { name: 'Open it' })
  await expect(link).toBeVisible()
  return (await link.getAttribute('href'))?.split('/').pop() ?? ''
}

test.describe('request bodies are capped by the bytes read, not by what Content-Length says', () => {
  // A chunked body has no Content-Length: the server must count what it reads, stop at the cap (1 MB for forms,
  // ~17 MB for photos; the photo route refuses at 16 MB with its own message) and answer 413 while the client is
  // still sending, then close the connection without reading the rest.
  const PLANNED = 64 * 1024 * 1024

  test('a chunked body to the sign-in form is refused with 413 before it is read', async ({ baseURL, clientIp }) => {
    const outcome = await postChunked(baseURL as string, '/login', {
      headers: { 'X-Forwarded-For': clientIp },
      plannedBytes: PLANNED,
    })
    expect(outcome.status).toBe(413)
    expect(outcome.body).toBe('Request too large.')
    expect(outcome.sentWhenAnswered).toBeLessThan(PLANNED)
    expect(outcome.closedByServer).toBe(true)
  })

  test('a chunked body to a signed-in form is refused with 413; a normal form post still works', async ({
    request,
    baseURL,
    clientIp,
  }) => {
    // The sign-in itself is a normal form post (302 with a session).
    const cookie = await sessionCookie(request, baseURL as string, 'office@bluelagoon.test')
    const outcome = await postChunked(baseURL as string, '/app/account', {
      headers: { Cookie: cookie, 'X-Forwarded-For': clientIp },
      plannedBytes: PLANNED,
    })
    expect(outcome.status).toBe(413)
    expect(outcome.sentWhenAnswered).toBeLessThan(PLANNED)
    expect(outcome.closedByServer).toBe(true)
    // The session is untouched: the page behind the refused form still opens.
    const page = await request.get('/app/account', { headers: { cookie }, maxRedirects: 0 })
    expect(page.status()).toBe(200)
  })

  test('a chunked photo upload past the limit is refused with 413; a normal photo upload still works', async ({
    page,
    request,
    baseURL,
    clientIp,
  }) => {
    const visitId = await newVisit(page)
    const cookie = await sessionCookie(request, baseURL as string, 'dispatch@bluelagoon.test')
    const outcome = await postChunked(baseURL as string, `/app/visits/${visitId}/photos`, {
      headers: {
        Cookie: cookie,
        'X-Forwarded-For': clientIp,
        Accept: 'application/json',
        'Content-Type': 'multipart/form-data; boundary=x',
      },
      plannedBytes: PLANNED,
    })
    expect(outcome.status).toBe(413)
    expect(JSON.parse(outcome.body)).toEqual({
      ok: false,
      refused: true,
      code: 'too-large',
      message: 'Photos must be 15 MB or smaller.',
    })
    expect(outcome.sentWhenAnswered).toBeLessThan(PLANNED)
    expect(outcome.closedByServer).toBe(true)

    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#1f8fcf' } })
      .jpeg()
      .toBuffer()
    const upload = await request.post(`/app/visits/${visitId}/photos`, {
      headers: { cookie, origin: new URL(baseURL as string).origin, accept: 'application/json' },
      multipart: { label: 'before', photo: { name: 'pool.jpg', mimeType: 'image/jpeg', buffer: jpeg } },
    })
    expect(upload.status()).toBe(200)
    expect(await upload.json()).toMatchObject({ ok: true, photo: { label: 'before' } })
  })
})

test.describe('caching', () => {
  test('pages, data and the login page are never stored; built assets keep their long cache', async ({
    request,
    baseURL,
  }) => {
    const login = await request.get('/login')
    expect(login.headers()['cache-control']).toBe('no-store')

    const cookie = await sessionCookie(request, baseURL as string, 'dispatch@bluelagoon.test')
    const document = await request.get('/app', { headers: { cookie }, maxRedirects: 0 })
    expect(document.status()).toBe(200)
    expect(document.headers()['cache-control']).toBe('no-store')
    const data = await request.get('/app.data', { headers: { cookie }, maxRedirects: 0 })
    expect(data.status()).toBe(200)
    expect(data.headers()['cache-control']).toBe('no-store')

    const asset = (await document.text()).match(/\/assets\/[\w.-]+\.js/)?.[0]
    expect(asset).toBeTruthy()
    expect((await request.get(asset as string)).headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  test('a photo is cached privately for one hour, not a month: access to it can end', async ({
    page,
    request,
    baseURL,
  }) => {
    const visitId = await newVisit(page)
    const cookie = await sessionCookie(request, baseURL as string, 'dispatch@bluelagoon.test')
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#1f8fcf' } })
      .jpeg()
      .toBuffer()
    const upload = await request.post(`/app/visits/${visitId}/photos`, {
      headers: { cookie, origin: new URL(baseURL as string).origin, accept: 'application/json' },
      multipart: { label: 'after', photo: { name: 'pool.jpg', mimeType: 'image/jpeg', buffer: jpeg } },
    })
    expect(upload.status()).toBe(200)
    const { photo } = (await upload.json()) as { photo: { url: string; thumbUrl: string } }
    for (const url of [photo.url, photo.thumbUrl]) {
      const response = await request.get(url, { headers: { cookie } })
      expect(response.status()).toBe(200)
      expect(response.headers()['cache-control']).toBe('private, max-age=3600')
    }
  })
})

test.describe('sessions', () => {
  test('the session cookie is HttpOnly and SameSite=Lax, and a new login gets a new session', async ({
    request,
    baseURL,
  }) => {
    const origin = new URL(baseURL as string).origin
    const login = () =>
      request.post('/login', {
        headers: { ...FORM, origin },
        data: form({ intent: 'login', email: 'dispatch@bluelagoon.test', password: DEMO_PASSWORD }),
        maxRedirects: 0,
      })
    const sessionCookie = (setCookie: string | undefined) =>
      (setCookie ?? '').split('\n').find((cookie) => cookie.includes('session_token'))
    const first = sessionCookie((await login()).headers()['set-cookie'])
    const second = sessionCookie((await login()).headers()['set-cookie'])
    expect(first).toBeTruthy()
    expect(first).toMatch(/HttpOnly/i)
    expect(first).toMatch(/SameSite=Lax/i)
    expect(first).toMatch(/Path=\//)
    // Session fixation: every login issues a different token.
    expect(second?.split(';')[0]).not.toBe(first?.split(';')[0])
  })
})

/** Tells this run's made-up addresses apart from earlier runs' on the same database. */
const RUN = `${Date.now()}`

/** Each endpoint, the burst one client sends it, and what the 429 says. */
const BURSTS = [
  {
    // Credential stuffing: one client, a different address each time. Successful sign-ins never count (a crew
    // behind one router all signs in), wrong passwords do: the 51st in 15 minutes is refused.
    name: 'login: a burst of wrong passwords from one client is cut off',
    path: '/login',
    attempts: 52,
    fields: (attempt: number) => ({
      intent: 'login',
      email: `stuffing-${RUN}-${attempt}@example.test`,
      password: `wrong-${attempt}`,
    }),
    message: 'Too many failed sign-ins from your network.',
  },
  {
    name: 'login: wrong passwords for one account are cut off after 5',
    path: '/login',
    attempts: 6,
    fields: (attempt: number) => ({
      intent: 'login',
      email: `guessed-${RUN}@example.test`,
      password: `wrong-${attempt}`,
    }),
    message: 'Too many failed sign-ins for this account.',
  },
  {
    // 20 reset requests per client address an hour (a different address each time) …
    name: 'forgot-password: a burst from one client is cut off',
    path: '/forgot-password',
    attempts: 21,
    fields: (attempt: number) => ({ email: `nobody-${attempt}@example.test` }),
    message: 'Too many reset requests. Try again in',
  },
  {
    // … and 3 per address an hour, whoever asks.
    name: 'forgot-password: a fourth request for one address is cut off',
    path: '/forgot-password',
    attempts: 4,
    fields: () => ({ email: 'burst-one-address@example.test' }),
    message: 'Too many reset requests. Try again in',
  },
  {
    name: 'sign-up: a burst from one client is cut off',
    path: '/login',
    attempts: 12,
    fields: (attempt: number) => ({
      intent: 'signup',
      email: `burst-${Date.now()}-${attempt}@example.test`,
      password: 'long-enough-1',
      confirmPassword: 'long-enough-1',
    }),
    message: 'Too many attempts. Wait a minute, then try again.',
  },
]

test.describe('rate limits answer 429 with a message', () => {
  for (const burst of BURSTS) {
    test(burst.name, async ({ request, baseURL }) => {
      const origin = new URL(baseURL as string).origin
      const statuses: number[] = []
      let body = ''
      for (let attempt = 0; attempt < burst.attempts; attempt++) {
        const response = await request.post(burst.path, {
          headers: { ...FORM, origin },
          data: form(burst.fields(attempt)),
          maxRedirects: 0,
        })
        statuses.push(response.status())
        if (response.status() === 429) body = await response.text()
      }
      expect(statuses).toContain(429)
      expect(body).toContain(burst.message)
    })
  }
})
