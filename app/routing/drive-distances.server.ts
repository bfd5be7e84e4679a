// The distances a route is planned and shown with: OSRM's road distances when OSRM_URL is set and OSRM answers,
// otherwise straight-line × 1.3, with the reason when OSRM was configured but failed (the page shows it).
import { failure, type Result, success } from '~/utils/result'
import { osrmUrl } from './config.server'
import { isLatLng, type LatLng, ROAD_FACTOR, straightLineMatrix } from './distance'
import { osrmTable } from './osrm.server'

export type DriveDistances = {
  /** meters[i][j]: from stop i to stop j. */
  meters: number[][]
  /** Driving time in seconds, when OSRM gave it. */
  seconds?: number[][]
  source: 'road' | 'straight-line'
  /** Why road distances were asked for and not used. */
  fallback?: string
}

export async function driveDistances(
  points: readonly LatLng[],
  osrm: { url: string | undefined; timeoutMs?: number } = { url: osrmUrl() },
): Promise<Result<{ distances: DriveDistances }>> {
  const invalid = points.findIndex((point) => !isLatLng(point))
  if (invalid !== -1) return failure('invalid', `Stop ${invalid + 1} has no valid latitude and longitude.`)
  const straight = () => straightLineMatrix(points)
  // Fewer than two stops have no distance to ask about.
  if (!osrm.url || points.length < 2) return success({ distances: { meters: straight(), source: 'straight-line' } })
  const table = await osrmTable(osrm.url, points, { timeoutMs: osrm.timeoutMs })
  if (table.ok) {
    return success({ distances: { meters: table.meters, seconds: table.seconds, source: 'road' } })
  }
  const fallback = `Road distances are unavailable (${table.message}); these are straight-line distances × ${ROAD_FACTOR}.`
  return success({ distances: { meters: straight(), source: 'straight-line', fallback } })
}
