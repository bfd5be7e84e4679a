// The preview of "Balance the day" and "Cover this day" (docs/routing.md "Balancing", decision 045): a day's open
// visits moved between its technicians (app/routing/balance.ts), their miles before and after, and the assignments
// "Apply" (app/models/day-balance.server.ts) checks and makes. Writes nothing. A fixed number of queries per preview,
// whatever the number of technicians.
import { randomUUID } from 'node:crypto'
import { type BalanceOptions, balancePlan, coverRoute, type Plan, planTimes } from '~/routing/balance'
import type { LocalDate } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { failure, type Result, success } from '~/utils/result'
import { type Assignment, type BalanceKind, type DayVisit, dayVisits, sameAssignment } from './day-balance.server'
import { fleetOf, technicianDays } from './fleet.server'

export type BalancePreview = {
  balanceId: string
  date: LocalDate
  kind: BalanceKind
  coveredTechnicianId: string | null
  technicians: Array<{
    id: string
    name: string
    beforeMeters: number
    afterMeters: number
    stopsBefore: number
    stopsAfter: number
  }>
  beforeMeters: number
  afterMeters: number
  /** Visits that change technician, in the new routes' order. */
  moves: Array<{ visitId: string; customerName: string; from: string; to: string }>
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
  const moves = afterAssignment.flatMap(([technicianId, visitIds]) =>
    visitIds.flatMap((visitId) => {
      const visit = mine.find((candidate) => candidate.id === visitId) as DayVisit
      return visit.technicianId === technicianId
        ? []
        : [{ visitId, customerName: visit.customerName, from: name(visit.technicianId), to: name(technicianId) }]
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
        beforeMeters: before[at]?.length ?? 0,
        afterMeters: after[at]?.length ?? 0,
        stopsBefore: beforeAssignment[at]?.[1].length ?? 0,
        stopsAfter: afterAssignment[at]?.[1].length ?? 0,
      })),
      beforeMeters: sum(before),
      afterMeters: sum(after),
      moves,
      unplaced: result.unplaced.map((point) => (visitAt.get(point) as DayVisit).customerName),
      before: beforeAssignment,
      after: afterAssignment,
      changes: !sameAssignment(beforeAssignment, afterAssignment),
    },
  })
}
