// The service worker's rules (decision 019): what a phone keeps, under which key, and what it must never keep —
// another person's pages behind a redirect, POSTs, the live stream, pages outside the staff app.
import { describe, expect, it } from 'vitest'
import {
  dayUrls,
  endsSession,
  isKeepable,
  MAX_SAVED_STOPS,
  mayServe,
  OWNER_HEADER,
  offlineKeys,
  offlineRuleFor,
  ownerOf,
  pageOfData,
  visitUrls,
} from './offline-cache'

const ORIGIN = 'https://app.example'
const get = (path: string, mode = 'cors') => ({ method: 'GET', mode, url: `${ORIGIN}${path}` })

describe('offlineRuleFor', () => {
  it('keeps staff pages opened by navigation, their React Router data and visit photos', () => {
    expect(offlineRuleFor(get('/app', 'navigate'))).toBe('page')
    expect(offlineRuleFor(get('/app/visits/abc', 'navigate'))).toBe('page')
    expect(offlineRuleFor(get('/app?tab=week', 'navigate'))).toBe('page')
    expect(offlineRuleFor(get('/app.data'))).toBe('data')
    expect(offlineRuleFor(get('/app.data?tab=week&_routes=routes%2Fapp%2Fdashboard'))).toBe('data')
    expect(offlineRuleFor(get('/app/visits/abc.data?_routes=routes%2Fapp%2Fvisit'))).toBe('data')
    expect(offlineRuleFor(get('/app/visits/abc/photos/before', 'no-cors'))).toBe('photo')
  })

  it('never touches writes, the live stream, sign-in, downloads or the queue endpoint', () => {
    expect(offlineRuleFor({ method: 'POST', mode: 'navigate', url: `${ORIGIN}/app/visits/abc` })).toBeNull()
    expect(offlineRuleFor({ method: 'POST', mode: 'cors', url: `${ORIGIN}/app/visits/abc.data` })).toBeNull()
    expect(offlineRuleFor({ method: 'POST', mode: 'cors', url: `${ORIGIN}/app/visits/abc/photos` })).toBeNull()
    expect(offlineRuleFor(get('/app/events'))).toBeNull()
    expect(offlineRuleFor(get('/app/events', 'navigate'))).toBeNull()
    expect(offlineRuleFor(get('/app/field/changes'))).toBeNull()
    expect(offlineRuleFor(get('/api/auth/get-session'))).toBeNull()
    expect(offlineRuleFor(get('/app/customers/export.csv', 'navigate'))).toBeNull()
    expect(offlineRuleFor(get('/app/settings/export.zip', 'navigate'))).toBeNull()
    // A fetcher's JSON (the customer picker) is always fresh.
    expect(offlineRuleFor(get('/app/customers/picker?q=da'))).toBeNull()
    expect(
      offlineRuleFor(get('/app/customers/picker.data?q=da&_routes=routes%2Fresources%2Fcustomer-picker')),
    ).toBeNull()
  })

  it('leaves every page outside the staff app to the network: marketing, login, the portal', () => {
    expect(offlineRuleFor(get('/', 'navigate'))).toBeNull()
    expect(offlineRuleFor(get('/_root.data'))).toBeNull()
    expect(offlineRuleFor(get('/login', 'navigate'))).toBeNull()
    expect(offlineRuleFor(get('/customer/c1', 'navigate'))).toBeNull()
    expect(offlineRuleFor(get('/customer/c1.data'))).toBeNull()
    expect(offlineRuleFor(get('/customer/c1/photos/j1/before'))).toBeNull()
    expect(offlineRuleFor(get('/application', 'navigate'))).toBeNull()
    expect(offlineRuleFor(get('/staff', 'navigate'))).toBeNull()
  })
})

describe('offlineKeys', () => {
  it('falls back from a navigation’s partial data request to the full copy saved ahead', () => {
    expect(offlineKeys(`${ORIGIN}/app/visits/abc.data?_routes=routes%2Fapp%2Fvisit`)).toEqual([
      `${ORIGIN}/app/visits/abc.data?_routes=routes%2Fapp%2Fvisit`,
      `${ORIGIN}/app/visits/abc.data`,
    ])
    expect(offlineKeys(`${ORIGIN}/app.data?tab=week&_routes=routes%2Fapp%2Fdashboard`)).toEqual([
      `${ORIGIN}/app.data?tab=week&_routes=routes%2Fapp%2Fdashboard`,
      `${ORIGIN}/app.data?tab=week`,
      `${ORIGIN}/app.data`,
    ])
  })

  it('tries a page as asked, then its bare path', () => {
    expect(offlineKeys(`${ORIGIN}/app/visits/abc`)).toEqual([`${ORIGIN}/app/visits/abc`])
    expect(offlineKeys(`${ORIGIN}/app?tab=week`)).toEqual([`${ORIGIN}/app?tab=week`, `${ORIGIN}/app`])
  })
})

describe('pageOfData', () => {
  it('names the page whose document stands in for missing data', () => {
    expect(pageOfData(`${ORIGIN}/app/visits/abc.data?_routes=routes%2Fapp%2Fvisit`)).toBe('/app/visits/abc')
    expect(pageOfData(`${ORIGIN}/app.data?tab=week&_routes=x`)).toBe('/app?tab=week')
  })
})

describe('isKeepable', () => {
  const response = (
    status: number,
    redirected = false,
    headers: Record<string, string> = { [OWNER_HEADER]: 'u1' },
  ) => ({
    status,
    redirected,
    headers: new Headers(headers),
  })

  it('keeps a plain 200 only', () => {
    expect(isKeepable(response(200))).toBe(true)
    expect(isKeepable(response(404))).toBe(false)
    expect(isKeepable(response(500))).toBe(false)
    expect(isKeepable(response(0))).toBe(false)
  })

  it('never keeps the login page a signed-out /app was redirected to, nor a single-fetch redirect', () => {
    expect(isKeepable(response(200, true))).toBe(false)
    expect(isKeepable(response(202, false, { 'X-Remix-Redirect': '/login' }))).toBe(false)
    expect(isKeepable(response(200, false, { 'X-Remix-Redirect': '/login' }))).toBe(false)
  })

  it('never keeps a page the server did not say whose it is (it could not be kept from another person)', () => {
    expect(isKeepable(response(200, false, {}))).toBe(false)
    expect(isKeepable(response(200, false, { [OWNER_HEADER]: '' }))).toBe(false)
  })
})

describe('whose saved copies are shown (a shared phone, decision 030)', () => {
  const saved = (owner?: string) => ({ headers: new Headers(owner ? { [OWNER_HEADER]: owner } : {}) })

  it('shows a saved page only to the person who saved it, while their session is on the phone', () => {
    expect(mayServe(ownerOf(saved('tyler')), 'tyler')).toBe(true)
    // Another person signed in on the phone: Tyler's Today and gate codes are not theirs to see.
    expect(mayServe(ownerOf(saved('tyler')), 'dina')).toBe(false)
    // Tyler's session ended without "Log out" (expired, revoked, cookies cleared): nobody is signed in.
    expect(mayServe(ownerOf(saved('tyler')), null)).toBe(false)
    // A copy that does not say whose it is (the page's own content cannot say it) is shown to nobody.
    expect(mayServe(ownerOf(saved()), 'tyler')).toBe(false)
    expect(mayServe(null, null)).toBe(false)
  })

  it('hears that the session ended from a 401, the sign-in page or a single-fetch redirect to it', () => {
    const answer = (
      status: number,
      extra: { redirected?: boolean; url?: string; headers?: Record<string, string> },
    ) => ({
      status,
      redirected: extra.redirected ?? false,
      url: extra.url ?? `${ORIGIN}/app`,
      headers: new Headers(extra.headers ?? {}),
    })
    expect(endsSession(answer(401, {}))).toBe(true)
    expect(endsSession(answer(200, { redirected: true, url: `${ORIGIN}/login?redirectTo=%2Fapp` }))).toBe(true)
    expect(endsSession(answer(204, { headers: { 'X-Remix-Redirect': '/login?redirectTo=%2Fapp%2Fvisits%2Fa' } }))).toBe(
      true,
    )
    expect(endsSession(answer(204, { headers: { 'X-Remix-Redirect': '/login' } }))).toBe(true)
    // Still signed in: a page, another redirect (setup not finished), a refusal.
    expect(endsSession(answer(200, {}))).toBe(false)
    expect(endsSession(answer(204, { headers: { 'X-Remix-Redirect': '/welcome' } }))).toBe(false)
    expect(endsSession(answer(200, { redirected: true, url: `${ORIGIN}/welcome` }))).toBe(false)
    expect(endsSession(answer(403, {}))).toBe(false)
  })
})

describe('dayUrls', () => {
  it('saves Today and each stop’s page and data, at most MAX_SAVED_STOPS stops', () => {
    expect(dayUrls(['a', 'b'])).toEqual(['/app', '/app.data', ...visitUrls('a'), ...visitUrls('b')])
    expect(visitUrls('a')).toEqual(['/app/visits/a', '/app/visits/a.data'])
    const many = Array.from({ length: 50 }, (_, i) => `v${i}`)
    expect(dayUrls(many)).toHaveLength(2 + 2 * MAX_SAVED_STOPS)
  })
})
