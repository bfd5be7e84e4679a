// "Quiet hours" (docs/product.md "Notices", "Easy to get wrong"): texts are held from "From" until "Until" (default
// 21:00 to 08:00) on the company's wall clock, and go out at "Until". Worked on Temporal's zoned times, so the night
// the clocks change is handled by the zone rules, not by adding hours: an "Until" the clocks skip is sent as far after
// the gap as it was into it, and an "Until" the clocks repeat is sent at its first occurrence still to come.
import { Temporal } from 'temporal-polyfill'
import { isWallTime, type WallTime } from '~/schedule/local-date'

export type QuietHours = { from: WallTime; until: WallTime }

export const DEFAULT_QUIET_HOURS: QuietHours = { from: '21:00', until: '08:00' }

function minutesOf(time: WallTime) {
  if (!isWallTime(time)) throw new RangeError(`Not a wall time: ${JSON.stringify(time)}`)
  const [hours, minutes] = time.split(':').map(Number) as [number, number]
  return hours * 60 + minutes
}

/** Whether the wall-clock minute `minute` (0–1439) is inside the quiet hours (which may run past midnight). */
export function isQuietMinute(minute: number, quiet: QuietHours) {
  const from = minutesOf(quiet.from)
  const until = minutesOf(quiet.until)
  if (from === until) return false
  return from < until ? minute >= from && minute < until : minute >= from || minute < until
}

/** Whether a text may go out at `instant`: its minute on the company's wall clock is outside the quiet hours. */
export function isQuietAt(instant: Date, quiet: QuietHours, timeZone: string) {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone)
  return isQuietMinute(zoned.hour * 60 + zoned.minute, quiet)
}

/**
 * When a text due at `now` may be sent: `now` itself outside the quiet hours, otherwise the end of the quiet hours
 * that `now` falls in ("Until" on the same night's morning). "From" equal to "Until" means no quiet hours.
 */
export function sendableAt(now: Date, quiet: QuietHours, timeZone: string): Date {
  // The end of the quiet hours can itself fall inside quiet hours once: when the clocks skip the whole sending window
  // (a window of minutes inside the hour a spring-forward night skips). Then it is the next night's end.
  let at = quietEnd(now, quiet, timeZone)
  for (let tries = 0; tries < 3 && at > now && isQuietAt(at, quiet, timeZone); tries++) {
    at = quietEnd(at, quiet, timeZone)
  }
  return at
}

function quietEnd(now: Date, quiet: QuietHours, timeZone: string): Date {
  const zoned = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone)
  const minute = zoned.hour * 60 + zoned.minute
  if (!isQuietMinute(minute, quiet)) return now
  // Before midnight, the quiet hours end tomorrow morning; after it, this morning.
  const wraps = minutesOf(quiet.from) > minutesOf(quiet.until)
  const day = wraps && minute >= minutesOf(quiet.from) ? zoned.toPlainDate().add({ days: 1 }) : zoned.toPlainDate()
  const end = day.toPlainDateTime(Temporal.PlainTime.from(quiet.until))
  for (const disambiguation of ['compatible', 'later'] as const) {
    const at = end.toZonedDateTime(timeZone, { disambiguation }).epochMilliseconds
    if (at > now.getTime()) return new Date(at)
  }
  // Only in a repeated hour after its second "Until" — which is no longer quiet — can both be past.
  return now
}
