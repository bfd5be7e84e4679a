// "Suggest a day and technician" on "Add service plan" (docs/routing.md "Suggesting a day", decision 053): the
// (weekday, technician) pairs ranked by the minutes of driving a new pool adds to that technician's route on that
// weekday, at its cheapest place between consecutive stops (`cheapestInsertion`, the routes' own start and end).
// A pair is looked at on the plan's next occurrences (one route each); its cost is their average. Pure: the model
// reads the routes and measures the drives.
import { type FleetProblem, vehicleProblem } from './balance'
import { cheapestInsertion } from './insertion'

/** One (weekday, technician) pair: the technician (an index of `fleet.vehicles`) and its routes, one an occurrence. */
export type SuggestionCandidate<Key> = {
  key: Key
  vehicle: number
  /** Each occurrence's stops (points of the fleet) in route order; the first is the next one. */
  routes: ReadonlyArray<readonly number[]>
  /** Visits that day counted for the screen (those without a position too); the routes' first by default. */
  stops?: number
}

export type Suggestion<Key> = {
  key: Key
  /** Average minutes of driving the new stop adds over the occurrences, never negative. */
  extraMinutes: number
  /** Stops on the next occurrence's route, before the new one. */
  stops: number
}

/** How many pairs the form lists. */
export const SUGGESTIONS = 5

/**
 * Minutes of driving `point` adds to `order` on `vehicle`'s route at its cheapest place (before the first stop,
 * between two, or after the last), measured with the fleet's driving minutes. Windows do not rule a place out: the
 * plan has no times yet. Never negative (road times that break the triangle inequality count as 0).
 */
export function addedMinutes(fleet: FleetProblem, vehicle: number, order: readonly number[], point: number) {
  const shape = fleet.vehicles[vehicle]
  if (!shape) throw new Error(`No vehicle ${vehicle}`)
  const problem = vehicleProblem(fleet, shape)
  const found = cheapestInsertion({ ...problem, distance: problem.travel }, order, point, {
    maxLate: Number.POSITIVE_INFINITY,
  })
  return Math.max(0, found?.extra ?? 0)
}

/**
 * The `limit` cheapest pairs for `point`: least average added minutes first, then fewer stops, then the candidates'
 * own order (weekday, then technician, as the model lists them).
 */
export function rankSuggestions<Key>(
  fleet: FleetProblem,
  point: number,
  candidates: ReadonlyArray<SuggestionCandidate<Key>>,
  limit = SUGGESTIONS,
): Suggestion<Key>[] {
  return candidates
    .map((candidate, index) => {
      const costs = candidate.routes.map((order) => addedMinutes(fleet, candidate.vehicle, order, point))
      const extraMinutes = costs.length === 0 ? 0 : costs.reduce((sum, cost) => sum + cost, 0) / costs.length
      return { key: candidate.key, extraMinutes, stops: candidate.stops ?? candidate.routes[0]?.length ?? 0, index }
    })
    .sort((a, b) => a.extraMinutes - b.extraMinutes || a.stops - b.stops || a.index - b.index)
    .slice(0, Math.max(0, limit))
    .map(({ key, extraMinutes, stops }) => ({ key, extraMinutes, stops }))
}
