import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Field, inputClass } from '~/components/ui/field'
import { INVITABLE_ROLES, ROLE_LABELS } from '~/utils/permissions'

/** What /app/team answers to an invite: the message to show, and any field errors. */
export type InviteReply = { intent: 'invite'; ok: boolean; message: string; fieldErrors?: Record<string, string[]> }

/**
 * SPEC §4 invite form: idle → sending → success or error; typing again returns it to idle.
 * A fetcher posts to /app/team, so it works from any page and its reply survives live updates.
 */
export function InviteTeamMemberForm({ inviterRole }: { inviterRole: 'owner' | 'admin' }) {
  const fetcher = useFetcher<InviteReply>({ key: 'invite-team-member' })
  const roles = INVITABLE_ROLES[inviterRole] ?? []
  const formRef = useRef<HTMLFormElement>(null)
  // The reply shows until the next edit (SPEC §4: editing a field resets to idle).
  const [shownReply, setShownReply] = useState<InviteReply | undefined>(undefined)
  const sending = fetcher.state !== 'idle'

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    setShownReply(fetcher.data)
    if (fetcher.data.ok) formRef.current?.reset()
  }, [fetcher.state, fetcher.data])

  const errors = shownReply?.fieldErrors ?? {}
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action="/app/team"
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
          <label htmlFor="invite-role" className="block text-sm font-medium text-slate-800">
            Role
          </label>
          <select id="invite-role" name="role" defaultValue={roles[0]} className={inputClass} required>
            {roles.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="Full name"
          errors={errors.fullName}
          inputProps={{ id: 'invite-full-name', name: 'fullName', autoComplete: 'off', required: true, maxLength: 120 }}
        />
        <Field
          label="Email"
          errors={errors.email}
          inputProps={{ id: 'invite-email', name: 'email', type: 'email', autoComplete: 'off', required: true }}
        />
        <Field
          label="Phone (optional)"
          errors={errors.phone}
          inputProps={{ id: 'invite-phone', name: 'phone', type: 'tel', autoComplete: 'off', maxLength: 40 }}
        />
      </div>
      {shownReply ? <Alert tone={shownReply.ok ? 'success' : 'error'}>{shownReply.message}</Alert> : null}
      <Button type="submit" pending={sending} pendingLabel="Sending…">
        Send invite
      </Button>
    </fetcher.Form>
  )
}
