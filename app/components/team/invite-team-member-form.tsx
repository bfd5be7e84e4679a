import { getFormProps } from '@conform-to/react'
import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { SelectField, TextField } from '~/components/ui/field'
import { useZodForm } from '~/components/ui/form'
import { INVITABLE_ROLES, ROLE_LABELS } from '~/utils/permissions'
import { type InviteReply, InviteTeamMemberSchema } from './team-forms'

/**
 * docs/product.md "Visit states" invite form: idle → sending → success or error; typing again returns it to idle.
 * A fetcher posts to /app/team, so it works from any page and its reply survives live updates.
 */
export function InviteTeamMemberForm({ inviterRole }: { inviterRole: 'owner' | 'admin' }) {
  const fetcher = useFetcher<InviteReply>({ key: 'invite-team-member' })
  const roles = INVITABLE_ROLES[inviterRole] ?? []
  // The reply shows until the next edit (docs/product.md "Visit states": editing a field resets to idle).
  const [shownReply, setShownReply] = useState<InviteReply | undefined>(undefined)
  const formRef = useRef<HTMLFormElement>(null)
  const sending = fetcher.state !== 'idle'
  const [form, fields] = useZodForm(InviteTeamMemberSchema, {
    id: 'invite-team-member',
    lastResult: sending ? undefined : fetcher.data?.result,
    defaultValue: { role: roles[0] },
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
        <SelectField field={fields.role} label="Role">
          {roles.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </SelectField>
        <TextField field={fields.fullName} label="Full name" autoComplete="off" />
        <TextField field={fields.email} label="Email" type="email" autoComplete="off" />
        <TextField field={fields.phone} label="Phone (optional)" type="tel" autoComplete="off" />
      </div>
      {message ? <Alert tone={message.ok ? 'success' : 'error'}>{message.message}</Alert> : null}
      <Button type="submit" pending={sending} pendingLabel="Sending…">
        Send invite
      </Button>
    </fetcher.Form>
  )
}
