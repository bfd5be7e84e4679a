// The save of "Assign and reschedule" (AssignJobSchema) for both forms that send it: the visit page's office panel
// and the dispatcher dashboard's unassigned rows. The caller has already let the member in as one who manages jobs.
// The typed time is read in the company's timezone, and the job is saved only if it still has the technician and
// time the form showed (decision 006), so the second of two simultaneous edits is told rather than silently lost.
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { firstError } from '~/features/forms/first-error'
import { assignJob, assignmentVersion } from '~/models/job-changes.server'
import { formatDateTime, fromZonedInputValue, toZonedInputValue } from '~/utils/dates'
import { failureStatus } from '~/utils/result'
import { ASSIGN_JOB_INTENT, ASSIGN_MESSAGES, AssignJobSchema } from './assign-job-schema'

/** `error` is the first message, for callers that read one line; the form shows `result` at its fields. */
export type AssignJobReply = {
  intent: typeof ASSIGN_JOB_INTENT
  jobId: string
  result: SubmissionResult<string[]>
  ok: string | null
  error: string | null
}

/** The job as the assign form shows it (its time in the company's timezone) and the version it saves against. */
export function assignFormJob(
  job: { id: string; customerName: string; address: string; technicianId: string | null; scheduledAt: Date },
  timezone: string,
) {
  return {
    id: job.id,
    customerName: job.customerName,
    address: job.address,
    scheduled: formatDateTime(job.scheduledAt, timezone),
    scheduledInput: toZonedInputValue(job.scheduledAt, timezone),
    version: assignmentVersion(job),
  }
}

/** The version the form saw, when it sent one (`assignmentVersion`): a version that matches nothing is a conflict. */
function expectedVersionOf(formData: FormData) {
  const version = formData.get('version')
  return typeof version === 'string' ? { expectedVersion: version } : {}
}

/** Saves the form for job `jobId`; `saved` words the success for the form that sent it. */
export async function saveAssignmentForm({
  companyId,
  jobId,
  timezone,
  formData,
  saved,
}: {
  companyId: string
  jobId: string
  timezone: string
  formData: FormData
  saved: (technicianId: string | null) => string
}) {
  const reply = (fields: Omit<AssignJobReply, 'intent' | 'jobId'>, status = 200) =>
    data<AssignJobReply>({ intent: ASSIGN_JOB_INTENT, jobId, ...fields }, status)
  const submission = parseWithZod(formData, { schema: AssignJobSchema })
  if (submission.status !== 'success') {
    const error = firstError(submission.error, ASSIGN_MESSAGES.schedule)
    return reply({ result: submission.reply(), ok: null, error }, 400)
  }
  const refuse = (error: string, status: number) =>
    reply({ result: submission.reply({ formErrors: [error] }), ok: null, error }, status)
  const scheduledAt = fromZonedInputValue(submission.value.scheduledAt, timezone)
  if (!scheduledAt) return refuse(ASSIGN_MESSAGES.schedule, 400)
  const technicianId = submission.value.technicianId ?? null
  const outcome = await assignJob({ companyId, jobId, technicianId, scheduledAt, ...expectedVersionOf(formData) })
  if (!outcome.ok) return refuse(outcome.message, failureStatus(outcome))
  return reply({ result: submission.reply(), ok: saved(technicianId), error: null })
}
