// The office's forms on the visit page — "Assign and reschedule", "Cancel job", "Reopen visit" (docs/product.md
// "Schedule", "The visit") — as the job route's action calls them once requireWorkableJob has let the member in; each
// asks for the office's capability. The visit's own work (a tick, a reading, a skip, "Mark Complete"…) is
// app/features/visits/visit-plain-changes.server.ts, for the office as for the technician.
import { data } from 'react-router'
import { type CompanyMember, refusalStatus, requireMemberCapability } from '~/auth/guards.server'
import { saveAssignmentForm } from '~/features/jobs/assign-job.server'
import { reopenVisit } from '~/models/job-changes.server'
import { cancelJob } from '~/models/visit.server'
import { redirectWithFlash } from '~/utils/flash.server'

/** "Assign and reschedule" from the office's fold: office roles only. */
export async function assignVisitAction(member: CompanyMember, jobId: string, formData: FormData) {
  requireMemberCapability(member, 'jobs:manage')
  return saveAssignmentForm({
    companyId: member.companyId,
    jobId,
    timezone: member.timezone,
    formData,
    saved: () => 'Job updated.',
  })
}

/** "Cancel job": office roles only; the page asked for confirmation before posting. */
export async function cancelJobAction(member: CompanyMember, jobId: string) {
  requireMemberCapability(member, 'jobs:manage')
  const result = await cancelJob({ companyId: member.companyId, jobId })
  if (!result.ok) return data({ intent: 'cancel-job', error: result.message, ok: null }, refusalStatus(result))
  return redirectWithFlash(`/app/jobs/${jobId}`, 'Job canceled.')
}

/** "Reopen visit": the office makes a completed or skipped visit open work again. */
export async function reopenVisitAction(member: CompanyMember, jobId: string) {
  requireMemberCapability(member, 'jobs:manage')
  const result = await reopenVisit({ companyId: member.companyId, jobId })
  if (!result.ok) return data({ intent: 'reopen', error: result.message, ok: null }, refusalStatus(result))
  return redirectWithFlash(`/app/jobs/${jobId}`, 'Visit reopened.')
}
