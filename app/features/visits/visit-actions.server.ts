// The office's forms on the visit page — "Assign and reschedule", "Cancel visit", "Reopen visit" (docs/product.md
// "Schedule", "The visit") — as the visit route's action calls them once requireWorkableVisit has let the member in; each
// asks for the office's capability. The visit's own work (a tick, a reading, a skip, "Mark Complete"…) is
// app/features/visits/visit-plain-changes.server.ts, for the office as for the technician.
import { data } from 'react-router'
import { type CompanyMember, refusalStatus, requireMemberCapability } from '~/auth/guards.server'
import { saveAssignmentForm } from '~/features/visits/assign-visit.server'
import { cancelVisit } from '~/models/visit.server'
import { reopenVisit } from '~/models/visit-changes.server'
import { redirectWithFlash } from '~/utils/flash.server'

/** "Assign and reschedule" from the office's fold: office roles only. */
export async function assignVisitAction(member: CompanyMember, visitId: string, formData: FormData) {
  requireMemberCapability(member, 'visits:manage')
  return saveAssignmentForm({
    companyId: member.companyId,
    visitId,
    timezone: member.timezone,
    formData,
    saved: () => 'Visit updated.',
  })
}

/** "Cancel visit": office roles only; the page asked for confirmation before posting. */
export async function cancelVisitAction(member: CompanyMember, visitId: string) {
  requireMemberCapability(member, 'visits:manage')
  const result = await cancelVisit({ companyId: member.companyId, visitId })
  if (!result.ok) return data({ intent: 'cancel-visit', error: result.message, ok: null }, refusalStatus(result))
  return redirectWithFlash(`/app/visits/${visitId}`, 'Visit canceled.')
}

/** "Reopen visit": the office makes a completed or skipped visit open work again. */
export async function reopenVisitAction(member: CompanyMember, visitId: string) {
  requireMemberCapability(member, 'visits:manage')
  const result = await reopenVisit({ companyId: member.companyId, visitId })
  if (!result.ok) return data({ intent: 'reopen', error: result.message, ok: null }, refusalStatus(result))
  return redirectWithFlash(`/app/visits/${visitId}`, 'Visit reopened.')
}
