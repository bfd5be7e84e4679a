// /app/team: the company's people. Owners and admins invite (docs/product.md "Forms", "Roles"); owners also change
// roles and deactivate. The dashboards embed the same form and list, which post here.
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { type CompanyMember, notFound, refusalStatus, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { InviteTeamMemberForm } from '~/components/team/invite-team-member-form'
import {
  ChangeRoleSchema,
  type InviteReply,
  InviteTeamMemberSchema,
  MemberActionSchema,
  type MemberReply,
} from '~/components/team/team-forms'
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
import { unknownIntent } from '~/utils/intent'
import { can, type StaffRole } from '~/utils/permissions'
import { failureStatus, UNKNOWN_INTENT } from '~/utils/result'
import type { Route } from './+types/team'

/** docs/product.md "Forms" success messages: the owner's is the longer one. */
const INVITE_SENT = {
  owner: 'Invitation sent. Your teammate will receive an email shortly.',
  admin: 'Invitation sent.',
} as const

/** Admins see (and invite) dispatchers and technicians only (docs/product.md "Roles"). */
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
  const submission = parseWithZod(formData, { schema: InviteTeamMemberSchema })
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {}).flat()[0]
    return inviteReply({ ok: false, message: first ?? INVITE_MESSAGES.failed, result: submission.reply() }, 400)
  }
  const result = await inviteTeamMember({
    companyId: member.companyId,
    inviter: { id: member.id, role: member.role },
    // A role this inviter may not give (INVITABLE_ROLES) is refused by the model: 403.
    ...submission.value,
    role: submission.value.role as StaffRole,
  })
  if (result.ok) {
    const message = INVITE_SENT[member.role as 'owner' | 'admin']
    return inviteReply({ ok: true, message, result: submission.reply({ resetForm: true }) })
  }
  return inviteReply({ ok: false, message: result.message, result: submission.reply() }, failureStatus(result))
}

const CHANGE_MESSAGES: Record<string, string> = {
  'change-role': 'Role updated.',
  deactivate: 'Deactivated. They are signed out and their open visits are unassigned.',
  reactivate: 'Reactivated. They can sign in again.',
}

/** A posted text field as the reply echoes it ('' when absent). */
function posted(formData: FormData, name: string) {
  const value = formData.get(name)
  return typeof value === 'string' ? value : ''
}

/** A member row's form that its schema refused: 400, on that row. */
function memberRefusal(
  formData: FormData,
  submission: { error: Record<string, string[] | null> | null; reply: () => SubmissionResult<string[]> },
) {
  const reply: MemberReply = {
    intent: posted(formData, 'intent'),
    memberId: posted(formData, 'memberId'),
    ok: false,
    message: Object.values(submission.error ?? {}).flat()[0] ?? UNKNOWN_INTENT,
    result: submission.reply(),
  }
  return data(reply, 400)
}

function memberReply(intent: string, memberId: string, outcome: MemberChange, result?: SubmissionResult<string[]>) {
  if (!outcome.ok) {
    const status = refusalStatus(outcome)
    return data<MemberReply>({ intent, memberId, ok: false, message: outcome.message, result }, status)
  }
  return data<MemberReply>({ intent, memberId, ok: true, message: CHANGE_MESSAGES[intent] ?? 'Saved.', result })
}

async function resend(request: Request, formData: FormData) {
  const member = await requireCompanyCapability(request, 'team:invite')
  const submission = parseWithZod(formData, { schema: MemberActionSchema })
  if (submission.status !== 'success') return memberRefusal(formData, submission)
  const { intent, memberId } = submission.value
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

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request)
  const intent = formData.get('intent')
  if (intent === 'invite') return invite(await requireCompanyCapability(request, 'team:invite'), formData)
  if (intent === 'resend') return resend(request, formData)
  const owner = await requireCompanyCapability(request, 'team:manage')
  const target = { companyId: owner.companyId, actorId: owner.id }
  if (intent === 'change-role') {
    const submission = parseWithZod(formData, { schema: ChangeRoleSchema })
    if (submission.status !== 'success') return memberRefusal(formData, submission)
    const { memberId, role } = submission.value
    const outcome = await changeMemberRole({ ...target, memberId, role: role as StaffRole })
    return memberReply(intent, memberId, outcome, submission.reply())
  }
  if (intent === 'deactivate' || intent === 'reactivate') {
    const submission = parseWithZod(formData, { schema: MemberActionSchema })
    if (submission.status !== 'success') return memberRefusal(formData, submission)
    const { memberId } = submission.value
    const change = intent === 'deactivate' ? deactivateMember : reactivateMember
    return memberReply(intent, memberId, await change({ ...target, memberId }))
  }
  unknownIntent()
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
