import net from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type LocalServer, sendJson, startLocalServer } from '../../tests/helpers/local-http-server'
import { geocoderUrl, osrmUrl } from './config.server'
import { straightLineMatrix } from './distance'
import { driveDistances } from './drive-distances.server'
import { osrmTable } from './osrm.server'

// Two pools in Fort Lauderdale and the office.
const STOPS = [
  { lat: 26.1224, lng: -80.1373 },
  { lat: 26.1901, lng: -80.0965 },
  { lat: 26.0112, lng: -80.1495 },
]
const EXPECTED_PATH = '/table/v1/driving/-80.137300,26.122400;-80.096500,26.190100;-80.149500,26.011200'
const TABLE = {
  code: 'Ok',
  distances: [
    [0, 9120.4, 14210.2],
    [9305.1, 0, 22480],
    [14190.7, 22510.3, 0],
  ],
  durations: [
    [0, 702.1, 1010.5],
    [731.9, 0, 1605],
    [1001.2, 1611.8, 0],
  ],
  sources: [],
  destinations: [],
}

let server: LocalServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
})

describe('the OSRM table adapter', () => {
  it('asks OSRM’s table service once, longitude first, for distances and durations, and reads the matrix', async () => {
    server = await startLocalServer((_, response) => sendJson(response, 200, TABLE))
    const result = await osrmTable(server.url, STOPS)
    expect(result).toEqual({ ok: true, meters: TABLE.distances, seconds: TABLE.durations })
    expect(server.requests).toHaveLength(1)
    const [request] = server.requests
    expect(request?.method).toBe('GET')
    expect(request?.url.pathname).toBe(EXPECTED_PATH)
    expect(request?.url.search).toBe('?annotations=distance,duration')
  })

  it('keeps a path in the base URL and ignores its trailing slash', async () => {
    server = await startLocalServer((_, response) => sendJson(response, 200, TABLE))
    expect((await osrmTable(`${server.url}/osrm/`, STOPS)).ok).toBe(true)
    expect(server.requests[0]?.url.pathname).toBe(`/osrm${EXPECTED_PATH}`)
  })

  it.each([
    [
      'an error code with HTTP 400',
      400,
      { code: 'InvalidQuery', message: 'Query string malformed close to position 28' },
      'OSRM answered InvalidQuery: Query string malformed close to position 28',
    ],
    ['an error code with HTTP 200', 200, { code: 'NoTable' }, 'OSRM answered NoTable'],
    ['HTTP 500 without JSON', 500, 'Internal Server Error', 'OSRM answered HTTP 500'],
    [
      'a table of the wrong size',
      200,
      { code: 'Ok', distances: [[0]], durations: [[0]] },
      'OSRM’s answer is not a distance table for these stops',
    ],
    [
      'no road between two stops',
      200,
      {
        ...TABLE,
        distances: [
          [0, 1, 2],
          [1, 0, null],
          [2, 3, 0],
        ],
      },
      'OSRM found no road from stop 2 to stop 3',
    ],
    [
      'distances without durations',
      200,
      { code: 'Ok', distances: TABLE.distances },
      'OSRM’s answer is not a distance table for these stops',
    ],
  ])('fails on %s', async (_, status, body, message) => {
    server = await startLocalServer((_, response) => {
      if (typeof body === 'string') {
        response.writeHead(status, { 'content-type': 'text/plain' })
        response.end(body)
      } else sendJson(response, status, body)
    })
    expect(await osrmTable(server.url, STOPS)).toEqual({ ok: false, code: 'unavailable', message })
  })

  it('gives up when OSRM does not answer in time', async () => {
    server = await startLocalServer(() => {
      // Never answers.
    })
    const result = await osrmTable(server.url, STOPS, { timeoutMs: 300 })
    expect(result).toEqual({ ok: false, code: 'unavailable', message: 'OSRM did not answer within 0.3 s' })
  })

  it('fails when nothing listens at the address', async () => {
    server = await startLocalServer(() => {})
    const { url } = server
    await server.close()
    server = undefined
    expect(await osrmTable(url, STOPS)).toEqual({
      ok: false,
      code: 'unavailable',
      message: 'OSRM could not be reached (ECONNREFUSED)',
    })
  })
})

describe('the distances a route is planned with', () => {
  it('are OSRM’s road distances and times when OSRM answers', async () => {
    server = await startLocalServer((_, response) => sendJson(response, 200, TABLE))
    expect(await driveDistances(STOPS, { url: server.url })).toEqual({
      ok: true,
      distances: { meters: TABLE.distances, seconds: TABLE.durations, source: 'road' },
    })
  })

  it('fall back to straight-line distances, saying why, when OSRM fails', async () => {
    server = await startLocalServer((_, response) =>
      sendJson(response, 400, { code: 'TooBig', message: 'Too many table coordinates' }),
    )
    expect(await driveDistances(STOPS, { url: server.url })).toEqual({
      ok: true,
      distances: {
        meters: straightLineMatrix(STOPS),
        source: 'straight-line',
        fallback:
          'Road distances are unavailable (OSRM answered TooBig: Too many table coordinates); these are straight-line distances × 1.3.',
      },
    })
  })

  it('fall back when OSRM times out', async () => {
    server = await startLocalServer(() => {})
    const result = await driveDistances(STOPS, { url: server.url, timeoutMs: 200 })
    expect(result.ok && result.distances).toMatchObject({
      source: 'straight-line',
      fallback: expect.stringContaining('0.2 s'),
    })
  })

  it('are straight-line, with no network call at all, when OSRM_URL is not set', async () => {
    vi.stubEnv('OSRM_URL', '')
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    const connect = vi.spyOn(net.Socket.prototype, 'connect')
    expect(await driveDistances(STOPS)).toEqual({
      ok: true,
      distances: { meters: straightLineMatrix(STOPS), source: 'straight-line' },
    })
    expect(await driveDistances(STOPS, { url: undefined })).toMatchObject({ ok: true })
    expect(fetch).not.toHaveBeenCalled()
    expect(connect).not.toHaveBeenCalled()
    // The control: with OSRM configured, the same spy sees the connection.
    vi.unstubAllGlobals()
    server = await startLocalServer((_, response) => sendJson(response, 200, TABLE))
    await driveDistances(STOPS, { url: server.url })
    expect(connect).toHaveBeenCalled()
    connect.mockRestore()
  })

  it('ask nothing for fewer than two stops', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    expect(await driveDistances([STOPS[0] as (typeof STOPS)[0]], { url: 'http://127.0.0.1:9' })).toEqual({
      ok: true,
      distances: { meters: [[0]], source: 'straight-line' },
    })
    expect(await driveDistances([], { url: 'http://127.0.0.1:9' })).toMatchObject({
      ok: true,
      distances: { meters: [] },
    })
    expect(fetch).not.toHaveBeenCalled()
  })

  it('refuse a stop without valid coordinates', async () => {
    expect(await driveDistances([STOPS[0] as (typeof STOPS)[0], { lat: 91, lng: 0 }], { url: undefined })).toEqual({
      ok: false,
      code: 'invalid',
      message: 'Stop 2 has no valid latitude and longitude.',
    })
  })
})

describe('the service URLs', () => {
  it('are unset when missing or blank, and lose a trailing slash', () => {
    expect(osrmUrl({})).toBeUndefined()
    expect(osrmUrl({ OSRM_URL: '  ' })).toBeUndefined()
    expect(osrmUrl({ OSRM_URL: 'http://osrm.internal:5000/' })).toBe('http://osrm.internal:5000')
    expect(geocoderUrl({ GEOCODER_URL: 'https://geo.example.com/nominatim/' })).toBe(
      'https://geo.example.com/nominatim',
    )
  })

  it('must be http(s) URLs, and the message names the variable', () => {
    expect(() => osrmUrl({ OSRM_URL: 'osrm:5000' })).toThrow(/^OSRM_URL must be an http\(s\) URL/)
    expect(() => geocoderUrl({ GEOCODER_URL: 'not a url' })).toThrow(/^GEOCODER_URL must be an http\(s\) URL/)
  })
})
