// What the team screens share between server and browser: the member shape and its status labels.
import type { StaffRole } from './permissions'

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
