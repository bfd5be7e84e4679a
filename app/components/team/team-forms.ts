// The forms of the team screens (/app/team and the owner and admin dashboards, which post there) and what the team
// action answers them. One schema per form, shared by the form, the action and their tests.
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { EmailSchema, optionalText } from '~/utils/forms'
import { ROLE_LABELS, type Role } from '~/utils/permissions'

// Anything but a known role is bad input (400); a known role the person may not give (INVITABLE_ROLES for an invite,
// owner for a change) is refused by the action or the model (403).
const role = z.enum(Object.keys(ROLE_LABELS) as [Role, ...Role[]], { error: 'Choose a role.' })
const memberId = z.string({ error: 'Choose a teammate.' }).min(1, 'Choose a teammate.')

/** docs/product.md "Forms" "Invite teammate": role, full name and email required; phone optional (null if empty). */
export const InviteTeamMemberSchema = z.object({
  role,
  fullName: z
    .string({ error: 'Full name is required.' })
    .trim()
    .min(1, 'Full name is required.')
    .max(120, 'Use at most 120 characters.'),
  email: EmailSchema,
  phone: optionalText(40),
})

/** A member row's "Save role" (owners). */
export const ChangeRoleSchema = z.object({ intent: z.literal('change-role'), memberId, role })

/** A member row's buttons that name only the member: "Resend invite", "Deactivate", "Reactivate". */
export const MemberActionSchema = z.object({ intent: z.enum(['resend', 'deactivate', 'reactivate']), memberId })

/** What /app/team answers to an invite: the message to show, and Conform's answer for the form's fields. */
export type InviteReply = { intent: 'invite'; ok: boolean; message: string; result: SubmissionResult<string[]> }

/** What /app/team answers to a change on one member's row ("Save role" also gets Conform's answer). */
export type MemberReply = {
  intent: string
  memberId: string
  ok: boolean
  message: string
  result?: SubmissionResult<string[]>
}
