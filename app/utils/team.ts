// What the team screens share between server and browser: the member shape and the invite form.
import { z } from 'zod'
import { EmailSchema, optionalText } from './forms'
import { ROLE_LABELS, type Role, type StaffRole } from './permissions'

export type TeamMemberStatus = 'active' | 'pending' | 'deactivated'

export type TeamMember = {
  id: string
  fullName: string
  email: string
  phone: string | null
  role: StaffRole
  status: TeamMemberStatus
}

export const STATUS_LABELS: Record<TeamMemberStatus, string> = {
  active: 'Active',
  pending: 'Invitation pending',
  deactivated: 'Deactivated',
}

/** SPEC §5 "Invite teammate": role, full name and email required; phone optional (null if empty). */
export const InviteTeamMemberSchema = z.object({
  // Anything but a known role is bad input (400); a known role the inviter may not invite
  // (INVITABLE_ROLES) is refused by the action (403).
  role: z.enum(Object.keys(ROLE_LABELS) as [Role, ...Role[]], { error: 'Choose a role.' }),
  fullName: z
    .string({ error: 'Full name is required.' })
    .trim()
    .min(1, 'Full name is required.')
    .max(120, 'Use at most 120 characters.'),
  email: EmailSchema,
  phone: optionalText(40),
})
