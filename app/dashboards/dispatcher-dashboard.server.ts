import { randomUUID } from 'node:crypto'
import { data } from 'react-router'
import { z } from 'zod'
import { saveAssignmentForm } from '~/features/jobs/assign-job.server'
import { pickCustomers } from '~/models/customer.server'
import { oncePerKey, readIdempotencyKey } from '~/models/idempotency.server'
import {
  assignmentVersion,
  createJob,
  getDispatchCounts,
  jobStatus,
  listRecentlyCreatedJobs,
  listTodaysRoute,
  listUnassignedJobs,
} from '~/models/job.server'
import { listTechnicians } from '~/models/profile.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { formatDateTime, formatTime, fromZonedInputValue, toZonedInputValue } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import { failure, failureStatus } from '~/utils/result'

/**
 * Unassigned jobs per page of the board. Each row carries its own technician picker, so a long page would repeat
 * the whole team once per row (50 rows × 50 technicians was 2,500 options): pages keep the board light.
 */
export const UNASSIGNED_PAGE_SIZE = 10

/** `?unassigned=N` as a page number (1 when absent or nonsense). */
export function parseUnassignedPage(value: string | null) {
  const page = Number(value)
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1
}

/** Everything the dispatcher dashboard shows, loaded in parallel (no per-row queries). */
export async function loadDispatcherDashboard({
  companyId,
  timezone,
  unassignedPage = 1,
  now = new Date(),
}: {
  companyId: string
  timezone: string
  unassignedPage?: number
  now?: Date
}) {
  const [counts, unassigned, route, recent, technicians] = await Promise.all([
    getDispatchCounts({ companyId, timezone, now }),
    listUnassignedJobs({
      companyId,
      limit: UNASSIGNED_PAGE_SIZE,
      offset: (unassignedPage - 1) * UNASSIGNED_PAGE_SIZE,
    }),
    listTodaysRoute({ companyId, timezone, now }),
    listRecentlyCreatedJobs({ companyId }),
    listTechnicians(companyId),
  ])
  return {
    counts,
    // The create form's idempotency key: a new one for every page load.
    createJobKey: randomUUID(),
    defaultSchedule: toZonedInputValue(new Date(now.getTime() + 60 * 60_000), timezone)
      .slice(0, 14)
      .concat('00'),
    technicians: technicians.map((t) => ({ id: t.id, name: t.fullName ?? t.email })),
    unassignedPage: {
      page: unassignedPage,
      pageCount: Math.max(1, Math.ceil(counts.unassigned / UNASSIGNED_PAGE_SIZE)),
      first: (unassignedPage - 1) * UNASSIGNED_PAGE_SIZE + 1,
      last: (unassignedPage - 1) * UNASSIGNED_PAGE_SIZE + unassigned.length,
      total: counts.unassigned,
    },
    unassigned: unassigned.map((job) => ({
      id: job.id,
      customerName: job.customerName,
      address: job.address,
      scheduled: formatDateTime(job.scheduledAt, timezone),
      scheduledInput: toZonedInputValue(job.scheduledAt, timezone),
      version: assignmentVersion(job),
      status: jobStatus(job, now),
    })),
    route: route.map((job) => ({
      id: job.id,
      customerName: job.customerName,
      address: job.address,
      time: formatTime(job.scheduledAt, timezone),
      status: jobStatus(job, now),
      technicianName: job.technicianName,
      technicianPhone: job.technicianPhone,
    })),
    recent: recent.map((job) => ({
      id: job.id,
      customerName: job.customerName,
      created: formatDateTime(job.createdAt, timezone),
      scheduled: formatDateTime(job.scheduledAt, timezone),
      status: jobStatus(job, now),
      technicianName: job.technicianName,
    })),
  }
}

export type DispatcherDashboardData = Awaited<ReturnType<typeof loadDispatcherDashboard>>

const REQUIRED = 'Customer, address, and schedule are required.'

/** SPEC §5 Create job: a customer must be chosen; name, address and schedule are required after trimming. */
export const CreateJobSchema = z.object({
  intent: z.literal('create-job'),
  customerId: z.string({ error: 'Select a customer for this job.' }).trim().min(1, 'Select a customer for this job.'),
  // One of the customer's locations (the picker offers them); without one, the customer's first.
  locationId: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || null),
  customerName: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(200, 'Use at most 200 characters.'),
  address: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(300, 'Use at most 300 characters.'),
  scheduledAt: z.string({ error: REQUIRED }).trim().min(1, REQUIRED),
  technicianId: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || null),
})

export type ActionReply = { intent: string; jobId?: string; ok: string | null; error: string | null }

/**
 * The customer a typed name stands for when no match was chosen from the list (a browser without JavaScript posts
 * only the text): the one active customer the text finds, or the one whose name it is exactly. Else none, and the
 * form asks to select a customer.
 */
async function customerFromText(companyId: string, text: string) {
  const query = text.trim()
  if (!query) return null
  const found = await pickCustomers({ companyId, query, limit: 5 })
  if (found.length === 1) return found[0]?.id ?? null
  const exact = found.filter((customer) => customer.customerName.toLowerCase() === query.toLowerCase())
  return exact.length === 1 ? (exact[0]?.id ?? null) : null
}

/** Creates a job from the dashboard form; answers with the spec's messages. */
export async function createJobFromForm(companyId: string | null, formData: FormData, timezone: string) {
  const fields = Object.fromEntries(formData)
  if (companyId && !String(fields.customerId ?? '').trim() && typeof fields.customerQuery === 'string') {
    fields.customerId = (await customerFromText(companyId, fields.customerQuery)) ?? ''
  }
  const parsed = CreateJobSchema.safeParse(fields)
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? 'Unable to create job.'
    return data<ActionReply>({ intent: 'create-job', ok: null, error }, 400)
  }
  if (!companyId) return data<ActionReply>({ intent: 'create-job', ok: null, error: 'No company context' }, 400)
  const scheduledAt = fromZonedInputValue(parsed.data.scheduledAt, timezone)
  if (!scheduledAt) return data<ActionReply>({ intent: 'create-job', ok: null, error: REQUIRED }, 400)
  const idempotency = readIdempotencyKey(formData)
  if (!idempotency.ok) return data<ActionReply>({ intent: 'create-job', ok: null, error: idempotency.message }, 400)
  // A retry of the same form (same key) gets the job the first one created.
  const created = await oncePerKey({ companyId, key: idempotency.key, action: 'job.create' }, async (tx) => {
    const job = await createJob({ ...parsed.data, companyId, scheduledAt }, tx)
    return job ? { ok: true as const, jobId: job.id } : failure('invalid', 'Unable to create job.')
  }).catch((error: unknown) => {
    // A database outage is not the form's fault: it goes on to the 503 (database-unavailable.server.ts).
    throwIfDatabaseUnavailable(error)
    return null
  })
  if (!created?.ok) {
    const error = created?.message ?? 'Unable to create job.'
    return data<ActionReply>({ intent: 'create-job', ok: null, error }, created ? failureStatus(created) : 400)
  }
  return data<ActionReply>({ intent: 'create-job', jobId: created.jobId, ok: 'Job created.', error: null })
}

/** The dispatch board's data for a request (shared by /app for dispatchers and /app/dispatch). */
export async function loadDispatchBoard(request: Request, companyId: string, timezone: string, now = new Date()) {
  return loadDispatcherDashboard({
    companyId,
    timezone,
    unassignedPage: parseUnassignedPage(new URL(request.url).searchParams.get('unassigned')),
    now,
  })
}

/** The dispatch board's forms: create a job, assign or reschedule one (each unassigned row answers for its job). */
export async function dispatchBoardAction(request: Request, companyId: string | null, timezone: string) {
  const formData = await readForm(request)
  const intent = formData.get('intent')
  if (intent === 'create-job') return createJobFromForm(companyId, formData, timezone)
  if (intent === 'assign' && companyId) {
    return saveAssignmentForm({
      companyId,
      jobId: String(formData.get('jobId') ?? ''),
      timezone,
      formData,
      saved: (technicianId) => (technicianId ? 'Assigned.' : 'Rescheduled.'),
    })
  }
  return data({ intent: String(intent), ok: null, error: 'No company context' }, 400)
}
