import { getFormProps } from '@conform-to/react'
import { Link, useFetcher } from 'react-router'
import { ConfirmForm } from '~/components/confirm-buttons'
import { StatusPill } from '~/components/status-badge'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { SelectField } from '~/components/ui/field'
import { useZodForm } from '~/components/ui/form'
import { textLinkTarget } from '~/components/ui/touch'
import { ROLE_LABELS } from '~/utils/permissions'
import { STATUS_LABELS, type TeamMember } from '~/utils/team'
import { ChangeRoleSchema, type MemberReply } from './team-forms'

const ASSIGNABLE = ['admin', 'dispatcher', 'tech'] as const

type MemberFetcher = ReturnType<typeof useFetcher<MemberReply>>

/**
 * The company's people. With `manage` (owners) each row can change role, deactivate or
 * reactivate, and re-send a pending invitation; each row has its own pending and result state.
 */
export function TeamTable({ members, manage }: { members: TeamMember[]; manage: boolean }) {
  if (members.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">No teammates yet.</p>
    )
  }
  return (
    <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
      {members.map((member) => (
        <MemberRow key={member.id} member={member} manage={manage && member.role !== 'owner'} />
      ))}
    </ul>
  )
}

function MemberRow({ member, manage }: { member: TeamMember; manage: boolean }) {
  const fetcher = useFetcher<MemberReply>({ key: `member-${member.id}` })
  const busy = fetcher.state !== 'idle'
  const busyIntent = busy ? fetcher.formData?.get('intent') : null
  const reply = fetcher.data?.memberId === member.id ? fetcher.data : undefined
  const name = member.fullName || member.email
  const tone = member.status === 'active' ? 'green' : member.status === 'pending' ? 'amber' : 'slate'
  return (
    <li className="space-y-3 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          {member.role === 'tech' ? (
            // Team → technician: their working day, pay and hourly cost.
            <Link
              to={`/app/team/${member.id}`}
              className={cn(textLinkTarget, 'font-medium text-brand-700 hover:underline')}
            >
              {name}
            </Link>
          ) : (
            <p className="font-medium text-slate-900">{name}</p>
          )}
          <p className="break-all text-sm text-slate-600">
            {member.email}
            {member.phone ? ` · ${member.phone}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium text-slate-700">{ROLE_LABELS[member.role]}</span>
          <StatusPill tone={tone}>{STATUS_LABELS[member.status]}</StatusPill>
        </div>
      </div>
      {manage ? (
        <div className="flex flex-wrap items-center gap-2">
          {member.status !== 'deactivated' ? (
            <ChangeRoleForm member={member} name={name} fetcher={fetcher} reply={reply} />
          ) : null}
          {member.status === 'pending' ? (
            <fetcher.Form method="post" action="/app/team">
              <input type="hidden" name="intent" value="resend" />
              <input type="hidden" name="memberId" value={member.id} />
              <Button type="submit" variant="secondary" pending={busyIntent === 'resend'} pendingLabel="Sending…">
                Resend invite
              </Button>
            </fetcher.Form>
          ) : null}
          {member.status === 'deactivated' ? (
            <fetcher.Form method="post" action="/app/team">
              <input type="hidden" name="intent" value="reactivate" />
              <input type="hidden" name="memberId" value={member.id} />
              <Button
                type="submit"
                variant="secondary"
                pending={busyIntent === 'reactivate'}
                pendingLabel="Reactivating…"
              >
                Reactivate
              </Button>
            </fetcher.Form>
          ) : (
            <ConfirmForm
              as={fetcher.Form}
              action="/app/team"
              fields={{ intent: 'deactivate', memberId: member.id }}
              label="Deactivate"
              variant="ghost"
              pending={busyIntent === 'deactivate'}
              pendingLabel="Deactivating…"
              className="flex flex-wrap items-center gap-2"
              question={<span className="text-sm text-slate-700">Sign {name} out and unassign their open visits?</span>}
              confirm="Yes, deactivate"
            />
          )}
        </div>
      ) : null}
      {/* A refused role shows at its select; every other answer here. */}
      {reply && !busy && !reply.result?.error ? (
        <Alert tone={reply.ok ? 'success' : 'error'}>{reply.message}</Alert>
      ) : null}
    </li>
  )
}

/** "Save role": the one form of a row with a choice in it. */
function ChangeRoleForm({
  member,
  name,
  fetcher,
  reply,
}: {
  member: TeamMember
  name: string
  fetcher: MemberFetcher
  reply: MemberReply | undefined
}) {
  const [form, fields] = useZodForm(ChangeRoleSchema, {
    id: `change-role-${member.id}`,
    lastResult: fetcher.state === 'idle' && reply?.intent === 'change-role' ? reply.result : undefined,
    defaultValue: { role: member.role },
  })
  const saving = fetcher.state !== 'idle' && fetcher.formData?.get('intent') === 'change-role'
  return (
    <fetcher.Form
      method="post"
      action="/app/team"
      {...getFormProps(form)}
      className="flex flex-wrap items-center gap-2"
    >
      <input type="hidden" name="intent" value="change-role" />
      <input type="hidden" name="memberId" value={member.id} />
      <SelectField field={fields.role} label={`Role for ${name}`} hideLabel>
        {ASSIGNABLE.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </SelectField>
      <Button type="submit" variant="secondary" pending={saving} pendingLabel="Saving…">
        Save role
      </Button>
    </fetcher.Form>
  )
}
