// Addresses to coordinates through a Nominatim-compatible server (GEOCODER_URL): GET /search?format=jsonv2&q=…&limit=1.
// Nominatim's usage policy asks for an identifying User-Agent and at most one request per second: requests from this
// process go one at a time, each starting at least a second after the one before. Nothing is sent when no geocoder
// is configured.
import { setTimeout as sleep } from 'node:timers/promises'
import { z } from 'zod'
import { failure, type Result, success } from '~/utils/result'
import { geocoderUrl } from './config.server'
import { isLatLng, type LatLng } from './distance'

export const GEOCODER_TIMEOUT_MS = 5000
const MIN_INTERVAL_MS = 1000
/** A queue longer than this would keep a person waiting for half a minute: they are told to try again instead. */
const MAX_WAITING = 20
const MAX_QUERY_LENGTH = 300
const USER_AGENT = 'Pool Bud (pool service route planning; geocodes customer addresses)'

export type Place = LatLng & { label: string }
export type Geocode = (query: string) => Promise<Result<{ place: Place }>>
/** The clock the queue spaces requests by; tests pass their own. */
export type Clock = { now: () => number; sleep: (ms: number) => Promise<unknown> }

const realClock: Clock = { now: () => performance.now(), sleep }

/** Nominatim writes coordinates as strings; some compatible servers as numbers. */
const Coordinate = z.union([z.number(), z.string().trim().min(1).transform(Number)])
const SearchAnswer = z.array(
  z.object({
    lat: Coordinate,
    lon: Coordinate,
    display_name: z.string().optional(),
  }),
)

/** A geocoder for one server, with its own one-request-per-second queue. */
export function createGeocoder({
  url,
  timeoutMs = GEOCODER_TIMEOUT_MS,
  minIntervalMs = MIN_INTERVAL_MS,
  clock = realClock,
}: {
  url: string
  timeoutMs?: number
  minIntervalMs?: number
  clock?: Clock
}): Geocode {
  let queue: Promise<unknown> = Promise.resolve()
  let waiting = 0
  let lastStart = Number.NEGATIVE_INFINITY

  return async (query) => {
    const q = query.trim()
    if (q === '') return failure('invalid', 'Enter an address to look up.')
    if (q.length > MAX_QUERY_LENGTH) return failure('invalid', `An address is at most ${MAX_QUERY_LENGTH} characters.`)
    if (waiting >= MAX_WAITING) return failure('rate-limited', 'The address lookup is busy. Try again in a minute.')
    waiting++
    const turn = queue.then(async () => {
      const wait = lastStart + minIntervalMs - clock.now()
      if (wait > 0) await clock.sleep(wait)
      lastStart = clock.now()
      return search(url, q, timeoutMs)
    })
    // The next request waits for this one to settle, whatever the outcome.
    queue = turn
      .catch(() => undefined)
      .finally(() => {
        waiting--
      })
    return turn
  }
}

async function search(baseUrl: string, query: string, timeoutMs: number): Promise<Result<{ place: Place }>> {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/search`)
  url.search = new URLSearchParams({ format: 'jsonv2', q: query, limit: '1' }).toString()
  let status: number
  let body: unknown
  try {
    const response = await fetch(url, {
      headers: { 'user-agent': USER_AGENT, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    })
    status = response.status
    body = await response.json().catch(() => undefined)
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError'
    return failure(
      'unavailable',
      timedOut ? 'The address lookup did not answer in time.' : 'The address lookup could not be reached.',
    )
  }
  if (status < 200 || status > 299) return failure('unavailable', `The address lookup answered HTTP ${status}.`)
  const answer = SearchAnswer.safeParse(body)
  if (!answer.success) return failure('unavailable', 'The address lookup gave an answer this app does not understand.')
  const [first] = answer.data
  if (!first) return failure('not-found', 'No place was found for this address. Check it, or enter the coordinates.')
  const place = { lat: first.lat, lng: first.lon, label: first.display_name ?? query }
  if (!isLatLng(place)) return failure('unavailable', 'The address lookup gave coordinates that do not exist.')
  return success({ place })
}

const geocoders = new Map<string, Geocode>()

/** Looks an address up on GEOCODER_URL; with none configured, says so without a request. */
export async function geocodeAddress(query: string, url = geocoderUrl()): Promise<Result<{ place: Place }>> {
  if (!url) return failure('unavailable', 'No address lookup is configured: enter the latitude and longitude.')
  let geocode = geocoders.get(url)
  if (!geocode) {
    geocode = createGeocoder({ url })
    geocoders.set(url, geocode)
  }
  return geocode(query)
}
