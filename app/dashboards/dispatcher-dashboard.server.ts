import { data } from 'react-router'
import { z } from 'zod'
import { searchCustomers } from '~/models/customer.server'
import {
  assignJob,
  createJob,
  getDispatchCounts,
  jobStatus,
  listRecentlyCreatedJobs,
  listTodaysRoute,
  listUnassignedJobs,
} from '~/models/job.server'
import { listTechnicians } from '~/models/profile.server'
import { formatDateTime, formatTime, fromZonedInputValue, toZonedInputValue } from '~/utils/dates'

/** Everything the dispatcher dashboard shows, loaded in parallel (no per-row queries). */
export async function loadDispatcherDashboard({
  companyId,
  timezone,
  customerQuery,
  now = new Date(),
}: {
  companyId: string
  timezone: string
  customerQuery: string
  now?: Date
}) {
  const [counts, unassigned, route, recent, technicians, customerOptions] = await Promise.all([
    getDispatchCounts({ companyId, timezone, now }),
    listUnassignedJobs({ companyId }),
    listTodaysRoute({ companyId, timezone, now }),
    listRecentlyCreatedJobs({ companyId }),
    listTechnicians(companyId),
    searchCustomers({ companyId, query: customerQuery }),
  ])
  return {
    counts,
    customerQuery,
    defaultSchedule: toZonedInputValue(new Date(now.getTime() + 60 * 60_000), timezone)
      .slice(0, 14)
      .concat('00'),
    customers: customerOptions,
    technicians: technicians.map((t) => ({ id: t.id, name: t.fullName ?? t.email })),
    unassigned: unassigned.map((job) => ({
      id: job.id,
      customerName: job.customerName,
      address: job.address,
      scheduled: formatDateTime(job.scheduledAt, timezone),
      scheduledInput: toZonedInputValue(job.scheduledAt, timezone),
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

/** Creates a job from the dashboard form; answers with the spec's messages. */
export async function createJobFromForm(companyId: string | null, formData: FormData, timezone: string) {
  const parsed = CreateJobSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? 'Unable to create job.'
    return data<ActionReply>({ intent: 'create-job', ok: null, error }, 400)
  }
  if (!companyId) return data<ActionReply>({ intent: 'create-job', ok: null, error: 'No company context' }, 400)
  const scheduledAt = fromZonedInputValue(parsed.data.scheduledAt, timezone)
  if (!scheduledAt) return data<ActionReply>({ intent: 'create-job', ok: null, error: REQUIRED }, 400)
  const job = await createJob({ ...parsed.data, companyId, scheduledAt }).catch(() => null)
  if (!job) return data<ActionReply>({ intent: 'create-job', ok: null, error: 'Unable to create job.' }, 400)
  return data<ActionReply>({ intent: 'create-job', jobId: job.id, ok: 'Job created.', error: null })
}

/** Assigns and reschedules one job from its row; each row shows its own result. */
export async function assignJobFromForm(companyId: string, formData: FormData, timezone: string) {
  const jobId = String(formData.get('jobId') ?? '')
  const technicianId = String(formData.get('technicianId') ?? '') || null
  const scheduledAt = fromZonedInputValue(String(formData.get('scheduledAt') ?? ''), timezone)
  if (!scheduledAt)
    return data<ActionReply>({ intent: 'assign', jobId, ok: null, error: 'Choose a date and time.' }, 400)
  const changed = await assignJob({ companyId, jobId, technicianId, scheduledAt })
  if (!changed) {
    return data<ActionReply>({ intent: 'assign', jobId, ok: null, error: 'Unable to save changes to this job.' }, 400)
  }
  return data<ActionReply>({ intent: 'assign', jobId, ok: technicianId ? 'Assigned.' : 'Rescheduled.', error: null })
}
