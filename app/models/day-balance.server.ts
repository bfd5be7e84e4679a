// "Balance the day" and "Cover this day" (docs/routing.md "Balancing", decision 045): "Apply" (once per preview: its
// balance id is the record's key) and "Undo" (the exact assignment and order before), and the day's open visits that
// they and the preview (app/models/day-balance-preview.server.ts) read. Only that day's visits move ("This visit only":
// the plans keep their weekday and technician); completed, skipped and started visits never move.
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import { z } from 'zod/v4'
import {
  chemLogs,
  routeBalanceMoves,
  routeBalances,
  serviceLocations,
  visitChecks,
  visitPhotos,
  visits,
} from '~/db/schema'
import { addDays, instantAt, type LocalDate } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { type RouteStop, stopColumns, toRouteStop } from './day-stops.server'
import { visitLocation } from './service-location.server'
import { visitState } from './visit-state'

export const DAY_CHANGED =
  'The day changed since this preview (a visit was moved, added or finished). Review the new preview and apply again.'
export const ALREADY_APPLIED = 'Already applied.'

export type DayVisit = RouteStop & {
  technicianId: string
  routePosition: number | null
  movedAt: Date | null
  started: boolean
}

/** Who has what, in route order: [technician id, its open visits' ids][]; what Apply checks and Undo restores. */
export const AssignmentSchema = z.array(z.tuple([z.string().min(1), z.array(z.uuid())])).max(100)
export type Assignment = z.infer<typeof AssignmentSchema>

/** A visit has been started: readings, checks or photos recorded. It stays with its technician. */
const started = sql<boolean>`(exists (select 1 from ${chemLogs} where ${chemLogs.companyId} = ${visits.companyId} and ${chemLogs.visitId} = ${visits.id})
  or exists (select 1 from ${visitChecks} where ${visitChecks.companyId} = ${visits.companyId} and ${visitChecks.visitId} = ${visits.id})
  or exists (select 1 from ${visitPhotos} where ${visitPhotos.companyId} = ${visits.companyId} and ${visitPhotos.visitId} = ${visits.id}))`

/** Every technician's visits on the day (one query), open ones in route order; locked when `lock`. */
export async function dayVisits(
  executor: Pick<Database, 'select'>,
  { companyId, timezone, date }: { companyId: string; timezone: string; date: LocalDate },
  lock = false,
): Promise<DayVisit[]> {
  const query = executor
    .select({
      ...stopColumns,
      technicianId: visits.technicianId,
      routePosition: visits.routePosition,
      movedAt: visits.movedAt,
      started,
    })
    .from(visits)
    .innerJoin(serviceLocations, visitLocation)
    .where(
      and(
        eq(visits.companyId, companyId),
        isNotNull(visits.technicianId),
        gte(visits.scheduledAt, instantAt(date, '00:00', timezone)),
        lt(visits.scheduledAt, instantAt(addDays(date, 1), '00:00', timezone)),
        isNull(visits.canceledAt),
        isNull(visits.completedAt),
      ),
    )
    .orderBy(
      asc(visits.technicianId),
      sql`${visits.routePosition} asc nulls last`,
      asc(visits.scheduledAt),
      asc(visits.id),
    )
  const rows = lock ? await query.for('update', { of: visits }) : await query
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

export const sameAssignment = (a: Assignment, b: Assignment) => JSON.stringify(a) === JSON.stringify(b)

export type BalanceKind = 'balance' | 'cover'

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
      ids.map((visitId, at) => {
        const visit = byId.get(visitId) as DayVisit
        return {
          companyId: args.companyId,
          balanceId: args.balanceId,
          visitId,
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
        visitId: row.visitId,
        technicianId: row.toTechnicianId,
        position: row.toPosition,
        movedAt: row.fromTechnicianId === row.toTechnicianId ? row.fromMovedAt : now,
      })),
    )
    await publishCompanyEvent({ companyId: args.companyId, type: 'visit.updated' }, tx)
    return success({ moved: rows.filter((row) => row.fromTechnicianId !== row.toTechnicianId).length })
  })
}

/** One statement: each visit's technician, route position and "moved by hand" mark. */
async function setAssignments(
  tx: Database,
  companyId: string,
  rows: ReadonlyArray<{ visitId: string; technicianId: string | null; position: number | null; movedAt: Date | null }>,
) {
  if (rows.length === 0) return
  await tx.execute(sql`
    update ${visits} set technician_id = given.technician_id, route_position = given.position, moved_at = given.moved_at
    from (select
      unnest(${sql.param(rows.map((row) => row.visitId))}::uuid[]) as id,
      unnest(${sql.param(rows.map((row) => row.technicianId))}::text[]) as technician_id,
      unnest(${sql.param(rows.map((row) => row.position))}::integer[]) as position,
      unnest(${sql.param(rows.map((row) => row.movedAt?.toISOString() ?? null))}::timestamptz[]) as moved_at) given
    where ${visits.companyId} = ${companyId} and ${visits.id} = given.id`)
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
    const ids = moves.map((move) => move.visitId)
    const current =
      ids.length === 0
        ? []
        : await tx
            .select({
              id: visits.id,
              technicianId: visits.technicianId,
              position: visits.routePosition,
              completedAt: visits.completedAt,
              canceledAt: visits.canceledAt,
            })
            .from(visits)
            .where(and(eq(visits.companyId, args.companyId), inArray(visits.id, ids)))
            .for('update')
    const now = new Map(current.map((row) => [row.id, row]))
    const unchanged = moves.every((move) => {
      const row = now.get(move.visitId)
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
        visitId: move.visitId,
        technicianId: move.fromTechnicianId,
        position: move.fromPosition,
        movedAt: move.fromMovedAt,
      })),
    )
    await tx
      .update(routeBalances)
      .set({ undoneAt: args.now ?? new Date(), undoneBy: args.userId })
      .where(and(eq(routeBalances.companyId, args.companyId), eq(routeBalances.id, args.balanceId)))
    await publishCompanyEvent({ companyId: args.companyId, type: 'visit.updated' }, tx)
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
