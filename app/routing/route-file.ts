// The route problem file `npm run -s route -- problem.json` reads (docs/routing.md): a start, a start time, stops
// with windows and minutes on site, in plane coordinates (x/y, `speed` distance units a minute) or latitude and
// longitude (meters; `speed` meters a minute, 30 mph by default). Parsed with Zod into a clear `field: message`,
// never an exception; turned into the optimizer's problem once the distances are known.
import { z } from 'zod'
import { failure, type Result, success } from '~/utils/result'
import type { LatLng } from './distance'
import { MAX_TIMED_STOPS, type TimedRouteProblem } from './windows'

/** 30 mph in meters a minute: the default speed for latitude/longitude stops. */
export const DEFAULT_METERS_PER_MINUTE = (30 * 1609.344) / 60

const minutes = z
  .number()
  .min(0, 'must be 0 or more minutes from midnight')
  .max(2 * 1440, 'must be within two days')

const coordinates = {
  x: z.number().optional(),
  y: z.number().optional(),
  lat: z.number().min(-90).max(90).optional(),
  lng: z.number().min(-180).max(180).optional(),
}

type Coordinates = { x?: number; y?: number; lat?: number; lng?: number }

/** x and y, or lat and lng: exactly one pair. */
function checkPlace(place: Coordinates, context: z.RefinementCtx) {
  const plane = place.x !== undefined || place.y !== undefined
  const earth = place.lat !== undefined || place.lng !== undefined
  if (plane && earth) context.addIssue({ code: 'custom', message: 'give x and y, or lat and lng, not both' })
  else if (plane && (place.x === undefined || place.y === undefined)) {
    context.addIssue({ code: 'custom', message: 'needs both x and y' })
  } else if (earth && (place.lat === undefined || place.lng === undefined)) {
    context.addIssue({ code: 'custom', message: 'needs both lat and lng' })
  } else if (!plane && !earth) context.addIssue({ code: 'custom', message: 'needs x and y, or lat and lng' })
}

const place = z.strictObject(coordinates).superRefine(checkPlace)

const stop = z
  .strictObject({
    id: z.string().trim().min(1, 'must not be empty').max(200),
    ...coordinates,
    open: minutes.optional(),
    close: minutes.optional(),
    /** A fixed appointment: the window [at, at] (arrive by then; service starts then). */
    at: minutes.optional(),
    service: z.number().min(0, 'must be 0 or more minutes').max(1440).default(0),
  })
  .superRefine((value, context) => {
    checkPlace(value, context)
    if (value.at !== undefined && (value.open !== undefined || value.close !== undefined)) {
      context.addIssue({ code: 'custom', message: 'give an appointment time (at) or a window (open, close), not both' })
    }
    if (value.open !== undefined && value.close !== undefined && value.open > value.close) {
      context.addIssue({ code: 'custom', path: ['close'], message: 'must not be before open' })
    }
  })

const problemSchema = z
  .strictObject({
    start: place,
    startTime: minutes,
    end: place.optional(),
    dayEnd: minutes.optional(),
    speed: z.number().positive('must be more than 0').optional(),
    stops: z.array(stop).max(MAX_TIMED_STOPS, `at most ${MAX_TIMED_STOPS} stops`),
  })
  .superRefine((value, context) => {
    const earth = value.start.lat !== undefined
    const places: [(string | number)[], Coordinates][] = [
      [['end'], value.end ?? value.start],
      ...value.stops.map((stop, k): [(string | number)[], Coordinates] => [['stops', k], stop]),
    ]
    for (const [path, point] of places) {
      if ((point.lat !== undefined) !== earth && (point.x !== undefined || point.lat !== undefined)) {
        context.addIssue({
          code: 'custom',
          path,
          message: earth ? 'use lat and lng like the start' : 'use x and y like the start',
        })
      }
    }
    const seen = new Set<string>()
    value.stops.forEach((stop, k) => {
      if (seen.has(stop.id)) context.addIssue({ code: 'custom', path: ['stops', k, 'id'], message: 'is used twice' })
      seen.add(stop.id)
    })
  })

export type RouteFile = z.infer<typeof problemSchema>

/** `stops[2].close` from Zod's path. */
function fieldName(path: readonly PropertyKey[]) {
  let name = ''
  for (const part of path) name += typeof part === 'number' ? `[${part}]` : `${name ? '.' : ''}${String(part)}`
  return name || 'file'
}

/** Parses a problem file: a failure lists each problem as `line N: …` (JSON) or `field: message`, one a line. */
export function parseRouteFile(text: string): Result<{ file: RouteFile }> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const position = /at position (\d+)/.exec(message)?.[1]
    const line = position === undefined ? undefined : text.slice(0, Number(position)).split('\n').length
    const reason = message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '')
    return failure('invalid', `${line === undefined ? 'file' : `line ${line}`}: not JSON (${reason})`)
  }
  const parsed = problemSchema.safeParse(json)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${fieldName(issue.path)}: ${issue.message}`)
    return failure('invalid', [...new Set(lines)].join('\n'))
  }
  return success({ file: parsed.data })
}

/** Whether the file's places are latitudes and longitudes (then distances are meters). */
export function isLatLngFile(file: RouteFile) {
  return file.start.lat !== undefined
}

/** The file's places: the start (0), the stops (1…), then the end if given. */
export function routeFilePlaces(file: RouteFile) {
  return [file.start, ...file.stops, ...(file.end ? [file.end] : [])] as Coordinates[]
}

export function routeFileLatLngs(file: RouteFile): LatLng[] {
  return routeFilePlaces(file).map((point) => ({ lat: point.lat ?? 0, lng: point.lng ?? 0 }))
}

/**
 * The optimizer's problem. `meters` (latitude/longitude files) are the road or straight-line distances; `seconds`, if
 * the road server gave them and the file sets no speed, are the driving times. Plane files use straight lines.
 */
export function routeFileProblem(
  file: RouteFile,
  distances?: { meters: number[][]; seconds?: number[][] },
): TimedRouteProblem {
  const places = routeFilePlaces(file)
  const size = places.length
  let distance: (from: number, to: number) => number
  let travel: (from: number, to: number) => number
  if (isLatLngFile(file)) {
    if (!distances) throw new Error('Latitude/longitude files need their distances')
    const { meters, seconds } = distances
    const speed = file.speed ?? DEFAULT_METERS_PER_MINUTE
    distance = (from, to) => meters[from]?.[to] as number
    travel =
      seconds && file.speed === undefined
        ? (from, to) => (seconds[from]?.[to] as number) / 60
        : (from, to) => (meters[from]?.[to] as number) / speed
  } else {
    const speed = file.speed ?? 1
    distance = (from, to) => {
      const a = places[from] as Coordinates
      const b = places[to] as Coordinates
      return Math.hypot((a.x ?? 0) - (b.x ?? 0), (a.y ?? 0) - (b.y ?? 0))
    }
    travel = (from, to) => distance(from, to) / speed
  }
  return {
    size,
    start: 0,
    end: file.end ? size - 1 : undefined,
    startTime: file.startTime,
    dayEnd: file.dayEnd,
    stops: [
      {},
      ...file.stops.map((stop) => ({
        open: stop.at ?? stop.open,
        close: stop.at ?? stop.close,
        service: stop.service,
      })),
      ...(file.end ? [{}] : []),
    ],
    travel,
    distance,
  }
}

/** Minutes from midnight as a clock time, e.g. 615 → "10:15" (and "+1 08:00" the next day). */
export function clockTime(minutesFromMidnight: number) {
  const rounded = Math.round(minutesFromMidnight)
  const day = Math.floor(rounded / 1440)
  const inDay = rounded - day * 1440
  const text = `${String(Math.floor(inDay / 60)).padStart(2, '0')}:${String(inDay % 60).padStart(2, '0')}`
  return day > 0 ? `+${day} ${text}` : text
}
