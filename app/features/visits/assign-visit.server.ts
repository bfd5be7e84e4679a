// The save of "Assign and reschedule" (AssignVisitSchema) for both forms that send it: the visit page's office panel
// and the dispatcher dashboard's unassigned rows. The caller has already let the member in as one who manages visits.
// The typed time is read in the company's timezone, and the visit is saved only if it still has the technician and
// time the form showed (decision 006), so the second of two simultaneous edits is told rather than silently lost.
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { firstError } from '~/features/forms/first-error'
import { assignmentVersion, assignVisit } from '~/models/visit-changes.server'
import { formatDateTime, fromZonedInputValue, toZonedInputValue } from '~/utils/dates'
import { failureStatus } from '~/utils/result'
import { ASSIGN_MESSAGES, ASSIGN_VISIT_INTENT, AssignVisitSchema } from './assign-visit-schema'

/** `error` is the first message, for callers that read one line; the form shows `result` at its fields. */
export type AssignVisitReply = {
  intent: typeof ASSIGN_VISIT_INTENT
  visitId: string
  result: SubmissionResult<string[]>
  ok: string | null
  error: string | null
}

/** The visit as the assign form shows it (its time in the company's timezone) and the version it saves against. */
export function assignFormVisit(
  visit: { id: string; customerName: string; address: string; technicianId: string | null; scheduledAt: Date },
  timezone: string,
) {
  return {
    id: visit.id,
    customerName: visit.customerName,
    address: visit.address,
    scheduled: formatDateTime(visit.scheduledAt, timezone),
    scheduledInput: toZonedInputValue(visit.scheduledAt, timezone),
    version: assignmentVersion(visit),
  }
}

/** The version the form saw, when it sent one (`assignmentVersion`): a version that matches nothing is a conflict. */
function expectedVersionOf(formData: FormData) {
  const version = formData.get('version')
  return typeof version === 'string' ? { expectedVersion: version } : {}
}

/** Saves the form for visit `visitId`; `saved` words the success for the form that sent it. */
export async function saveAssignmentForm({
  companyId,
  visitId,
  timezone,
  formData,
  saved,
}: {
  companyId: string
  visitId: string
  timezone: string
  formData: FormData
  saved: (technicianId: string | null) => string
}) {
  const reply = (fields: Omit<AssignVisitReply, 'intent' | 'visitId'>, status = 200) =>
    data<AssignVisitReply>({ intent: ASSIGN_VISIT_INTENT, visitId, ...fields }, status)
  const submission = parseWithZod(formData, { schema: AssignVisitSchema })
  if (submission.status !== 'success') {
    const error = firstError(submission.error, ASSIGN_MESSAGES.schedule)
    return reply({ result: submission.reply(), ok: null, error }, 400)
  }
  const refuse = (error: string, status: number) =>
    reply({ result: submission.reply({ formErrors: [error] }), ok: null, error }, status)
  const scheduledAt = fromZonedInputValue(submission.value.scheduledAt, timezone)
  if (!scheduledAt) return refuse(ASSIGN_MESSAGES.schedule, 400)
  const technicianId = submission.value.technicianId ?? null
  const outcome = await assignVisit({ companyId, visitId, technicianId, scheduledAt, ...expectedVersionOf(formData) })
  if (!outcome.ok) return refuse(outcome.message, failureStatus(outcome))
  return reply({ result: submission.reply(), ok: saved(technicianId), error: null })
}
