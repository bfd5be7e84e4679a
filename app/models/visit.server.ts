// What the office does to a visit (OPERATIONS §4): "Move visit" (this visit only, or this and following), "Skip
// visit" with a reason, "Cancel job"; the week board's read model; and a technician's day as a route — stops in
// order, distances, "Optimize route" and its undo. Every function takes the company it works in; a visit of another
// company is "not found".
import { and, asc, eq, gte, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm'
import { companies, jobs, profiles, serviceLocations } from '~/db/schema'
import type { Leg } from '~/notices/eta'
import type { LatLng } from '~/routing/distance'
import { driveDistances } from '~/routing/drive-distances.server'
import { clockTime } from '~/routing/route-file'
import { lateStops, optimiseTimedRoute } from '~/routing/windows'
import {
  type DayStop,
  DEFAULT_WORK_ENDS,
  DEFAULT_WORK_STARTS,
  dayProblem,
  dayTimes,
  formatClock,
  lateStopLabel,
  stopWindow,
  type TechnicianDay,
  wallMinutes,
} from '~/schedule/day-times'
import {
  addDays,
  instantAt,
  isLocalDate,
  type LocalDate,
  localDateAt,
  minDate,
  type WallTime,
} from '~/schedule/local-date'
import { moveFollowingVisits } from '~/schedule/plan-changes'
import { formatTime, zonedParts } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { queueVisitNotice } from './notice.server'
import { isCompanyTechnician } from './profile.server'
import { visitLocation } from './service-location.server'
import { applyPlanChange, companyToday, isUntouchedVisit, loadPlanForChange } from './service-plan.server'
import { type MoveVisitInput, MoveVisitSchema, type SkipVisitInput, SkipVisitSchema } from './service-plan-schemas'

export const VISIT_NOT_FOUND = 'Visit not found.'
const NOT_OPEN = 'This visit is already completed, skipped or cancelled.'
/** A week board shows at most this many visits (ten technicians at 16 stops a day, and the unassigned, fit). */
export const BOARD_LIMIT = 3000
/**
 * Technicians on one page of the week board. A company of 50 has five pages; the Unassigned row is on every page. A
 * week of every technician at once was 2,400 visits and 0.2 s to render (issue 22).
 */
export const BOARD_TECHNICIANS_PER_PAGE = 10
/** A day's route has at most this many stops. */
export const ROUTE_LIMIT = 200

export type VisitState = 'open' | 'completed' | 'skipped' | 'cancelled'

export function visitState(visit: {
  completedAt: Date | string | null
  cancelledAt: Date | string | null
  skipReason: string | null
}): VisitState {
  if (visit.completedAt) return 'completed'
  if (visit.skipReason) return 'skipped'
  if (visit.cancelledAt) return 'cancelled'
  return 'open'
}

/** An open visit of the company, locked for the rest of the transaction. */
async function lockOpenVisit(tx: Database, companyId: string, jobId: string) {
  if (!isUuid(jobId)) return failure('not-found', VISIT_NOT_FOUND)
  const [visit] = await tx
    .select({
      id: jobs.id,
      scheduledAt: jobs.scheduledAt,
      completedAt: jobs.completedAt,
      cancelledAt: jobs.cancelledAt,
      technicianId: jobs.technicianId,
      planId: jobs.planId,
      occurrenceDate: jobs.occurrenceDate,
    })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
    .for('update')
  if (!visit) return failure('not-found', VISIT_NOT_FOUND)
  if (visit.completedAt || visit.cancelledAt) return failure('conflict', NOT_OPEN)
  return success({ visit })
}

/**
 * "Move visit": to another date and/or technician. "This visit only" moves this one (it keeps its occurrence date, so
 * generation never adds it again); "This and following visits" ends the plan the day before and starts a new one
 * from the new date (OPERATIONS §4). The visit keeps its time of day in the company's zone.
 */
export async function moveVisit({
  companyId,
  jobId,
  input,
  now = new Date(),
}: {
  companyId: string
  jobId: string
  input: MoveVisitInput
  now?: Date
}): Promise<Result<{ jobId: string }>> {
  const parsed = MoveVisitSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', parsed.error.issues[0]?.message ?? 'Check the move.')
  const move = parsed.data
  if (move.technicianId && !(await isCompanyTechnician(companyId, move.technicianId))) {
    return failure('invalid', 'Choose one of your technicians.')
  }
  const clock = await companyToday(companyId, now)
  if (!clock) return failure('not-found', VISIT_NOT_FOUND)
  if (move.date < clock.today) return failure('invalid', 'Choose today or a later date.')
  return db().transaction(async (tx) => {
    const locked = await lockOpenVisit(tx, companyId, jobId)
    if (!locked.ok) return locked
    const { visit } = locked
    if (move.scope === 'following') {
      if (!visit.planId || !visit.occurrenceDate) {
        return failure('invalid', 'This is a one-off job: it has no following visits. Choose "This visit only".')
      }
      const loaded = await loadPlanForChange(tx, companyId, visit.planId, minDate(visit.occurrenceDate, move.date))
      if (!loaded) return failure('not-found', VISIT_NOT_FOUND)
      // The visit being moved is replaced by the new plan's first visit, even when it had been moved before.
      const outcome = moveFollowingVisits(
        loaded.plan,
        { occurrenceDate: visit.occurrenceDate, to: move.date, changes: { technicianId: move.technicianId } },
        {
          today: clock.today,
          visits: loaded.visits,
          isUntouched: (other) => (other.id === visit.id && !other.hasReadings) || isUntouchedVisit(other),
        },
      )
      if (!outcome.ok) return outcome
      const planIds = await applyPlanChange(tx, companyId, outcome.change, now)
      const [moved] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.companyId, companyId), inArray(jobs.planId, planIds), eq(jobs.occurrenceDate, move.date)))
        .limit(1)
      await publishCompanyEvent({ companyId, type: 'job.updated' }, tx)
      return success({ jobId: moved?.id ?? visit.id })
    }
    if (visit.planId) {
      // Two visits of one plan on one day is a mistake, not a schedule.
      const [taken] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.companyId, companyId),
            eq(jobs.planId, visit.planId),
            ne(jobs.id, visit.id),
            isNull(jobs.cancelledAt),
            gte(jobs.scheduledAt, instantAt(move.date, '00:00', clock.timezone)),
            lt(jobs.scheduledAt, instantAt(addDays(move.date, 1), '00:00', clock.timezone)),
          ),
        )
        .limit(1)
      if (taken) return failure('conflict', `This plan already has a visit on ${move.date}.`)
    }
    const local = zonedParts(visit.scheduledAt, clock.timezone)
    const time = `${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`
    await tx
      .update(jobs)
      .set({
        scheduledAt: instantAt(move.date, time, clock.timezone),
        technicianId: move.technicianId,
        movedAt: now,
        routePosition: null,
      })
      .where(and(eq(jobs.companyId, companyId), eq(jobs.id, visit.id)))
    await publishCompanyEvent({ companyId, type: 'job.updated', jobId: visit.id }, tx)
    return success({ jobId: visit.id })
  })
}

/** "Skip visit" with a reason: the visit shows as Skipped, leaves open work and is not billed. */
export async function skipVisit({
  companyId,
  jobId,
  input,
  technicianId,
  now = new Date(),
}: {
  companyId: string
  jobId: string
  input: SkipVisitInput
  /** Set when a technician skips: only their own visit. */
  technicianId?: string
  now?: Date
}): Promise<Result<{ reason: string }>> {
  const parsed = SkipVisitSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', parsed.error.issues[0]?.message ?? 'Choose a reason.')
  return db().transaction(async (tx) => {
    const locked = await lockOpenVisit(tx, companyId, jobId)
    if (!locked.ok) return locked
    if (technicianId && locked.visit.technicianId !== technicianId) return failure('not-found', VISIT_NOT_FOUND)
    await markSkipped(tx, { companyId, jobId, reason: parsed.data.reason, now })
    return success({ reason: parsed.data.reason })
  })
}

/**
 * Skips an open visit (locked by the caller) with its reason and tells the customer ("Visit skipped", OPERATIONS §6),
 * in the caller's transaction: the office's skip and the technician's (from the phone) are the same change.
 */
export async function markSkipped(
  tx: Database,
  { companyId, jobId, reason, now }: { companyId: string; jobId: string; reason: string; now: Date },
) {
  await tx
    .update(jobs)
    .set({ cancelledAt: now, skipReason: reason })
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
  await queueVisitNotice(tx, {
    companyId,
    jobId,
    event: 'visit-skipped',
    values: { reason: skipReasonForCustomer(reason) },
  })
  await publishCompanyEvent({ companyId, type: 'job.updated', jobId }, tx)
}

/** "Other: the pump was off" reads "the pump was off" to the customer. */
function skipReasonForCustomer(reason: string) {
  return reason.replace(/^Other: /, '')
}

/** "Cancel job": an open visit nobody will do. It stays in history as "Cancelled". */
export async function cancelJob({
  companyId,
  jobId,
  now = new Date(),
}: {
  companyId: string
  jobId: string
  now?: Date
}): Promise<Result> {
  return db().transaction(async (tx) => {
    const locked = await lockOpenVisit(tx, companyId, jobId)
    if (!locked.ok) return locked
    await tx
      .update(jobs)
      .set({ cancelledAt: now })
      .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
    await publishCompanyEvent({ companyId, type: 'job.updated', jobId }, tx)
    return success({})
  })
}

// ---- The week board ----

/** The Monday of the week `date` is in ("This week" starts on Monday, OPERATIONS §8). */
export function mondayOf(date: LocalDate): LocalDate {
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7
  return addDays(date, -weekday)
}

export type BoardVisit = {
  id: string
  customerName: string
  date: LocalDate
  time: string
  technicianId: string | null
  minutes: number
  state: VisitState
  recurring: boolean
}

/**
 * The week board (OPERATIONS §4): from Monday `weekStart` for 7 days, page `technicianPage` of the company's active
 * technicians (rows, by name) with their visits and every unassigned one — two queries, however many visits.
 * Cancelled one-offs are left out; skipped visits show. Every technician is returned too: "Move visit" offers all.
 */
export async function getWeekBoard({
  companyId,
  timezone,
  weekStart,
  technicianPage = 1,
}: {
  companyId: string
  timezone: string
  weekStart: LocalDate
  technicianPage?: number
}) {
  const start = instantAt(weekStart, '00:00', timezone)
  const end = instantAt(addDays(weekStart, 7), '00:00', timezone)
  const technicians = await listTechnicians(companyId)
  const pageCount = Math.max(1, Math.ceil(technicians.length / BOARD_TECHNICIANS_PER_PAGE))
  const page = Math.min(Math.max(1, Math.floor(technicianPage) || 1), pageCount)
  const rowTechnicians = technicians.slice((page - 1) * BOARD_TECHNICIANS_PER_PAGE, page * BOARD_TECHNICIANS_PER_PAGE)
  const rowIds = rowTechnicians.map((tech) => tech.id)
  const rows = await db()
    .select({
      id: jobs.id,
      customerName: jobs.customerName,
      scheduledAt: jobs.scheduledAt,
      technicianId: jobs.technicianId,
      completedAt: jobs.completedAt,
      cancelledAt: jobs.cancelledAt,
      skipReason: jobs.skipReason,
      planId: jobs.planId,
      minutes: serviceLocations.minutesOnSite,
    })
    .from(jobs)
    .innerJoin(serviceLocations, visitLocation)
    .where(
      and(
        eq(jobs.companyId, companyId),
        gte(jobs.scheduledAt, start),
        lt(jobs.scheduledAt, end),
        sql`(${jobs.cancelledAt} is null or ${jobs.skipReason} is not null)`,
        rowIds.length > 0
          ? or(isNull(jobs.technicianId), inArray(jobs.technicianId, rowIds))
          : isNull(jobs.technicianId),
      ),
    )
    .orderBy(asc(jobs.scheduledAt), asc(jobs.routePosition), asc(jobs.id))
    .limit(BOARD_LIMIT + 1)
  const visits: BoardVisit[] = rows.slice(0, BOARD_LIMIT).map((row) => ({
    id: row.id,
    customerName: row.customerName,
    date: localDateAt(row.scheduledAt, timezone),
    time: formatTime(row.scheduledAt, timezone),
    technicianId: row.technicianId,
    minutes: row.minutes,
    state: visitState(row),
    recurring: row.planId !== null,
  }))
  const days = Array.from({ length: 7 }, (_, i) => addDays(weekStart, i))
  return {
    weekStart,
    days,
    technicians,
    rowTechnicians,
    technicianPage: {
      page,
      pageCount,
      from: (page - 1) * BOARD_TECHNICIANS_PER_PAGE + 1,
      to: (page - 1) * BOARD_TECHNICIANS_PER_PAGE + rowTechnicians.length,
      total: technicians.length,
    },
    visits,
    truncated: rows.length > BOARD_LIMIT,
  }
}

/** The company's active technicians, by name. */
export async function listTechnicians(companyId: string) {
  return db()
    .select({ id: profiles.id, name: profiles.fullName, email: profiles.email })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'tech'), isNull(profiles.deactivatedAt)))
    .orderBy(asc(profiles.fullName), asc(profiles.id))
}

// ---- A technician's day as a route ----

export type RouteStop = {
  id: string
  customerName: string
  address: string
  time: string
  state: VisitState
  skipReason: string | null
  minutesOnSite: number
  /** Minutes from the day's midnight: a fixed appointment is [T, T], else the location's "Arrive between". */
  window: { open?: number; close?: number }
  /** "Appointment 8:00 AM" or "Arrive 9:00 AM–11:00 AM"; null without a window. */
  windowLabel: string | null
  point: LatLng | null
  /** The point is its ZIP code's centre (docs/subsystems.md, "Positions"): routed, but shown as approximate. */
  approximate: boolean
  customerId: string
  locationId: string
  gateCode: string | null
  accessNotes: string | null
  dogOnSite: boolean
}

const stopColumns = {
  id: jobs.id,
  customerName: jobs.customerName,
  address: jobs.address,
  scheduledAt: jobs.scheduledAt,
  completedAt: jobs.completedAt,
  cancelledAt: jobs.cancelledAt,
  skipReason: jobs.skipReason,
  lat: serviceLocations.lat,
  lng: serviceLocations.lng,
  positionSource: serviceLocations.positionSource,
  customerId: jobs.customerId,
  locationId: jobs.locationId,
  minutesOnSite: serviceLocations.minutesOnSite,
  appointmentAt: jobs.appointmentAt,
  arriveFrom: serviceLocations.arriveFrom,
  arriveUntil: serviceLocations.arriveUntil,
  gateCode: serviceLocations.gateCode,
  accessNotes: serviceLocations.accessNotes,
  dogOnSite: serviceLocations.dogOnSite,
}

/** A technician's (or the unassigned) visits in [start, end); cancelled one-offs are left out, skipped ones stay. */
function selectStops(
  companyId: string,
  technicianId: string | null,
  start: Date,
  end: Date,
  executor: Pick<Database, 'select'> = db(),
) {
  return executor
    .select(stopColumns)
    .from(jobs)
    .innerJoin(serviceLocations, visitLocation)
    .where(
      and(
        eq(jobs.companyId, companyId),
        technicianId ? eq(jobs.technicianId, technicianId) : isNull(jobs.technicianId),
        gte(jobs.scheduledAt, start),
        lt(jobs.scheduledAt, end),
        sql`(${jobs.cancelledAt} is null or ${jobs.skipReason} is not null)`,
      ),
    )
}

/** The office's order first (route_position), then by time. */
const routeOrder = [sql`${jobs.routePosition} asc nulls last`, asc(jobs.scheduledAt), asc(jobs.id)]

function toRouteStop(row: Awaited<ReturnType<typeof selectStops>>[number], timezone: string): RouteStop {
  const appointment = row.appointmentAt ? zonedParts(row.appointmentAt, timezone) : null
  const window = stopWindow({
    appointment: appointment ? appointment.hour * 60 + appointment.minute : null,
    arriveFrom: wallMinutes(row.arriveFrom),
    arriveUntil: wallMinutes(row.arriveUntil),
  })
  return {
    window,
    windowLabel: windowLabel(window, appointment !== null),
    id: row.id,
    customerName: row.customerName,
    address: row.address,
    time: formatTime(row.scheduledAt, timezone),
    state: visitState(row),
    skipReason: row.skipReason,
    minutesOnSite: row.minutesOnSite,
    point: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
    approximate: row.lat !== null && row.positionSource === 'zip',
    customerId: row.customerId,
    locationId: row.locationId,
    gateCode: row.gateCode,
    accessNotes: row.accessNotes,
    dogOnSite: row.dogOnSite,
  }
}

function windowLabel(window: { open?: number; close?: number }, appointment: boolean) {
  if (appointment && window.open !== undefined) return `Appointment ${formatClock(window.open)}`
  if (window.open !== undefined && window.close !== undefined) {
    return `Arrive ${formatClock(window.open)}–${formatClock(window.close)}`
  }
  if (window.open !== undefined) return `Arrive after ${formatClock(window.open)}`
  if (window.close !== undefined) return `Arrive by ${formatClock(window.close)}`
  return null
}

/**
 * A technician's visits on one local date, in route order: the office's order first (route_position), then by time.
 * Open and finished stops both (the technician's "Today" collapses finished ones); cancelled one-offs are left out.
 */
export async function listDayStops(
  {
    companyId,
    timezone,
    technicianId,
    date,
  }: {
    companyId: string
    timezone: string
    technicianId: string | null
    date: LocalDate
  },
  executor: Pick<Database, 'select'> = db(),
): Promise<RouteStop[]> {
  const start = instantAt(date, '00:00', timezone)
  const end = instantAt(addDays(date, 1), '00:00', timezone)
  const rows = await selectStops(companyId, technicianId, start, end, executor)
    .orderBy(...routeOrder)
    .limit(ROUTE_LIMIT)
  return rows.map((row) => toRouteStop(row, timezone))
}

/**
 * A technician's week from Monday `weekStart` ("This week", OPERATIONS §5 and §8) in one query: seven days, each with
 * its stops in route order as `listDayStops` gives them (a day with nothing has no stops).
 */
export async function listTechnicianWeek({
  companyId,
  timezone,
  technicianId,
  weekStart,
}: {
  companyId: string
  timezone: string
  technicianId: string
  weekStart: LocalDate
}): Promise<Array<{ date: LocalDate; stops: RouteStop[] }>> {
  const start = instantAt(weekStart, '00:00', timezone)
  const end = instantAt(addDays(weekStart, 7), '00:00', timezone)
  const rows = await selectStops(companyId, technicianId, start, end)
    // Route order holds within a day: the local day comes first.
    .orderBy(sql`(${jobs.scheduledAt} at time zone ${timezone})::date`, ...routeOrder)
    .limit(7 * ROUTE_LIMIT)
  const days = Array.from({ length: 7 }, (_, i) => ({ date: addDays(weekStart, i), stops: [] as RouteStop[] }))
  const byDate = new Map(days.map((day) => [day.date, day.stops]))
  for (const row of rows) byDate.get(localDateAt(row.scheduledAt, timezone))?.push(toRouteStop(row, timezone))
  return days
}

async function companyStart(companyId: string, executor: Pick<Database, 'select'> = db()) {
  const [row] = await executor
    .select({ address: companies.startAddress, lat: companies.startLat, lng: companies.startLng })
    .from(companies)
    .where(eq(companies.id, companyId))
  return row && row.lat !== null && row.lng !== null
    ? { address: row.address ?? 'Start', point: { lat: row.lat, lng: row.lng } }
    : null
}

type Place = { address: string; point: LatLng }

/**
 * A technician's day (Team → technician): the start address (the company's when none is set), the end address (none:
 * the day ends at the last stop) and working hours (8:00 AM–5:00 PM when none are set). A place without a latitude and
 * longitude is left out. The unassigned route has the company's start and the default hours.
 */
export async function technicianDay(
  companyId: string,
  technicianId: string | null,
  executor: Pick<Database, 'select'> = db(),
): Promise<{ start: Place | null; end: Place | null; workStarts: number; workEnds: number }> {
  const [company, profile] = await Promise.all([
    companyStart(companyId, executor),
    technicianId
      ? executor
          .select({
            startAddress: profiles.startAddress,
            startLat: profiles.startLat,
            startLng: profiles.startLng,
            endAddress: profiles.endAddress,
            endLat: profiles.endLat,
            endLng: profiles.endLng,
            workStarts: profiles.workStarts,
            workEnds: profiles.workEnds,
          })
          .from(profiles)
          .where(and(eq(profiles.companyId, companyId), eq(profiles.id, technicianId)))
          .then((rows) => rows[0])
      : undefined,
  ])
  const place = (address: string | null | undefined, lat: number | null | undefined, lng: number | null | undefined) =>
    lat != null && lng != null ? { address: address ?? 'Start', point: { lat, lng } } : null
  const start = place(profile?.startAddress, profile?.startLat, profile?.startLng) ?? company
  const end = place(profile?.endAddress, profile?.endLat, profile?.endLng)
  const workStarts = wallMinutes(profile?.workStarts) ?? DEFAULT_WORK_STARTS
  const workEnds = wallMinutes(profile?.workEnds) ?? DEFAULT_WORK_ENDS
  return { start, end: end && { ...end, address: profile?.endAddress ?? 'End' }, workStarts, workEnds }
}

/** The timed problem of a day's routed stops (open, with a place), from its drive distances. */
function timedDay(
  day: Awaited<ReturnType<typeof technicianDay>>,
  routed: readonly RouteStop[],
  measured: { metres: number[][]; seconds?: number[][] },
) {
  const shape: TechnicianDay = {
    start: day.start?.point ?? null,
    end: day.end?.point ?? null,
    workStarts: day.workStarts,
    workEnds: day.workEnds,
  }
  const stops: DayStop[] = routed.map((stop) => ({
    ...stop.window,
    service: stop.minutesOnSite,
    point: stop.point as LatLng,
  }))
  return dayProblem(shape, stops, measured)
}

function dayPoints(day: Awaited<ReturnType<typeof technicianDay>>, routed: readonly RouteStop[]) {
  return [
    ...(day.start ? [day.start.point] : []),
    ...routed.map((stop) => stop.point as LatLng),
    ...(day.end ? [day.end.point] : []),
  ]
}

/**
 * The route page's model: the day's stops in order, the drive distance to each open stop from the one before (from
 * the start address for the first), the total, and each open stop's estimated arrival ("ETA 10:40 AM": drives,
 * minutes on site and waits for windows from the start of the technician's working hours; docs/routing.md). Stops
 * without coordinates are listed without distances or times.
 */
export async function getDayRoute(args: {
  companyId: string
  timezone: string
  technicianId: string | null
  date: LocalDate
}) {
  const [stops, day] = await Promise.all([listDayStops(args), technicianDay(args.companyId, args.technicianId)])
  const start = day.start
  const routed = stops.filter((stop) => stop.state === 'open' && stop.point)
  const measured = await driveDistances(dayPoints(day, routed))
  const legs = new Map<string, number>()
  const etas = new Map<string, { eta: number; late: number }>()
  let totalMetres = 0
  if (measured.ok) {
    const offset = start ? 1 : 0
    routed.forEach((stop, index) => {
      const from = index + offset - 1
      if (from < 0) return
      const metres = measured.distances.metres[from]?.[index + offset] ?? 0
      legs.set(stop.id, metres)
      totalMetres += metres
    })
    const problem = timedDay(day, routed, measured.distances)
    const times = dayTimes(
      problem,
      routed.map((_, index) => index),
    )
    times.stops.forEach((time, index) => {
      const stop = routed[index]
      if (stop) etas.set(stop.id, { eta: time.start, late: time.late })
    })
  }
  return {
    start,
    stops: stops.map((stop) => {
      const time = etas.get(stop.id)
      return {
        ...stop,
        legMetres: legs.get(stop.id) ?? null,
        eta: time ? formatClock(time.eta) : null,
        lateBy: time && time.late > 1e-6 ? Math.ceil(time.late) : null,
      }
    }),
    totalMetres,
    source: measured.ok ? measured.distances.source : ('straight-line' as const),
    fallback: measured.ok ? (measured.distances.fallback ?? null) : measured.message,
  }
}

/**
 * Saves the order of a technician's open stops on a day ("reorder by hand", "Optimize route", "Undo"). `jobIds` must
 * be exactly the day's open stops; anything else (a stop added or finished meanwhile) is a conflict, not a guess.
 */
export async function setRouteOrder({
  companyId,
  timezone,
  technicianId,
  date,
  jobIds,
}: {
  companyId: string
  timezone: string
  technicianId: string | null
  date: LocalDate
  jobIds: readonly string[]
}): Promise<Result<{ previous: string[] }>> {
  if (!isLocalDate(date)) return failure('not-found', 'Route not found.')
  const current = (await listDayStops({ companyId, timezone, technicianId, date })).filter(
    (stop) => stop.state === 'open',
  )
  const previous = current.map((stop) => stop.id)
  const same = jobIds.length === previous.length && new Set(jobIds).size === jobIds.length
  if (!same || !jobIds.every((id) => previous.includes(id))) {
    return failure('conflict', 'The day’s stops changed meanwhile. Reload the route and try again.')
  }
  await db().transaction(async (tx) => {
    // One statement: each stop's position from its place in the list.
    await tx.execute(sql`
      update ${jobs} set route_position = ordered.position
      from (select unnest(${sql.param(jobIds)}::uuid[]) as id, generate_series(1, ${jobIds.length}) as position) ordered
      where ${jobs.companyId} = ${companyId} and ${jobs.id} = ordered.id`)
    await publishCompanyEvent({ companyId, type: 'job.updated' }, tx)
  })
  return success({ previous })
}

/**
 * "Optimize route" (docs/routing.md, decision 040): reorders the day's open stops with coordinates so every window
 * and appointment is kept when possible with the least driving, else with the least lateness (the late stops are
 * named), from the technician's start at the start of their working hours; stops without coordinates stay at the
 * end. Never worse (lateness, then distance) than the office's own order. Returns the saving and the order before,
 * for "Undo".
 */
export async function optimiseDayRoute(args: {
  companyId: string
  timezone: string
  technicianId: string | null
  date: LocalDate
}): Promise<
  Result<{
    previous: string[]
    beforeMetres: number
    afterMetres: number
    lateBefore: number
    lateAfter: number
    /** "Harold Jenkins (by 9:00 AM)": stops the chosen order still reaches late. */
    late: string[]
  }>
> {
  const [stops, day] = await Promise.all([listDayStops(args), technicianDay(args.companyId, args.technicianId)])
  const open = stops.filter((stop) => stop.state === 'open')
  const routed = open.filter((stop) => stop.point)
  const unplaced = open.filter((stop) => !stop.point)
  if (routed.length < 2) return failure('invalid', 'There is nothing to optimize: the day has fewer than two stops.')
  const measured = await driveDistances(dayPoints(day, routed))
  if (!measured.ok) return measured
  const problem = timedDay(day, routed, measured.distances)
  const before = dayTimes(
    problem,
    routed.map((_, index) => index),
  )
  const optimised = optimiseTimedRoute(problem)
  const order = optimised.order.map((point) => point - problem.offset)
  const after = optimised.times
  // Never worse than the office's own order: less lateness, or as little and no longer.
  const better =
    after.late < before.late - 1e-6 || (Math.abs(after.late - before.late) <= 1e-6 && after.length <= before.length)
  const chosen = better ? order : routed.map((_, index) => index)
  const chosenTimes = better ? after : before
  const jobIds = [...chosen.map((index) => (routed[index] as RouteStop).id), ...unplaced.map((stop) => stop.id)]
  const saved = await setRouteOrder({ ...args, jobIds })
  if (!saved.ok) return saved
  const late = lateStops(chosenTimes).map((time) => {
    const stop = routed[time.point - problem.offset] as RouteStop
    return lateStopLabel(stop.customerName, stop.window.close)
  })
  return success({
    previous: saved.previous,
    beforeMetres: before.length,
    afterMetres: chosenTimes.length,
    lateBefore: before.late,
    lateAfter: chosenTimes.late,
    late,
  })
}

/**
 * The leg of the technician's day that ends at stop `visitId` ("On my way"'s arrival estimate, app/notices/eta.ts):
 * from the open stop before it in route order (still to finish there: its minutes on site), else from the last
 * stop finished before it, else from the company's start. Distances as the route page measures them; `opensAt` is
 * the stop's window opening (an appointment's time), before which the route's ETA never falls.
 */
export async function legToStop(
  args: {
    companyId: string
    timezone: string
    technicianId: string
    visitId: string
    date: LocalDate
  },
  executor: Pick<Database, 'select'> = db(),
): Promise<Leg> {
  // In the caller's transaction when given one (the embedded database has one connection: a query beside an open
  // transaction would wait for it forever).
  const stops = await listDayStops(args, executor)
  const start = await companyStart(args.companyId, executor)
  const index = stops.findIndex((stop) => stop.id === args.visitId)
  const before =
    index > 0 ? stops.slice(0, index).filter((stop) => stop.state !== 'skipped' && stop.state !== 'cancelled') : []
  const previous = before.at(-1)
  const from = previous?.point ?? (previous ? null : (start?.point ?? null))
  const to = stops[index]?.point ?? null
  const minutesLeftThere = previous?.state === 'open' ? previous.minutesOnSite : 0
  const open = stops[index]?.window.open
  const opensAt = open === undefined ? null : instantAt(args.date, clockTime(open) as WallTime, args.timezone)
  if (!from || !to) return { metres: null, minutesLeftThere, opensAt }
  const measured = await driveDistances([from, to])
  if (!measured.ok) return { metres: null, minutesLeftThere, opensAt }
  return {
    metres: measured.distances.metres[0]?.[1] ?? null,
    seconds: measured.distances.seconds?.[0]?.[1] ?? null,
    minutesLeftThere,
    opensAt,
  }
}
