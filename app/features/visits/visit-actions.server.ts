// The visit page's "Skip visit" and "Cancel job" (OPERATIONS §4, §5), as the job route's action calls them once
// requireWorkableJob has let the member in: a technician gets here only for their own visit.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { type CompanyMember, forbidden, notFound } from '~/auth/guards.server'
import { type SkipVisitInput, SkipVisitSchema } from '~/models/service-plan-schemas'
import { cancelJob, skipVisit } from '~/models/visit.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { can } from '~/utils/permissions'
import { failureStatus } from '~/utils/result'

/** "Skip visit" with a reason: office roles, or the visit's own technician. */
export async function skipVisitAction(member: CompanyMember, jobId: string, formData: FormData) {
  const submission = parseWithZod(formData, { schema: SkipVisitSchema })
  if (submission.status !== 'success') return data({ intent: 'skip-visit', result: submission.reply(), ok: null }, 400)
  const result = await skipVisit({
    companyId: member.companyId,
    jobId,
    // The model parses the reason again, from the form as posted.
    input: submission.payload as SkipVisitInput,
    technicianId: can(member.role, 'jobs:manage') ? undefined : member.id,
  })
  if (!result.ok) {
    if (result.code === 'not-found') notFound()
    return data(
      { intent: 'skip-visit', result: submission.reply({ formErrors: [result.message] }), ok: null },
      failureStatus(result),
    )
  }
  return redirectWithFlash(`/app/jobs/${jobId}`, 'Visit skipped.')
}

/** "Cancel job": office roles only; the page asked for confirmation before posting. */
export async function cancelJobAction(member: CompanyMember, jobId: string) {
  if (!can(member.role, 'jobs:manage')) forbidden('no-access')
  const result = await cancelJob({ companyId: member.companyId, jobId })
  if (!result.ok) {
    if (result.code === 'not-found') notFound()
    return data({ intent: 'cancel-job', error: result.message, ok: null }, failureStatus(result))
  }
  return redirectWithFlash(`/app/jobs/${jobId}`, 'Job cancelled.')
}
