// Road distances from an OSRM server: its HTTP `table` service, one request for a whole route
// (GET /table/v1/driving/{lon},{lat};…?annotations=distance,duration). Any failure is a Result, never an exception:
// the caller falls back to straight-line distances and says so.
import { z } from 'zod'
import { failure, type Result, success } from '~/utils/result'
import type { LatLng } from './distance'

/** A page waits for this at most; OSRM answers a 50-stop table in milliseconds when it is well. */
export const OSRM_TIMEOUT_MS = 4000

const TableAnswer = z.object({
  code: z.string(),
  message: z.string().optional(),
  distances: z.array(z.array(z.number().nonnegative().nullable())).optional(),
  durations: z.array(z.array(z.number().nonnegative().nullable())).optional(),
})

export type RoadTable = { meters: number[][]; seconds: number[][] }

/** The road distance (meters) and driving time (seconds) from every point to every other, by OSRM. */
export async function osrmTable(
  baseUrl: string,
  points: readonly LatLng[],
  { timeoutMs = OSRM_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<Result<RoadTable>> {
  // OSRM takes longitude first; six decimals are 0.1 m and keep numbers out of exponent notation.
  const coordinates = points.map((point) => `${point.lng.toFixed(6)},${point.lat.toFixed(6)}`).join(';')
  const url = `${baseUrl.replace(/\/+$/, '')}/table/v1/driving/${coordinates}?annotations=distance,duration`
  let status: number
  let body: unknown
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    })
    status = response.status
    body = await response.json().catch(() => undefined)
  } catch (error) {
    return failure('unavailable', unreachable(error, timeoutMs))
  }
  const answer = TableAnswer.safeParse(body)
  if (answer.success && answer.data.code !== 'Ok') {
    const detail = answer.data.message ? `: ${answer.data.message}` : ''
    return failure('unavailable', `OSRM answered ${answer.data.code}${detail}`)
  }
  if (status < 200 || status > 299) return failure('unavailable', `OSRM answered HTTP ${status}`)
  const meters = answer.success ? completeTable(answer.data.distances, points.length) : undefined
  const seconds = answer.success ? completeTable(answer.data.durations, points.length) : undefined
  if (!meters || !seconds) return failure('unavailable', 'OSRM’s answer is not a distance table for these stops')
  if (typeof meters === 'string') return failure('unavailable', meters)
  if (typeof seconds === 'string') return failure('unavailable', seconds)
  return success({ meters, seconds })
}

/** The n × n table, or why it is unusable: OSRM writes null where no road joins two stops. */
function completeTable(table: (number | null)[][] | undefined, size: number): number[][] | string | undefined {
  if (!table || table.length !== size || table.some((row) => row.length !== size)) return undefined
  for (const [from, row] of table.entries()) {
    const to = row.indexOf(null)
    if (to !== -1) return `OSRM found no road from stop ${from + 1} to stop ${to + 1}`
  }
  return table as number[][]
}

function unreachable(error: unknown, timeoutMs: number) {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `OSRM did not answer within ${timeoutMs / 1000} s`
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined
  const code = cause && 'code' in cause ? String(cause.code) : undefined
  return `OSRM could not be reached (${code ?? (error instanceof Error ? error.message : String(error))})`
}
