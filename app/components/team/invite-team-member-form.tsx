import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Field, FieldError, inputClass } from '~/components/ui/field'
import { INVITABLE_ROLES, ROLE_LABELS } from '~/utils/permissions'
import { type InviteReply, InviteTeamMemberSchema } from './team-forms'

/**
 * SPEC §4 invite form: idle → sending → success or error; typing again returns it to idle.
 * A fetcher posts to /app/team, so it works from any page and its reply survives live updates.
 */
export function InviteTeamMemberForm({ inviterRole }: { inviterRole: 'owner' | 'admin' }) {
  const fetcher = useFetcher<InviteReply>({ key: 'invite-team-member' })
  const roles = INVITABLE_ROLES[inviterRole] ?? []
  // The reply shows until the next edit (SPEC §4: editing a field resets to idle).
  const [shownReply, setShownReply] = useState<InviteReply | undefined>(undefined)
  const formRef = useRef<HTMLFormElement>(null)
  const sending = fetcher.state !== 'idle'
  const [form, fields] = useForm({
    id: 'invite-team-member',
    lastResult: sending ? undefined : fetcher.data?.result,
    defaultValue: { role: roles[0] },
    constraint: getZodConstraint(InviteTeamMemberSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteTeamMemberSchema }),
  })

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    setShownReply(fetcher.data)
    // Sent: the form empties for the next teammate (a native reset, which Conform follows).
    if (fetcher.data.ok) formRef.current?.reset()
  }, [fetcher.state, fetcher.data])

  // Refusals of what was typed show at their fields; the rest (sent, rate-limited, already on the team) here.
  const message = shownReply && (shownReply.ok || !shownReply.result.error) ? shownReply : undefined
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action="/app/team"
      {...getFormProps(form)}
      className="space-y-4"
      onChange={() => setShownReply(undefined)}
      aria-labelledby="invite-heading"
    >
      <h3 id="invite-heading" className="text-base font-semibold">
        Invite a teammate
      </h3>
      <input type="hidden" name="intent" value="invite" />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor={fields.role.id} className="block text-sm font-medium text-slate-800">
            Role
          </label>
          <select {...getSelectProps(fields.role)} className={inputClass}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
          <FieldError id={fields.role.errorId} errors={fields.role.errors} />
        </div>
        <Field
          label="Full name"
          errors={fields.fullName.errors}
          inputProps={{ ...getInputProps(fields.fullName, { type: 'text' }), autoComplete: 'off' }}
        />
        <Field
          label="Email"
          errors={fields.email.errors}
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off' }}
        />
        <Field
          label="Phone (optional)"
          errors={fields.phone.errors}
          inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'off' }}
        />
      </div>
      {message ? <Alert tone={message.ok ? 'success' : 'error'}>{message.message}</Alert> : null}
      <Button type="submit" pending={sending} pendingLabel="Sending…">
        Send invite
      </Button>
    </fetcher.Form>
  )
}
