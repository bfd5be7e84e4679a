// /invitations: each invitation's "Accept invitation" / "Decline" buttons post their intent and the invitation's id
// (a hidden field the page wrote). One schema for the page's action and its test.
import { z } from 'zod'

export const INVITATION_DECISION_REFUSAL = 'Choose an invitation to accept or decline.'

export const InvitationDecisionSchema = z.object({
  intent: z.enum(['accept', 'decline'], { error: INVITATION_DECISION_REFUSAL }),
  // Any other text is "not found" (the model answers it), like an invitation of someone else.
  invitationId: z.string({ error: INVITATION_DECISION_REFUSAL }).min(1, INVITATION_DECISION_REFUSAL),
})
