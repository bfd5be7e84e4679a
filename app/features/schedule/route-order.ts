// The route page's forms (docs/product.md "Schedule" "Optimize route", reorder by hand, "Undo") and the words it shows.
// Shared by the route module and its tests, and safe in the browser: no database here.
import { z } from 'zod'
import { metersToMiles } from '~/routing/distance'
import { formatFullDate as formatInstantFullDate } from '~/utils/dates'

/** The most stops a posted order may name; the day's route holds at most 200 (ROUTE_LIMIT), so this only caps abuse. */
const MAX_POSTED_STOPS = 500

export const OptimizeRouteSchema = z.object({ intent: z.literal('optimize') })

/**
 * A new order of the day's open stops. "Move up" / "Move down" post the order the page showed plus `move`
 * (`<visitId>:up`), so they work without JavaScript and a stale page is a conflict, never a guess; "Undo" posts the
 * order from before "Optimize route" with `undo`.
 */
export const ReorderRouteSchema = z.object({
  intent: z.literal('reorder'),
  visitIds: z.array(z.uuid('Unknown stop.')).min(1, 'There are no stops to order.').max(MAX_POSTED_STOPS),
  move: z
    .string()
    .regex(/^[0-9a-f-]{36}:(up|down)$/i, 'Unknown move.')
    .optional(),
  undo: z.literal('on').optional(),
})
/** The order after moving one stop a place up or down; a move past either end (or of an unknown stop) changes nothing. */
export function applyMove(visitIds: readonly string[], move: string | undefined): string[] {
  const order = [...visitIds]
  if (!move) return order
  const [visitId, direction] = move.split(':')
  const from = order.indexOf(visitId ?? '')
  const to = direction === 'up' ? from - 1 : from + 1
  if (from === -1 || to < 0 || to >= order.length) return order
  ;[order[from], order[to]] = [order[to] as string, order[from] as string]
  return order
}

/** Meters as the page shows them: "3.2 mi". */
export function formatMiles(meters: number) {
  return `${metersToMiles(meters).toFixed(1)} mi`
}

/**
 * "Route optimized: 14.2 mi → 11.0 mi (saved 3.2 mi)."; when keeping appointments and windows made the drive longer,
 * "Route optimized to keep its times: 3.0 mi → 3.4 mi."
 */
export function optimizedMessage(beforeMeters: number, afterMeters: number) {
  // The saving from the rounded figures, so the sentence adds up as read.
  const before = Number(metersToMiles(beforeMeters).toFixed(1))
  const after = Number(metersToMiles(afterMeters).toFixed(1))
  if (after > before) return `Route optimized to keep its times: ${before.toFixed(1)} mi → ${after.toFixed(1)} mi.`
  return `Route optimized: ${before.toFixed(1)} mi → ${after.toFixed(1)} mi (saved ${Math.max(0, before - after).toFixed(1)} mi).`
}

/**
 * "Cannot be reached in time: Harold Jenkins (by 9:00 AM)." (docs/routing.md: the late stops are named); '' if none.
 */
export function lateMessage(late: readonly string[]) {
  return late.length === 0 ? '' : ` Cannot be reached in time: ${late.join(', ')}.`
}

/** A local date in full: "Tuesday, November 24, 2026" (the date itself, whatever the viewer's zone). */
export function formatFullDate(date: string) {
  // Through the formatter utils/dates keeps: building an Intl.DateTimeFormat costs more than the page's use of it.
  return formatInstantFullDate(`${date}T12:00:00Z`, 'UTC')
}
