// The "move-visit" intent, shared by the week board and the visit page: the same form (MoveVisitSchema), the same
// model call and the same answer, so both pages say "Visit moved." and show a refusal the same way.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { type CompanyMember, requireMemberCapability } from '~/auth/guards.server'
import { MoveVisitSchema } from '~/models/service-plan-schemas'
import { moveVisit } from '~/models/visit.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { failureStatus } from '~/utils/result'

export const VISIT_MOVED = 'Visit moved.'

/** Moves visit `visitId` of `companyId` as the posted form says; 404 for a visit the company does not have. */
export async function moveVisitIntent(companyId: string, visitId: string, formData: FormData) {
  const intent = 'move-visit' as const
  const submission = parseWithZod(formData, { schema: MoveVisitSchema })
  if (submission.status !== 'success') return data({ intent, visitId, result: submission.reply(), ok: null }, 400)
  const moved = await moveVisit({ companyId, visitId, input: submission.value })
  if (!moved.ok) {
    return data(
      { intent, visitId, result: submission.reply({ formErrors: [moved.message] }), ok: null },
      failureStatus(moved),
    )
  }
  return data({ intent, visitId: moved.visitId, result: submission.reply({ resetForm: true }), ok: VISIT_MOVED })
}

/**
 * "Move visit" on the visit page: office roles only. "This and following visits" can put a new plan's visit in
 * this one's place, so the page follows the move to the visit that now stands there.
 */
export async function moveVisitOnVisitPage(member: CompanyMember, visitId: string, formData: FormData) {
  requireMemberCapability(member, 'visits:manage')
  const answer = await moveVisitIntent(member.companyId, visitId, formData)
  const movedTo = answer.data.ok ? answer.data.visitId : visitId
  if (movedTo !== visitId) await redirectWithFlash(`/app/visits/${movedTo}`, VISIT_MOVED)
  return answer
}
