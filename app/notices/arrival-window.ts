// The arrival window a customer is told (docs/decisions/047-customer-times.md): two hours around the route's ETA
// (docs/routing.md), centered on the ETA rounded to a quarter hour, and kept inside the stop's own window (the location's
// "Arrive between", or a fixed appointment's time) when it has one. Reminders say it ("Your technician should arrive
// between 10:00 AM and 12:00 PM."), and the portal on the day of the visit ("Arriving between …").
import { formatClock } from '~/schedule/day-times'

/** Half of the window: an hour either side of the ETA. */
const HALF_WINDOW = 60
const ROUND_TO = 15

export type ArrivalWindow = { from: number; until: number }

/**
 * The window around `eta` (minutes from midnight), clamped to `stop` (open/close, minutes from midnight). When the
 * ETA misses the stop's window altogether (a late route), the honest two hours around the ETA are kept.
 */
export function arrivalWindow(eta: number, stop: { open?: number; close?: number } = {}): ArrivalWindow {
  const center = Math.round(eta / ROUND_TO) * ROUND_TO
  const around = { from: center - HALF_WINDOW, until: center + HALF_WINDOW }
  const from = Math.max(around.from, stop.open ?? around.from)
  const until = Math.min(around.until, stop.close ?? around.until)
  const clamped = from <= until ? { from, until } : around
  // Never before midnight nor past the day's end: a time the customer can read on that day.
  return { from: Math.max(0, clamped.from), until: Math.min(24 * 60 - 1, clamped.until) }
}

/** "between 10:00 AM and 12:00 PM", or "at 10:00 AM" for a window of one moment (an appointment). */
function betweenText({ from, until }: ArrivalWindow) {
  return from === until ? `at ${formatClock(from)}` : `between ${formatClock(from)} and ${formatClock(until)}`
}

/** The reminder's sentence ({arrival}). */
export function arrivalSentence(window: ArrivalWindow) {
  return `Your technician should arrive ${betweenText(window)}.`
}

/** The portal's words on the day of the visit. */
export function arrivingText(window: ArrivalWindow) {
  return `Arriving ${betweenText(window)}`
}
