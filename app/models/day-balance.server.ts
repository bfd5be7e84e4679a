// "Balance the day" and "Cover this day" (docs/routing.md "Balancing", decision 045): a preview of moving a day's
// open visits between its technicians (app/routing/balance.ts), "Apply" (once per preview: its balance id is the
// record's key) and "Undo" (the exact assignment and order before). Only that day's visits move ("This visit only":
// the plans keep their weekday and technician); completed, skipped and started visits never move. A fixed number of
// queries per preview, whatever the number of technicians.
import { randomUUID } from 'node:crypto'
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import { z } from 'zod/v4'
import {
  chemLogs,
  jobs,
  profiles,
  routeBalanceMoves,
  routeBalances,
  serviceLocations,
  visitChecks,
  visitPhotos,
} from '~/db/schema'
import {
  type BalanceOptions,
  balancePlan,
  coverRoute,
  type FleetProblem,
  type Plan,
  planTimes,
  type Vehicle,
} from '~/routing/balance'
import type { LatLng } from '~/routing/distance'
import { driveDistances } from '~/routing/drive-distances.server'
import { DEFAULT_METRES_PER_MINUTE } from '~/routing/route-file'
import type { TimedStop } from '~/routing/windows'
import { DEFAULT_WORK_ENDS, DEFAULT_WORK_STARTS, wallMinutes } from '~/schedule/day-times'
import { addDays, instantAt, type LocalDate } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { companyStart } from './day-route.server'
import { type RouteStop, stopColumns, toRouteStop } from './day-stops.server'
import { visitLocation } from './service-location.server'
import { visitState } from './visit-state'

export const DAY_CHANGED =
  'The day changed since this preview (a visit was moved, added or finished). Review the new preview and apply again.'
export const ALREADY_APPLIED = 'Already applied.'

type DayVisit = RouteStop & {
  technicianId: string
  routePosition: number | null
  movedAt: Date | null
  started: boolean
}

/** Who has what, in route order: [technician id, its open visits' ids][]; what Apply checks and Undo restores. */
export const AssignmentSchema = z.array(z.tuple([z.string().min(1), z.array(z.uuid())])).max(100)
export type Assignment = z.infer<typeof AssignmentSchema>

/** A visit has been started: readings, checks or photos recorded. It stays with its technician. */
const started = sql<boolean>`(exists (select 1 from ${chemLogs} where ${chemLogs.companyId} = ${jobs.companyId} and ${chemLogs.jobId} = ${jobs.id})
  or exists (select 1 from ${visitChecks} where ${visitChecks.companyId} = ${jobs.companyId} and ${visitChecks.jobId} = ${jobs.id})
  or exists (select 1 from ${visitPhotos} where ${visitPhotos.companyId} = ${jobs.companyId} and ${visitPhotos.jobId} = ${jobs.id}))`

/** Every technician's visits on the day (one query), open ones in route order; locked when `lock`. */
async function dayVisits(
  executor: Pick<Database, 'select'>,
  { companyId, timezone, date }: { companyId: string; timezone: string; date: LocalDate },
  lock = false,
): Promise<DayVisit[]> {
  const query = executor
    .select({
      ...stopColumns,
      technicianId: jobs.technicianId,
      routePosition: jobs.routePosition,
      movedAt: jobs.movedAt,
      started,
    })
    .from(jobs)
    .innerJoin(serviceLocations, visitLocation)
    .where(
      and(
        eq(jobs.companyId, companyId),
        isNotNull(jobs.technicianId),
        gte(jobs.scheduledAt, instantAt(date, '00:00', timezone)),
        lt(jobs.scheduledAt, instantAt(addDays(date, 1), '00:00', timezone)),
        isNull(jobs.cancelledAt),
        isNull(jobs.completedAt),
      ),
    )
    .orderBy(asc(jobs.technicianId), sql`${jobs.routePosition} asc nulls last`, asc(jobs.scheduledAt), asc(jobs.id))
  const rows = lock ? await query.for('update', { of: jobs }) : await query
  return rows
    .map((row) => ({
      ...toRouteStop(row, timezone),
      technicianId: row.technicianId as string,
      routePosition: row.routePosition,
      movedAt: row.movedAt,
      started: Boolean(row.started),
    }))
    .filter((visit) => visit.state === 'open')
}

function assignmentOf(visits: readonly DayVisit[]): Assignment {
  const byTechnician = new Map<string, string[]>()
  for (const visit of visits)
    byTechnician.set(visit.technicianId, [...(byTechnician.get(visit.technicianId) ?? []), visit.id])
  return [...byTechnician.entries()]
}

const sameAssignment = (a: Assignment, b: Assignment) => JSON.stringify(a) === JSON.stringify(b)

export type Technician = {
  id: string
  name: string
  start: LatLng | null
  end: LatLng | null
  workStarts: number
  workEnds: number
}

/** The company's active technicians with their day's shape (Team → technician; the company's address by default). */
export async function technicianDays(companyId: string): Promise<Technician[]> {
  const [company, rows] = await Promise.all([
    companyStart(companyId),
    db()
      .select({
        id: profiles.id,
        name: profiles.fullName,
        email: profiles.email,
        startLat: profiles.startLat,
        startLng: profiles.startLng,
        endLat: profiles.endLat,
        endLng: profiles.endLng,
        workStarts: profiles.workStarts,
        workEnds: profiles.workEnds,
      })
      .from(profiles)
      .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'tech'), isNull(profiles.deactivatedAt)))
      .orderBy(asc(profiles.fullName), asc(profiles.id)),
  ])
  const place = (lat: number | null, lng: number | null) => (lat !== null && lng !== null ? { lat, lng } : null)
  return rows.map((row) => ({
    id: row.id,
    name: row.name ?? row.email,
    start: place(row.startLat, row.startLng) ?? company?.point ?? null,
    end: place(row.endLat, row.endLng) ?? company?.point ?? null,
    workStarts: wallMinutes(row.workStarts) ?? DEFAULT_WORK_STARTS,
    workEnds: wallMinutes(row.workEnds) ?? DEFAULT_WORK_ENDS,
  }))
}

/**
 * The fleet problem of the day: each technician's start and end, then every visit with a place (`pointOf` maps a
 * visit's id to its point). "Suggest a day and technician" passes the visits of several days and the new pool.
 */
export async function fleetOf(
  technicians: readonly Technician[],
  visits: ReadonlyArray<Pick<DayVisit, 'id' | 'point' | 'window' | 'minutesOnSite'>>,
) {
  const points: LatLng[] = []
  const stops: TimedStop[] = []
  const add = (point: LatLng, stop: TimedStop = {}) => {
    points.push(point)
    stops.push(stop)
    return points.length - 1
  }
  const vehicles: Vehicle[] = technicians.map((technician) => ({
    ...(technician.start ? { start: add(technician.start) } : {}),
    ...(technician.end ? { end: add(technician.end) } : {}),
    startTime: technician.workStarts,
    dayEnd: technician.workEnds,
  }))
  const pointOf = new Map<string, number>()
  for (const visit of visits) {
    if (visit.point) pointOf.set(visit.id, add(visit.point, { ...visit.window, service: visit.minutesOnSite }))
  }
  const measured = await driveDistances(points)
  if (!measured.ok) return measured
  const { metres, seconds } = measured.distances
  const distance = (from: number, to: number) => metres[from]?.[to] ?? 0
  const travel = (from: number, to: number) => {
    const time = seconds?.[from]?.[to]
    return time != null && Number.isFinite(time) ? time / 60 : distance(from, to) / DEFAULT_METRES_PER_MINUTE
  }
  const fleet: FleetProblem = { size: points.length, stops, distance, travel, vehicles }
  return success({ fleet, pointOf, source: measured.distances.source })
}

export type BalanceKind = 'balance' | 'cover'

export type BalancePreview = {
  balanceId: string
  date: LocalDate
  kind: BalanceKind
  coveredTechnicianId: string | null
  technicians: Array<{
    id: string
    name: string
    beforeMetres: number
    afterMetres: number
    stopsBefore: number
    stopsAfter: number
  }>
  beforeMetres: number
  afterMetres: number
  /** Visits that change technician, in the new routes' order. */
  moves: Array<{ jobId: string; customerName: string; from: string; to: string }>
  /** "Cover this day": stops no one can reach in time; they stay. */
  unplaced: string[]
  before: Assignment
  after: Assignment
  /** The new order differs from the current one (moves or reordering). */
  changes: boolean
}

/**
 * The preview: the day's technicians (those with open visits; for a cover, the covered one and everyone else working
 * that day), their miles before → after, the visits that move, and the assignments Apply needs.
 */
export async function previewBalance(args: {
  companyId: string
  timezone: string
  date: LocalDate
  kind: BalanceKind
  coveredTechnicianId?: string
}): Promise<Result<{ preview: BalancePreview }>> {
  const [allTechnicians, visits] = await Promise.all([technicianDays(args.companyId), dayVisits(db(), args)])
  const working = new Set(visits.map((visit) => visit.technicianId))
  if (args.coveredTechnicianId) working.add(args.coveredTechnicianId)
  const technicians = allTechnicians.filter((technician) => working.has(technician.id))
  const index = new Map(technicians.map((technician, at) => [technician.id, at]))
  const covered = args.coveredTechnicianId ? index.get(args.coveredTechnicianId) : undefined
  if (args.kind === 'cover' && covered === undefined) return failure('not-found', 'Technician not found.')
  const mine = visits.filter((visit) => index.has(visit.technicianId))
  const built = await fleetOf(technicians, mine)
  if (!built.ok) return built
  const { fleet, pointOf } = built
  const visitAt = new Map(
    [...pointOf.entries()].map(([id, point]) => [point, mine.find((visit) => visit.id === id) as DayVisit]),
  )
  const plan: Plan = technicians.map(() => [])
  const pinned = new Set<number>()
  for (const visit of mine) {
    const point = pointOf.get(visit.id)
    if (point === undefined) continue
    plan[index.get(visit.technicianId) as number]?.push(point)
    if (visit.started) pinned.add(point)
  }
  const options: BalanceOptions = { pinned }
  const result =
    covered === undefined
      ? { plan: balancePlan(fleet, plan, options), unplaced: [] as number[] }
      : coverRoute(fleet, plan, covered, options)
  const before = planTimes(fleet, plan)
  const after = planTimes(fleet, result.plan)
  // Visits without a place are not routed: they stay with their technician, after the routed ones.
  const unrouted = (technicianId: string) =>
    mine.filter((visit) => visit.technicianId === technicianId && !pointOf.has(visit.id))
  const afterAssignment: Assignment = technicians.map((technician, at) => [
    technician.id,
    [
      ...(result.plan[at] ?? []).map((point) => (visitAt.get(point) as DayVisit).id),
      ...unrouted(technician.id).map((visit) => visit.id),
    ],
  ])
  const name = (technicianId: string) => technicians.find((technician) => technician.id === technicianId)?.name ?? ''
  const moves = afterAssignment.flatMap(([technicianId, jobIds]) =>
    jobIds.flatMap((jobId) => {
      const visit = mine.find((candidate) => candidate.id === jobId) as DayVisit
      return visit.technicianId === technicianId
        ? []
        : [{ jobId, customerName: visit.customerName, from: name(visit.technicianId), to: name(technicianId) }]
    }),
  )
  const beforeAssignment: Assignment = technicians.map((technician) => [
    technician.id,
    mine.filter((visit) => visit.technicianId === technician.id).map((visit) => visit.id),
  ])
  const sum = (times: typeof before) => times.reduce((total, time) => total + time.length, 0)
  return success({
    preview: {
      balanceId: randomUUID(),
      date: args.date,
      kind: args.kind,
      coveredTechnicianId: args.coveredTechnicianId ?? null,
      technicians: technicians.map((technician, at) => ({
        id: technician.id,
        name: technician.name,
        beforeMetres: before[at]?.length ?? 0,
        afterMetres: after[at]?.length ?? 0,
        stopsBefore: beforeAssignment[at]?.[1].length ?? 0,
        stopsAfter: afterAssignment[at]?.[1].length ?? 0,
      })),
      beforeMetres: sum(before),
      afterMetres: sum(after),
      moves,
      unplaced: result.unplaced.map((point) => (visitAt.get(point) as DayVisit).customerName),
      before: beforeAssignment,
      after: afterAssignment,
      changes: !sameAssignment(beforeAssignment, afterAssignment),
    },
  })
}

/** The day's current assignment restricted to the preview's technicians, in the preview's technician order. */
function currentFor(visits: readonly DayVisit[], technicianIds: readonly string[]): Assignment {
  const current = new Map(assignmentOf(visits))
  return technicianIds.map((id) => [id, current.get(id) ?? []])
}

/**
 * "Apply": checks the day is as previewed (`before`), then gives each visit its technician and place in `after`.
 * The balance id keys the record: a second Apply of one preview answers "Already applied" and changes nothing.
 */
export async function applyBalance(args: {
  companyId: string
  timezone: string
  userId: string
  balanceId: string
  date: LocalDate
  kind: BalanceKind
  coveredTechnicianId: string | null
  before: Assignment
  after: Assignment
  now?: Date
}): Promise<Result<{ moved: number }>> {
  if (!isUuid(args.balanceId)) return failure('invalid', 'This preview is not valid. Open the page again.')
  const technicianIds = args.before.map(([id]) => id)
  const afterIds = args.after.map(([id]) => id)
  const flat = (assignment: Assignment) => assignment.flatMap(([, ids]) => ids).sort()
  if (
    JSON.stringify(technicianIds) !== JSON.stringify(afterIds) ||
    JSON.stringify(flat(args.before)) !== JSON.stringify(flat(args.after))
  ) {
    return failure('invalid', 'This preview is not valid. Open the page again.')
  }
  const now = args.now ?? new Date()
  return db().transaction(async (tx) => {
    const [existing] = await tx
      .select({ companyId: routeBalances.companyId })
      .from(routeBalances)
      .where(eq(routeBalances.id, args.balanceId))
    if (existing)
      return existing.companyId === args.companyId
        ? failure('conflict', ALREADY_APPLIED)
        : failure('not-found', 'Not found.')
    const visits = await dayVisits(tx, args, true)
    if (!sameAssignment(currentFor(visits, technicianIds), args.before)) return failure('conflict', DAY_CHANGED)
    const byId = new Map(visits.map((visit) => [visit.id, visit]))
    // Started visits never move to someone else.
    for (const [technicianId, ids] of args.after) {
      for (const id of ids) {
        const visit = byId.get(id) as DayVisit
        if (visit.started && visit.technicianId !== technicianId)
          return failure('invalid', `${visit.customerName} has been started: it stays.`)
      }
    }
    const inserted = await tx
      .insert(routeBalances)
      .values({
        id: args.balanceId,
        companyId: args.companyId,
        day: args.date,
        kind: args.kind,
        coveredTechnicianId: args.coveredTechnicianId,
        createdBy: args.userId,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: routeBalances.id })
    if (inserted.length === 0) return failure('conflict', ALREADY_APPLIED)
    const rows = args.after.flatMap(([technicianId, ids]) =>
      ids.map((jobId, at) => {
        const visit = byId.get(jobId) as DayVisit
        return {
          companyId: args.companyId,
          balanceId: args.balanceId,
          jobId,
          fromTechnicianId: visit.technicianId,
          fromPosition: visit.routePosition,
          fromMovedAt: visit.movedAt,
          toTechnicianId: technicianId,
          toPosition: at + 1,
        }
      }),
    )
    if (rows.length > 0) await tx.insert(routeBalanceMoves).values(rows)
    await setAssignments(
      tx,
      args.companyId,
      rows.map((row) => ({
        jobId: row.jobId,
        technicianId: row.toTechnicianId,
        position: row.toPosition,
        movedAt: row.fromTechnicianId === row.toTechnicianId ? row.fromMovedAt : now,
      })),
    )
    await publishCompanyEvent({ companyId: args.companyId, type: 'job.updated' }, tx)
    return success({ moved: rows.filter((row) => row.fromTechnicianId !== row.toTechnicianId).length })
  })
}

/** One statement: each visit's technician, route position and "moved by hand" mark. */
async function setAssignments(
  tx: Database,
  companyId: string,
  rows: ReadonlyArray<{ jobId: string; technicianId: string | null; position: number | null; movedAt: Date | null }>,
) {
  if (rows.length === 0) return
  await tx.execute(sql`
    update ${jobs} set technician_id = given.technician_id, route_position = given.position, moved_at = given.moved_at
    from (select
      unnest(${sql.param(rows.map((row) => row.jobId))}::uuid[]) as id,
      unnest(${sql.param(rows.map((row) => row.technicianId))}::text[]) as technician_id,
      unnest(${sql.param(rows.map((row) => row.position))}::integer[]) as position,
      unnest(${sql.param(rows.map((row) => row.movedAt?.toISOString() ?? null))}::timestamptz[]) as moved_at) given
    where ${jobs.companyId} = ${companyId} and ${jobs.id} = given.id`)
}

/**
 * "Undo": every visit back to the technician, place and "moved" mark it had. Refused when any of them changed since
 * (moved, reordered, finished): the day is no longer the one balanced. A second Undo answers "Already undone."
 */
export async function undoBalance(args: {
  companyId: string
  userId: string
  balanceId: string
  now?: Date
}): Promise<Result<{ restored: number }>> {
  if (!isUuid(args.balanceId)) return failure('not-found', 'Not found.')
  return db().transaction(async (tx) => {
    const [balance] = await tx
      .select({ undoneAt: routeBalances.undoneAt })
      .from(routeBalances)
      .where(and(eq(routeBalances.companyId, args.companyId), eq(routeBalances.id, args.balanceId)))
      .for('update')
    if (!balance) return failure('not-found', 'Not found.')
    if (balance.undoneAt) return failure('conflict', 'Already undone.')
    const moves = await tx
      .select()
      .from(routeBalanceMoves)
      .where(and(eq(routeBalanceMoves.companyId, args.companyId), eq(routeBalanceMoves.balanceId, args.balanceId)))
    const ids = moves.map((move) => move.jobId)
    const current =
      ids.length === 0
        ? []
        : await tx
            .select({
              id: jobs.id,
              technicianId: jobs.technicianId,
              position: jobs.routePosition,
              completedAt: jobs.completedAt,
              cancelledAt: jobs.cancelledAt,
            })
            .from(jobs)
            .where(and(eq(jobs.companyId, args.companyId), inArray(jobs.id, ids)))
            .for('update')
    const now = new Map(current.map((row) => [row.id, row]))
    const unchanged = moves.every((move) => {
      const row = now.get(move.jobId)
      return (
        row &&
        visitState({ ...row, skipReason: null }) === 'open' &&
        row.technicianId === move.toTechnicianId &&
        row.position === move.toPosition
      )
    })
    if (!unchanged)
      return failure('conflict', 'Visits of this day changed since it was applied: it can no longer be undone.')
    await setAssignments(
      tx,
      args.companyId,
      moves.map((move) => ({
        jobId: move.jobId,
        technicianId: move.fromTechnicianId,
        position: move.fromPosition,
        movedAt: move.fromMovedAt,
      })),
    )
    await tx
      .update(routeBalances)
      .set({ undoneAt: args.now ?? new Date(), undoneBy: args.userId })
      .where(and(eq(routeBalances.companyId, args.companyId), eq(routeBalances.id, args.balanceId)))
    await publishCompanyEvent({ companyId: args.companyId, type: 'job.updated' }, tx)
    return success({ restored: moves.length })
  })
}

/** The day's latest applied balance (or cover of this technician) not undone: the page offers its "Undo". */
export async function lastApplied({
  companyId,
  date,
  kind,
  coveredTechnicianId,
}: {
  companyId: string
  date: LocalDate
  kind: BalanceKind
  coveredTechnicianId: string | null
}) {
  const [row] = await db()
    .select({ id: routeBalances.id, createdAt: routeBalances.createdAt })
    .from(routeBalances)
    .where(
      and(
        eq(routeBalances.companyId, companyId),
        eq(routeBalances.day, date),
        eq(routeBalances.kind, kind),
        coveredTechnicianId
          ? eq(routeBalances.coveredTechnicianId, coveredTechnicianId)
          : isNull(routeBalances.coveredTechnicianId),
        isNull(routeBalances.undoneAt),
      ),
    )
    .orderBy(desc(routeBalances.createdAt))
    .limit(1)
  return row ?? null
}
