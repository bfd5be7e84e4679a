// "On my way"'s arrival estimate (docs/product.md "Notices", issue #20 item 4): when the technician taps it, they are
// at, or leaving, the stop before on their route. The estimate is: the time left on site there (its minutes on site,
// when that stop is still open), plus the drive from it (OSRM's driving time when known, otherwise the distance at an
// average town speed), rounded up to five minutes — customers read "about 10:40", not "10:37" — and never before
// the stop's window opens (the route's ETA waits for an appointment, docs/routing.md).

/** Average driving speed between pool stops in town, when no road time is known: 30 mph. */
export const TOWN_SPEED_METERS_PER_SECOND = 13.4
/** With no distance at all (a stop without coordinates): a typical hop between neighbouring stops. */
export const UNKNOWN_DRIVE_SECONDS = 15 * 60
const ROUND_TO_MS = 5 * 60_000

export type Leg = {
  /** Drive distance from the stop before (meters), when both have coordinates. */
  meters: number | null
  /** Driving time from OSRM (seconds), when it answered. */
  seconds?: number | null
  /** Minutes still to spend at the stop before (0 when it is done or there is none). */
  minutesLeftThere: number
  /**
   * When the stop's appointment or "Arrive between" window opens (docs/routing.md): the route waits for it, so the
   * customer is told that time rather than an earlier one. Null or absent: no window.
   */
  opensAt?: Date | null
}

/** When the technician should arrive, counting from `now`. */
export function arrivalEstimate(now: Date, leg: Leg): Date {
  const driveSeconds =
    leg.seconds != null && Number.isFinite(leg.seconds)
      ? leg.seconds
      : leg.meters != null && Number.isFinite(leg.meters)
        ? leg.meters / TOWN_SPEED_METERS_PER_SECOND
        : UNKNOWN_DRIVE_SECONDS
  const at = now.getTime() + Math.max(0, leg.minutesLeftThere) * 60_000 + Math.max(0, driveSeconds) * 1000
  const rounded = Math.ceil(at / ROUND_TO_MS) * ROUND_TO_MS
  return new Date(Math.max(rounded, leg.opensAt?.getTime() ?? rounded))
}
