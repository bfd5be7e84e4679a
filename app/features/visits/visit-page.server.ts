// The visit page's server side (docs/product.md "The visit"): what the page shows, read in one fixed set of queries,
// and the intents that work without JavaScript. A technician's change made here goes through applyFieldChange, the same
// function the phone's queue reaches, so a tick or a note has one way to be applied whichever way it came.
import { createHash } from 'node:crypto'
import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { and, eq } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { data } from 'react-router'
import {
  type CompanyMember,
  refusalStatus,
  requireMemberCapability,
  type requireViewableJob,
} from '~/auth/guards.server'
import { jobs, profiles } from '~/db/schema'
import { assignFormJob } from '~/features/jobs/assign-job.server'
import type { VisitChange } from '~/field/changes'
import { VisitNotesSchema } from '~/field/changes'
import { listChecklist, listVisitChecks } from '~/models/checklist.server'
import { listChemLogsForJob } from '~/models/chem-log.server'
import { listChemicalsForJob } from '~/models/chemical-addition.server'
import { readIdempotencyKey } from '~/models/idempotency.server'
import { reopenVisit } from '~/models/job-changes.server'
import { listVisitPhotos, shownPhoto } from '~/models/photo.server'
import { listTechnicians } from '~/models/profile.server'
import { listStockForVisit } from '~/models/stock-lists.server'
import { wallTimeOf } from '~/models/visit.server'
import { visitState } from '~/models/visit-state'
import { applyFieldChange } from '~/models/visit-work.server'
import { localDateAt } from '~/schedule/local-date'
import { formatDateTime, formatTime } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { can, type Role } from '~/utils/permissions'
import { type Failure, failureStatus } from '~/utils/result'
import { adviceForLatest, describePool, summariseReading } from '~/water/summary'
import { type PoolProfile, poolProfileOf } from '~/water/targets'
import type { HomeName } from './back-link'
import { VisitChecklistSchema } from './visit-page-schema'

export const VISIT_MESSAGES = {
  checklistSaved: 'Checklist saved.',
  notesSaved: 'Notes saved.',
  reopened: 'Visit reopened.',
} as const

type Viewable = Awaited<ReturnType<typeof requireViewableJob>>

const completer = alias(profiles, 'completer')

/** The visit's notes and who completed it: the columns the shared job read does not carry. */
async function readVisitWork(companyId: string, jobId: string) {
  const [row] = await db()
    .select({ officeNote: jobs.officeNote, customerNote: jobs.customerNote, completedByName: completer.fullName })
    .from(jobs)
    .leftJoin(completer, eq(completer.id, jobs.completedBy))
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
  return row ?? { officeNote: null, customerNote: null, completedByName: null }
}

/** "10:42 AM" for a visit completed today, the date as well otherwise. */
function completedWhen(at: Date, timezone: string, now = new Date()) {
  return localDateAt(at, timezone) === localDateAt(now, timezone)
    ? formatTime(at, timezone)
    : formatDateTime(at, timezone)
}

/** Everything the visit page shows, in a fixed number of queries whatever the visit holds. */
export async function loadVisitPage({ viewer, job, company }: Viewable) {
  const canManage = !viewer.readOnly && can(viewer.role as Role, 'jobs:manage')
  const { companyId, id: jobId } = job
  const [logs, technicians, chemicals, stock, checklist, ticks, work, photos] = await Promise.all([
    listChemLogsForJob({ companyId, jobId }),
    canManage ? listTechnicians(companyId) : Promise.resolve([]),
    listChemicalsForJob({ companyId, jobId }),
    // The stock picker, for those who can record chemicals (never the platform admin's read-only view).
    // Each item's quantity where this visit would take it from (its technician's truck or the warehouse).
    viewer.readOnly ? Promise.resolve([]) : listStockForVisit({ companyId, technicianId: job.technicianId ?? null }),
    listChecklist(companyId),
    listVisitChecks({ companyId, jobId }),
    readVisitWork(companyId, jobId),
    listVisitPhotos({ companyId, jobId }),
  ])
  const timezone = company.timezone
  const pool: PoolProfile = poolProfileOf(job)
  const state = visitState(job)
  const open = state === 'open'
  return {
    canManage,
    // The visit's own work (ticks, readings, notes, completing): open visits, never the platform admin's look.
    canWork: !viewer.readOnly && open,
    // Skip: the office, or the visit's own technician (the only one who gets this far); cancel: the office.
    canSkip: !viewer.readOnly && open,
    canCancel: canManage && open,
    canReopen: canManage && (state === 'completed' || state === 'skipped'),
    readOnly: viewer.readOnly,
    // What the back link calls the viewer's dashboard when the page was not opened from elsewhere (back-link.ts).
    home: (viewer.role === 'tech' ? 'Today' : 'dashboard') as HomeName,
    companyName: viewer.readOnly ? company.name : null,
    // "Move visit" (docs/product.md "Schedule"): office roles, for a visit still to be done.
    move:
      canManage && open
        ? {
            visit: {
              id: job.id,
              customerName: job.customerName,
              date: localDateAt(job.scheduledAt, timezone),
              clock: wallTimeOf(job.scheduledAt, timezone),
              technicianId: job.technicianId,
              recurring: job.planId !== null,
            },
            today: localDateAt(new Date(), timezone),
          }
        : null,
    job: {
      ...assignFormJob(job, timezone),
      completed: job.completedAt ? completedWhen(job.completedAt, timezone) : null,
      completedBy: work.completedByName,
      status: visitState(job, { now: new Date(), timezone }),
      state,
      skipReason: job.skipReason,
      technicianId: job.technicianId,
      technicianName: job.technicianName,
      technicianPhone: job.technicianPhone,
      // Gate code and access notes: staff of the job's company only (null for a platform admin's look).
      access: job.access,
      customerPhone: job.customerPhone,
      pool: describePool(pool),
      officeNote: work.officeNote ?? '',
      customerNote: work.customerNote ?? '',
    },
    checklist,
    ticks: ticks.map((tick) => ({ itemId: tick.itemId, label: tick.label })),
    // URLs of the authorised photo route, never storage keys or public links.
    photos: photos.map((photo) => shownPhoto(job.id, photo)),
    logs: logs.map((log) => ({
      ...log,
      takenAt: formatDateTime(log.takenAt, timezone),
      summary: summariseReading(log, pool),
    })),
    // Doses for the newest reading (logs are newest first) and this pool's volume; the profile, so the phone works
    // out the advice for a reading it has not sent yet (offline too).
    advice: adviceForLatest(logs[0], pool),
    poolProfile: pool,
    technicians: technicians.map((t) => ({ id: t.id, name: t.fullName ?? t.email })),
    chemicals: chemicals.map(({ addedAt: _, ...chemical }) => chemical),
    stock: stock.map((item) => ({ id: item.id, name: item.name, qty: item.qty })),
    // Idempotency keys of the page's forms: new ones for every page load.
    formKeys: {
      reading: crypto.randomUUID(),
      chemical: crypto.randomUUID(),
      checklist: crypto.randomUUID(),
      notes: crypto.randomUUID(),
    },
  }
}

/**
 * The key of one change a plain form makes: derived from the form's own key and what the change is, so the same
 * form posted again (a double submit, a retry) makes each of its changes once, and a form without a key (a page
 * from before keys) gets fresh ones.
 */
export function changeKey(formKey: string | null, part: string) {
  if (!formKey) return crypto.randomUUID()
  const hex = createHash('sha256').update(`${formKey}:${part}`).digest('hex')
  // A UUID (version 8: made by us) so the idempotency table's uuid column takes it.
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

type Job = { id: string }

/** A parsed plain form (only its `reply` is needed here). */
type Parsed = Pick<Submission<unknown>, 'reply'>

/** A plain form's refusal as its Conform reply: at the field the failure names, else above the form. */
function refuse(intent: 'checklist' | 'notes', submission: Parsed, failed: Failure, status: number) {
  const result = submission.reply(
    failed.field ? { fieldErrors: { [failed.field]: [failed.message] } } : { formErrors: [failed.message] },
  )
  return data({ intent, result, ok: null }, status)
}

/** Applies a plain form's changes in order; the first refusal stops there and is answered with its reason. */
async function applyAll(
  member: CompanyMember,
  job: Job,
  formData: FormData,
  intent: 'checklist' | 'notes',
  submission: Parsed,
  changes: { part: string; change: VisitChange }[],
) {
  const formKey = readIdempotencyKey(formData)
  if (!formKey.ok) return refuse(intent, submission, formKey, failureStatus(formKey))
  const madeAt = new Date().toISOString()
  for (const { part, change } of changes) {
    const answer = await applyFieldChange(member, {
      key: changeKey(formKey.key, part),
      visitId: job.id,
      madeAt,
      change,
    })
    if (!answer.ok) return refuse(intent, submission, answer, refusalStatus(answer))
  }
  return null
}

/** "Save checklist" without JavaScript: the form carries the set of ticked items; what changed is applied. */
export async function saveChecklistAction(member: CompanyMember, job: Job, formData: FormData) {
  const submission = parseWithZod(formData, { schema: VisitChecklistSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'checklist' as const, result: submission.reply(), ok: null }, 400)
  }
  const wanted = new Set(submission.value.itemId)
  const [items, ticks] = await Promise.all([
    listChecklist(member.companyId),
    listVisitChecks({ companyId: member.companyId, jobId: job.id }),
  ])
  const ticked = new Set(ticks.map((tick) => tick.itemId))
  const changes = items
    .filter((item) => wanted.has(item.id) !== ticked.has(item.id))
    .map((item) => {
      const checked = wanted.has(item.id)
      return { part: `check:${item.id}:${checked}`, change: { type: 'check' as const, itemId: item.id, checked } }
    })
  const refused = await applyAll(member, job, formData, 'checklist', submission, changes)
  if (refused) return refused
  return redirectWithFlash(`/app/jobs/${job.id}`, VISIT_MESSAGES.checklistSaved)
}

/** "Save notes" without JavaScript: both notes as they now read. */
export async function saveNotesAction(member: CompanyMember, job: Job, formData: FormData) {
  const submission = parseWithZod(formData, { schema: VisitNotesSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'notes' as const, result: submission.reply(), ok: null }, 400)
  }
  const notes = [
    { audience: 'office' as const, text: submission.value.officeNote },
    { audience: 'customer' as const, text: submission.value.customerNote },
  ]
  const refused = await applyAll(
    member,
    job,
    formData,
    'notes',
    submission,
    notes.map((note) => ({
      // The text is part of the change's key: the same form sent again with an edited note is a new change.
      part: `note:${note.audience}:${note.text}`,
      change: { type: 'note' as const, audience: note.audience, text: note.text },
    })),
  )
  if (refused) return refused
  return redirectWithFlash(`/app/jobs/${job.id}`, VISIT_MESSAGES.notesSaved)
}

/** "Reopen visit": the office makes a completed or skipped visit open work again. */
export async function reopenVisitAction(member: CompanyMember, job: Job) {
  requireMemberCapability(member, 'jobs:manage')
  const result = await reopenVisit({ companyId: member.companyId, jobId: job.id })
  if (!result.ok) return data({ intent: 'reopen', error: result.message, ok: null }, refusalStatus(result))
  return redirectWithFlash(`/app/jobs/${job.id}`, VISIT_MESSAGES.reopened)
}
