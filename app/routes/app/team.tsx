// /app/team: the company's people. Owners and admins invite (SPEC §5, §6); owners also change
// roles and deactivate. The dashboards embed the same form and list, which post here.
import { data } from 'react-router'
import { type CompanyMember, notFound, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { type InviteReply, InviteTeamMemberForm } from '~/components/team/invite-team-member-form'
import type { MemberReply } from '~/components/team/team-table'
import { TeamTable } from '~/components/team/team-table'
import { Card } from '~/components/ui/card'
import {
  changeMemberRole,
  deactivateMember,
  INVITE_MESSAGES,
  inviteTeamMember,
  listTeamMembers,
  type MemberChange,
  reactivateMember,
} from '~/models/team.server'
import { readForm } from '~/utils/forms'
import { can, INVITABLE_ROLES, type StaffRole } from '~/utils/permissions'
import { failureStatus } from '~/utils/result'
import { InviteTeamMemberSchema } from '~/utils/team'
import type { Route } from './+types/team'

/** SPEC §8 success messages: the owner's is the longer one. */
const INVITE_SENT = {
  owner: 'Invitation sent. Your teammate will receive an email shortly.',
  admin: 'Invitation sent.',
} as const

/** Admins see (and invite) dispatchers and technicians only (SPEC §6). */
export function visibleRoles(role: string): readonly StaffRole[] | undefined {
  return role === 'owner' ? undefined : ['dispatcher', 'tech']
}

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'team:invite')
  return {
    inviterRole: member.role as 'owner' | 'admin',
    manage: can(member.role, 'team:manage'),
    members: await listTeamMembers(member.companyId, visibleRoles(member.role)),
  }
}

function inviteReply(reply: Omit<InviteReply, 'intent'>, status = 200) {
  return data<InviteReply>({ intent: 'invite', ...reply }, status)
}

async function invite(member: CompanyMember, formData: FormData) {
  const parsed = InviteTeamMemberSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {}
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0])
      fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message]
    }
    return inviteReply(
      { ok: false, message: parsed.error.issues[0]?.message ?? INVITE_MESSAGES.failed, fieldErrors },
      400,
    )
  }
  const role = parsed.data.role as StaffRole
  if (!INVITABLE_ROLES[member.role]?.includes(role)) {
    return inviteReply({ ok: false, message: INVITE_MESSAGES.roleNotAllowed }, 403)
  }
  const result = await inviteTeamMember({
    companyId: member.companyId,
    inviter: { id: member.id, role: member.role },
    role,
    fullName: parsed.data.fullName,
    email: parsed.data.email,
    phone: parsed.data.phone,
  })
  if (result.ok) return inviteReply({ ok: true, message: INVITE_SENT[member.role as 'owner' | 'admin'] })
  return inviteReply({ ok: false, message: result.message }, failureStatus(result))
}

const CHANGE_MESSAGES: Record<string, string> = {
  'change-role': 'Role updated.',
  deactivate: 'Deactivated. They are signed out and their open jobs are unassigned.',
  reactivate: 'Reactivated. They can sign in again.',
}

function memberReply(intent: string, memberId: string, outcome: MemberChange) {
  if (outcome === 'not-found') notFound()
  if (outcome === 'refused') {
    return data<MemberReply>({ intent, memberId, ok: false, message: 'Owners change only by ownership transfer.' }, 403)
  }
  return data<MemberReply>({ intent, memberId, ok: true, message: CHANGE_MESSAGES[intent] ?? 'Saved.' })
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request)
  const intent = String(formData.get('intent') ?? '')
  const memberId = String(formData.get('memberId') ?? '')
  if (intent === 'invite') return invite(await requireCompanyCapability(request, 'team:invite'), formData)
  if (intent === 'resend') {
    const member = await requireCompanyCapability(request, 'team:invite')
    const pending = (await listTeamMembers(member.companyId, visibleRoles(member.role))).find(
      (m) => m.id === memberId && m.status === 'pending',
    )
    if (!pending) notFound()
    const result = await inviteTeamMember({
      companyId: member.companyId,
      inviter: { id: member.id, role: member.role },
      role: pending.role,
      fullName: pending.fullName,
      email: pending.email,
      phone: pending.phone,
    })
    return data<MemberReply>(
      { intent, memberId, ok: result.ok, message: result.ok ? 'Invitation sent again.' : result.message },
      result.ok ? 200 : failureStatus(result),
    )
  }
  const owner = await requireCompanyCapability(request, 'team:manage')
  const target = { companyId: owner.companyId, actorId: owner.id, memberId }
  if (intent === 'change-role') {
    return memberReply(
      intent,
      memberId,
      await changeMemberRole({ ...target, role: String(formData.get('role')) as StaffRole }),
    )
  }
  if (intent === 'deactivate') return memberReply(intent, memberId, await deactivateMember(target))
  if (intent === 'reactivate') return memberReply(intent, memberId, await reactivateMember(target))
  return data({ intent, memberId, ok: false, message: 'Unknown action.' }, 400)
}

export function meta() {
  return [{ title: 'Team · Pool Bud' }]
}

export default function TeamPage({ loaderData }: Route.ComponentProps) {
  const { inviterRole, manage, members } = loaderData
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Team</h1>
        <p className="text-sm text-slate-600">
          {manage
            ? 'Invite teammates, change their roles, or deactivate someone who has left.'
            : 'Dispatchers and technicians of your company. Invite new ones below.'}
        </p>
      </div>
      <Card>
        <InviteTeamMemberForm inviterRole={inviterRole} />
      </Card>
      <Card aria-labelledby="team-list-heading" className="space-y-3">
        <h2 id="team-list-heading" className="text-lg font-semibold">
          {manage ? 'Workforce' : 'Team roster'}
        </h2>
        <TeamTable members={members} manage={manage} />
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
