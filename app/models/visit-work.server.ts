// The changes to a visit's work (docs/product.md "The visit"): a tick, a reading, a chemical, a note, "Mark Complete",
// "Skip visit", "On my way". The phone's queue and the visit page's plain forms (the office's too) reach the one
// function here, applyFieldChange, which applies each change once per idempotency key after checking who asks: a
// technician changes only their own open visits, the office any open visit of the company. A change the server cannot
// apply is refused with a reason the phone or the form shows, never dropped.
import { and, eq, sql } from 'drizzle-orm'
import { checklistItems, companies, visitChecks, visits } from '~/db/schema'
import type { FieldChange, FieldChangeAnswer, VisitChange } from '~/field/changes'
import { ChemReadingSchema } from '~/models/chem-reading'
import { arrivalEstimate, type Leg } from '~/notices/eta'
import { type LocalDate, localDateAt } from '~/schedule/local-date'
import { ChemicalAdditionSchema } from '~/utils/chemicals'
import { formatTime } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { can } from '~/utils/permissions'
import { type Failure, failure, type Result, success } from '~/utils/result'
import { addChemLog } from './chem-log.server'
import { addChemicalToVisit } from './chemical-addition.server'
import { legToStop } from './day-route.server'
import { oncePerKey } from './idempotency.server'
import { queueVisitNotice } from './notice.server'
import type { Actor } from './profile.server'
import { SkipVisitSchema } from './service-plan-schemas'
import { markSkipped } from './visit.server'
import { completeVisit } from './visit-changes.server'

export const FIELD_MESSAGES = {
  notFound: 'This visit is no longer on your route.',
  reassigned: 'The office gave this visit to another technician.',
  canceled: 'The office canceled this visit.',
  completed: 'This visit was already completed.',
  itemGone: 'This checklist item was removed by the office.',
} as const

/** A reading made offline keeps the phone's time, but never one in the future nor older than two weeks. */
const OLDEST_CHANGE_MS = 14 * 24 * 60 * 60 * 1000

function madeAtOf(madeAt: string, now: Date) {
  const at = new Date(madeAt)
  if (Number.isNaN(at.getTime()) || at > now) return now
  return at.getTime() < now.getTime() - OLDEST_CHANGE_MS ? new Date(now.getTime() - OLDEST_CHANGE_MS) : at
}

/**
 * Whether the member asks as a technician, who changes only the visits given to them, rather than as the office, who
 * changes any visit of the company (skips a technician's visit, completes it for them).
 */
function asTechnician(member: Actor) {
  return !can(member.role, 'visits:manage')
}

/**
 * Locks the visit for a change (a tick, a reading, a photo…) and says why it may not be changed: gone (or another
 * company's), given to another technician, canceled or skipped, or completed. A completion sent again by the one who
 * completed it is no conflict.
 */
export async function lockWorkableVisit(
  tx: Database,
  member: Actor,
  visitId: string,
  change: { type: VisitChange['type'] | 'photo' },
) {
  const [visit] = await tx
    .select({
      technicianId: visits.technicianId,
      completedAt: visits.completedAt,
      completedBy: visits.completedBy,
      canceledAt: visits.canceledAt,
      skipReason: visits.skipReason,
    })
    .from(visits)
    .where(and(eq(visits.companyId, member.companyId), eq(visits.id, visitId)))
    .for('update')
  if (!visit) return failure('not-found', FIELD_MESSAGES.notFound)
  if (asTechnician(member) && visit.technicianId !== member.id) {
    return failure('conflict', FIELD_MESSAGES.reassigned)
  }
  if (visit.canceledAt) {
    return failure(
      'conflict',
      visit.skipReason ? `This visit was skipped: ${visit.skipReason}.` : FIELD_MESSAGES.canceled,
    )
  }
  if (visit.completedAt) {
    if (change.type === 'complete' && visit.completedBy === member.id) return success({ alreadyDone: true })
    return failure('conflict', FIELD_MESSAGES.completed)
  }
  return success({ alreadyDone: false })
}

function firstIssue(error: { issues: { message: string }[] }) {
  return error.issues[0]?.message ?? 'This change could not be read.'
}

async function applyChange(
  tx: Database,
  member: Actor,
  visitId: string,
  change: VisitChange,
  madeAt: Date,
  now: Date,
  measured: MeasuredLeg | null,
): Promise<Result | Failure> {
  const { companyId } = member
  switch (change.type) {
    case 'check': {
      if (!change.checked) {
        await tx
          .delete(visitChecks)
          .where(
            and(
              eq(visitChecks.companyId, companyId),
              eq(visitChecks.visitId, visitId),
              eq(visitChecks.itemId, change.itemId),
            ),
          )
        return success({})
      }
      const [item] = await tx
        .select({ label: checklistItems.label })
        .from(checklistItems)
        .where(and(eq(checklistItems.companyId, companyId), eq(checklistItems.id, change.itemId)))
      if (!item) return failure('invalid', FIELD_MESSAGES.itemGone)
      await tx
        .insert(visitChecks)
        .values({
          companyId,
          visitId: visitId,
          itemId: change.itemId,
          label: item.label,
          checkedBy: member.id,
          checkedAt: madeAt,
        })
        .onConflictDoNothing()
      return success({})
    }
    case 'reading': {
      const parsed = ChemReadingSchema.safeParse(change.fields)
      if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
      await addChemLog({ companyId, visitId: visitId, reading: parsed.data, takenAt: madeAt }, tx)
      return success({})
    }
    case 'chemical': {
      const parsed = ChemicalAdditionSchema.safeParse(change.fields)
      if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
      const added = await addChemicalToVisit({ companyId, visitId: visitId, input: parsed.data, userId: member.id }, tx)
      // Its field kept (not enough on the truck is the quantity's): the plain form shows it there.
      return added.ok ? success({}) : added
    }
    case 'note': {
      const text = change.text.trim() || null
      await tx
        .update(visits)
        .set(change.audience === 'office' ? { officeNote: text } : { customerNote: text })
        .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
      return success({})
    }
    case 'complete': {
      const completed = await completeVisit({ companyId, visitId: visitId, completedBy: member.id, now }, tx)
      if (!completed.ok) return completed
      // The phone's moment of "Mark Complete" (a completion queued offline keeps it): the timesheet's end of the stop.
      await tx
        .update(visits)
        .set({ completedOnPhoneAt: madeAt })
        .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
      return success({})
    }
    case 'skip': {
      const parsed = SkipVisitSchema.safeParse(change.fields)
      if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
      await markSkipped(tx, { companyId, visitId: visitId, reason: parsed.data.reason, now })
      return success({})
    }
    case 'on-my-way':
      // The first "On my way" as tapped: the start of the stop's drive on the timesheet (docs/time.md).
      await tx
        .update(visits)
        .set({ onMyWayAt: sql`coalesce(${visits.onMyWayAt}, ${madeAt.toISOString()}::timestamptz)` })
        .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
      return tellOnMyWay(tx, member, visitId, madeAt, now, measured)
  }
}

/** The road leg to a visit, measured before its transaction, and the day it was measured for. */
type MeasuredLeg = { technicianId: string; date: LocalDate; leg: Leg }

function onMyWayVisit(executor: Pick<Database, 'select'>, companyId: string, visitId: string) {
  return executor
    .select({
      technicianId: visits.technicianId,
      scheduledAt: visits.scheduledAt,
      timezone: companies.timezone,
      completedAt: visits.completedAt,
      canceledAt: visits.canceledAt,
    })
    .from(visits)
    .innerJoin(companies, eq(companies.id, visits.companyId))
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
    .then((rows) => rows[0])
}

/**
 * "On my way"'s road leg, measured before the visit's transaction and row lock: the drive is a request to the road
 * server (OSRM, up to its timeout), and a transaction held open that long would hold the visit's lock — and on the
 * embedded database, its one connection, so every other write of every company (docs/routing.md "No network call in
 * a transaction"). Null, measuring nothing, for a visit the transaction will refuse: not this company's, without a
 * technician, another technician's (for a technician), completed or canceled.
 */
async function measureOnMyWay(member: Actor, visitId: string): Promise<MeasuredLeg | null> {
  const visit = await onMyWayVisit(db(), member.companyId, visitId)
  if (!visit?.technicianId || visit.completedAt || visit.canceledAt) return null
  if (asTechnician(member) && visit.technicianId !== member.id) return null
  const date = localDateAt(visit.scheduledAt, visit.timezone)
  const leg = await legToStop({
    companyId: member.companyId,
    timezone: visit.timezone,
    technicianId: visit.technicianId,
    visitId,
    date,
  })
  return { technicianId: visit.technicianId, date, leg }
}

/**
 * "On my way": the customer is told when to expect the technician, estimated from the route as it was when the
 * technician tapped (`madeAt`: a tap queued offline keeps its moment). An estimate already past when it reaches the
 * server (the phone was offline too long) is not sent: a text saying "arriving about 9:40" at 10:15 helps nobody.
 * Once per visit (the notice's unique key), however often it is tapped.
 */
async function tellOnMyWay(
  tx: Database,
  member: Actor,
  visitId: string,
  madeAt: Date,
  now: Date,
  measured: MeasuredLeg | null,
) {
  const visit = await onMyWayVisit(tx, member.companyId, visitId)
  if (!visit?.technicianId) return failure('conflict', 'This visit has no technician to be on the way.')
  const args = {
    companyId: member.companyId,
    timezone: visit.timezone,
    technicianId: visit.technicianId,
    visitId,
    date: localDateAt(visit.scheduledAt, visit.timezone),
  }
  // The leg measured before the lock stands while the visit is still that technician's on that day. The day's other
  // stops may have changed in between (a stop finished, the route reordered): the ETA is then from the read before,
  // at most a few seconds old. Moved or reassigned meanwhile, the day is read again here without the road (meters
  // null: the estimate's fallback), never measured inside the transaction.
  const leg =
    measured && measured.technicianId === args.technicianId && measured.date === args.date
      ? measured.leg
      : await legToStop(args, tx, { road: false })
  const eta = arrivalEstimate(madeAt, leg)
  if (eta < now) return success({ eta: null })
  await queueVisitNotice(tx, {
    companyId: member.companyId,
    visitId: visitId,
    event: 'on-my-way',
    values: { eta: formatTime(eta, visit.timezone) },
  })
  return success({ eta: eta.toISOString() })
}

/**
 * Applies one change from the phone's queue or a plain form of the visit page exactly once per key: the key's row is
 * written in the change's transaction, so a replay (the queue sending again after a lost answer, five times over, or
 * a form posted twice) writes nothing and gets the first answer. A refusal stores nothing and is final for the phone.
 * `member` is who asks: their role decides whether the visit must be their own (asTechnician).
 */
export async function applyFieldChange(
  member: Actor,
  { key, visitId, madeAt, change }: FieldChange,
  now = new Date(),
): Promise<FieldChangeAnswer> {
  // Bound to the technician, the visit and the change itself (not `madeAt`: the visit page's plain forms stamp a
  // retry anew); the same key for another visit or another change is refused, never answered "ok" for nothing.
  const binding = { userId: member.id, target: visitId, body: change }
  const measured = change.type === 'on-my-way' ? await measureOnMyWay(member, visitId) : null
  const outcome = await oncePerKey(
    { companyId: member.companyId, key, action: 'field.change', ...binding },
    async (tx) => {
      const locked = await lockWorkableVisit(tx, member, visitId, change)
      if (!locked.ok) return locked
      if (locked.alreadyDone) return success({})
      const applied = await applyChange(tx, member, visitId, change, madeAtOf(madeAt, now), now, measured)
      if (!applied.ok) return applied
      if (change.type !== 'complete')
        await publishCompanyEvent({ companyId: member.companyId, type: 'visit.updated', visitId: visitId }, tx)
      return success({})
    },
  )
  if (outcome.ok) return 'replayed' in outcome ? { ok: true, replayed: true } : { ok: true }
  const code = outcome.code
  return {
    ok: false,
    refused: true,
    code:
      code === 'not-found' || code === 'conflict' || code === 'forbidden' || code === 'key-reused' ? code : 'invalid',
    message: outcome.message,
    ...(outcome.field ? { field: outcome.field } : {}),
  }
}
