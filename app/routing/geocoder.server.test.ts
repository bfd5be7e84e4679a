import type http from 'node:http'
import net from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type LocalServer, sendJson, startLocalServer } from '../../tests/helpers/local-http-server'
import { type Clock, createGeocoder, geocodeAddress } from './geocoder.server'

const ADDRESS = '2100 E Las Olas Blvd, Fort Lauderdale, FL'
const FOUND = [
  {
    place_id: 31337,
    lat: '26.1194',
    lon: '-80.1264',
    display_name: '2100, East Las Olas Boulevard, Fort Lauderdale, Broward County, Florida, 33301, United States',
    category: 'building',
    type: 'yes',
  },
]

/** A clock that only moves when the queue sleeps: spacing is checked without waiting a real second. */
function fakeClock() {
  const clock = { time: 0, sleeps: [] as number[] }
  const api: Clock = {
    now: () => clock.time,
    sleep: async (ms) => {
      clock.sleeps.push(ms)
      clock.time += ms
    },
  }
  return { clock, api }
}

let server: LocalServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
})

describe('the Nominatim-compatible geocoder', () => {
  it('asks /search?format=jsonv2&q=…&limit=1 with a User-Agent naming Pool Bud, and reads the first place', async () => {
    server = await startLocalServer((_, response) => sendJson(response, 200, FOUND))
    const geocode = createGeocoder({ url: `${server.url}/`, clock: fakeClock().api })
    expect(await geocode(`  ${ADDRESS} `)).toEqual({
      ok: true,
      place: { lat: 26.1194, lng: -80.1264, label: FOUND[0]?.display_name },
    })
    const [request] = server.requests
    expect(request?.method).toBe('GET')
    expect(request?.url.pathname).toBe('/search')
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({ format: 'jsonv2', q: ADDRESS, limit: '1' })
    expect(request?.headers['user-agent']).toMatch(/^Pool Bud /)
  })

  it('says "not found" for an empty answer', async () => {
    server = await startLocalServer((_, response) => sendJson(response, 200, []))
    const geocode = createGeocoder({ url: server.url, clock: fakeClock().api })
    expect(await geocode('Nowhere at all')).toEqual({
      ok: false,
      code: 'not-found',
      message: 'No place was found for this address. Check it, or enter the coordinates.',
    })
  })

  it.each([
    ['HTTP 500', 500, 'oops', 'The address lookup answered HTTP 500.'],
    ['HTTP 429 (the policy was broken elsewhere)', 429, [], 'The address lookup answered HTTP 429.'],
    [
      'an answer that is not a list of places',
      200,
      { error: 'Unable to geocode' },
      'The address lookup gave an answer this app does not understand.',
    ],
    [
      'coordinates that do not exist',
      200,
      [{ lat: '126.1', lon: '-80.1' }],
      'The address lookup gave coordinates that do not exist.',
    ],
    [
      'blank coordinates',
      200,
      [{ lat: '', lon: '' }],
      'The address lookup gave an answer this app does not understand.',
    ],
  ])('fails as unavailable on %s', async (_, status, body, message) => {
    server = await startLocalServer((_, response) => sendJson(response, status, body))
    const geocode = createGeocoder({ url: server.url, clock: fakeClock().api })
    expect(await geocode(ADDRESS)).toEqual({ ok: false, code: 'unavailable', message })
  })

  it('gives up when the server does not answer in time', async () => {
    server = await startLocalServer(() => {})
    const geocode = createGeocoder({ url: server.url, timeoutMs: 300, clock: fakeClock().api })
    expect(await geocode(ADDRESS)).toEqual({
      ok: false,
      code: 'unavailable',
      message: 'The address lookup did not answer in time.',
    })
  })

  it('sends one request at a time, each at least a second after the one before', async () => {
    const { clock, api } = fakeClock()
    let open = 0
    let mostOpen = 0
    const startedAt: number[] = []
    server = await startLocalServer((_, response) => {
      startedAt.push(clock.time)
      open++
      mostOpen = Math.max(mostOpen, open)
      // Answer on a later turn of the event loop, so overlapping requests would show.
      setImmediate(() => {
        open--
        sendJson(response, 200, FOUND)
      })
    })
    const geocode = createGeocoder({ url: server.url, clock: api })
    const results = await Promise.all([geocode('one'), geocode('two'), geocode('three')])
    expect(results.every((result) => result.ok)).toBe(true)
    expect(server.requests.map((request) => request.url.searchParams.get('q'))).toEqual(['one', 'two', 'three'])
    expect(mostOpen).toBe(1)
    expect(startedAt).toEqual([0, 1000, 2000])
    expect(clock.sleeps).toEqual([1000, 1000])
    // After a quiet spell there is nothing to wait for.
    clock.time += 5000
    await geocode('four')
    expect(clock.sleeps).toEqual([1000, 1000])
  })

  it('keeps the queue going after a failed request', async () => {
    let calls = 0
    server = await startLocalServer((_, response) => {
      calls++
      if (calls === 1) sendJson(response, 500, {})
      else sendJson(response, 200, FOUND)
    })
    const geocode = createGeocoder({ url: server.url, clock: fakeClock().api })
    const [first, second] = await Promise.all([geocode('one'), geocode('two')])
    expect(first?.ok).toBe(false)
    expect(second?.ok).toBe(true)
  })

  it('lets an unexpected error fail only its own call, not every call after it', async () => {
    server = await startLocalServer((_, response) => sendJson(response, 200, FOUND))
    const { api } = fakeClock()
    let sleeps = 0
    const brokenOnce: Clock = {
      now: api.now,
      sleep: async (ms) => {
        sleeps++
        if (sleeps === 1) throw new Error('the clock broke')
        return api.sleep(ms)
      },
    }
    const geocode = createGeocoder({ url: server.url, clock: brokenOnce })
    const [first, second, third] = await Promise.allSettled([geocode('one'), geocode('two'), geocode('three')])
    expect(first).toMatchObject({ status: 'fulfilled', value: { ok: true } })
    expect(second).toMatchObject({ status: 'rejected', reason: new Error('the clock broke') })
    expect(third).toMatchObject({ status: 'fulfilled', value: { ok: true } })
  })

  it('tells the 21st waiting caller to try again rather than queueing them for half a minute', async () => {
    const held: http.ServerResponse[] = []
    server = await startLocalServer((_, response) => held.push(response))
    const geocode = createGeocoder({ url: server.url, clock: fakeClock().api })
    const waiting = Array.from({ length: 20 }, (_, k) => geocode(`address ${k}`))
    expect(await geocode('one too many')).toEqual({
      ok: false,
      code: 'rate-limited',
      message: 'The address lookup is busy. Try again in a minute.',
    })
    // Answer each as it arrives: the queue drains, and the lookup takes callers again.
    for (let answered = 0; answered < 20; answered++) {
      await vi.waitUntil(() => held.length > answered, { timeout: 10_000 })
      sendJson(held[answered] as http.ServerResponse, 200, FOUND)
      await waiting[answered]
    }
    held.length = 0
    const again = geocode('later')
    await vi.waitUntil(() => held.length > 0, { timeout: 10_000 })
    sendJson(held[0] as http.ServerResponse, 200, FOUND)
    expect((await again).ok).toBe(true)
  })

  it('refuses a blank or overlong address without a request', async () => {
    server = await startLocalServer((_, response) => sendJson(response, 200, FOUND))
    const geocode = createGeocoder({ url: server.url, clock: fakeClock().api })
    expect(await geocode('   ')).toEqual({ ok: false, code: 'invalid', message: 'Enter an address to look up.' })
    expect(await geocode('x'.repeat(301))).toEqual({
      ok: false,
      code: 'invalid',
      message: 'An address is at most 300 characters.',
    })
    expect(server.requests).toHaveLength(0)
  })
})

describe('looking up an address with no geocoder configured', () => {
  it('says so and makes no network call at all', async () => {
    vi.stubEnv('GEOCODER_URL', '')
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    const connect = vi.spyOn(net.Socket.prototype, 'connect')
    const notConfigured = {
      ok: false,
      code: 'unavailable',
      message: 'No address lookup is configured: enter the latitude and longitude.',
    }
    expect(await geocodeAddress(ADDRESS)).toEqual(notConfigured)
    expect(await geocodeAddress(ADDRESS, undefined)).toEqual(notConfigured)
    expect(fetch).not.toHaveBeenCalled()
    expect(connect).not.toHaveBeenCalled()
    connect.mockRestore()
  })

  it('uses GEOCODER_URL when it is set', async () => {
    server = await startLocalServer((_, response) => sendJson(response, 200, FOUND))
    vi.stubEnv('GEOCODER_URL', server.url)
    expect(await geocodeAddress(ADDRESS)).toMatchObject({ ok: true, place: { lat: 26.1194, lng: -80.1264 } })
    expect(server.requests).toHaveLength(1)
  })
})
