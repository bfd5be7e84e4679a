// The visit page's plain-form saves — a reading, a chemical added, "Assign and reschedule", "Skip visit", "Cancel
// job" (docs/product.md "Schedule", "The visit") — as the job route's action calls them once requireWorkableJob has let
// the member in: a technician gets here only for their own visit.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { type CompanyMember, refusalStatus, requireMemberCapability } from '~/auth/guards.server'
import { saveOnce } from '~/features/forms/save-once.server'
import { saveAssignmentForm } from '~/features/jobs/assign-job.server'
import { addChemLog } from '~/models/chem-log.server'
import { addChemicalToJob } from '~/models/chemical-addition.server'
import { type SkipVisitInput, SkipVisitSchema } from '~/models/service-plan-schemas'
import { cancelJob, skipVisit } from '~/models/visit.server'
import { CHEMICAL_MESSAGES, ChemicalAdditionSchema } from '~/utils/chemicals'
import { redirectWithFlash } from '~/utils/flash.server'
import { can } from '~/utils/permissions'
import { ReadingFormSchema } from './visit-reading'

/** "Save Reading" without the phone's queue; the same reading sent again (same key) is saved once. */
export async function saveReadingAction(member: CompanyMember, jobId: string, formData: FormData) {
  const intent = 'reading' as const
  const submission = parseWithZod(formData, { schema: ReadingFormSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
  const saved = await saveOnce(
    {
      formData,
      submission,
      companyId: member.companyId,
      userId: member.id,
      target: jobId,
      action: 'reading.create',
      failedMessage: 'Unable to save reading.',
    },
    async (tx) => {
      const row = await addChemLog({ companyId: member.companyId, jobId, reading: submission.value }, tx)
      return { ok: true as const, readingId: row?.id }
    },
  )
  if (!saved.ok) return data({ intent, result: saved.result, ok: null }, saved.status)
  return { intent, result: submission.reply({ resetForm: true }), ok: 'Readings saved.' }
}

/** A chemical added, without the phone's queue; sent again (same key), it is recorded, and taken off stock, once. */
export async function saveChemicalAction(member: CompanyMember, jobId: string, formData: FormData) {
  const intent = 'chemical' as const
  const submission = parseWithZod(formData, { schema: ChemicalAdditionSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
  const outcome = await saveOnce(
    {
      formData,
      submission,
      companyId: member.companyId,
      userId: member.id,
      target: jobId,
      action: 'chemical.add',
      failedMessage: CHEMICAL_MESSAGES.saveFailed,
    },
    (tx) => addChemicalToJob({ companyId: member.companyId, jobId, input: submission.value, userId: member.id }, tx),
  )
  if (!outcome.ok) return data({ intent, result: outcome.result, ok: null }, outcome.status)
  return { intent, result: submission.reply({ resetForm: true }), ok: CHEMICAL_MESSAGES.saved }
}

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
    return data(
      { intent: 'skip-visit', result: submission.reply({ formErrors: [result.message] }), ok: null },
      refusalStatus(result),
    )
  }
  return redirectWithFlash(`/app/jobs/${jobId}`, 'Visit skipped.')
}

/** "Cancel job": office roles only; the page asked for confirmation before posting. */
export async function cancelJobAction(member: CompanyMember, jobId: string) {
  requireMemberCapability(member, 'jobs:manage')
  const result = await cancelJob({ companyId: member.companyId, jobId })
  if (!result.ok) return data({ intent: 'cancel-job', error: result.message, ok: null }, refusalStatus(result))
  return redirectWithFlash(`/app/jobs/${jobId}`, 'Job canceled.')
}
