// /invitations — someone who already has an account decides on the invitations they received (decision 011):
// "Join {company} as {role}", accept or decline; nothing changes until they accept. Only a person who can join a
// company (no membership, or only a trial of their own) sees it; everyone else is sent where they belong.
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { homePathFor, requireJoiningUser } from '~/auth/guards.server'
import { LogoutButton } from '~/components/logout-button'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { INVITATION_DECISION_REFUSAL, InvitationDecisionSchema } from '~/features/auth/invitation-decision-schema'
import { acceptInvitation, declineInvitation } from '~/models/account-invitation.server'
import { readForm } from '~/utils/forms'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/invitations'

export async function loader({ request }: Route.LoaderArgs) {
  const { user, open } = await requireJoiningUser(request)
  if (open.invitations.length === 0) throw redirect(await homePathFor(user))
  return { email: user.email, ...open }
}

export async function action({ request }: Route.ActionArgs) {
  const { user } = await requireJoiningUser(request)
  const submission = parseWithZod(await readForm(request), { schema: InvitationDecisionSchema })
  if (submission.status !== 'success') return data({ error: INVITATION_DECISION_REFUSAL, notice: null }, 400)
  const { intent, invitationId } = submission.value
  if (intent === 'accept') {
    const result = await acceptInvitation({ userId: user.id, invitationId })
    if (!result.ok) return data({ error: result.message, notice: null }, failureStatus(result))
    throw redirect('/app')
  }
  const result = await declineInvitation({ userId: user.id, invitationId })
  if (!result.ok) return data({ error: result.message, notice: null }, failureStatus(result))
  // The page reloads its list: with none left, its loader sends them home.
  return { error: null, notice: 'Invitation declined.' }
}

export function meta() {
  return [{ title: 'Invitations · Pool Bud' }]
}

export default function InvitationsPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const { email, invitations, trialCompanyName } = loaderData
  return (
    <Card className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">{invitations.length === 1 ? 'You are invited' : 'Your invitations'}</h1>
        <p className="text-sm text-slate-600">
          Signed in as {email}. Nothing changes until you accept; you keep your email and password.
        </p>
      </div>
      {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
      {actionData?.notice && !busy ? <Alert tone="success">{actionData.notice}</Alert> : null}
      <ul className="space-y-4">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="space-y-3 rounded-lg border border-slate-200 p-4">
            <div className="space-y-1">
              <h2 className="text-lg font-semibold">
                Join {invitation.companyName} as {invitation.roleLabel}
              </h2>
              {invitation.invitedBy ? (
                <p className="text-sm text-slate-600">Invited by {invitation.invitedBy}</p>
              ) : null}
            </div>
            <Form method="post" className="flex flex-wrap gap-2">
              <input type="hidden" name="invitationId" value={invitation.id} />
              <Button type="submit" name="intent" value="accept" disabled={busy}>
                Accept invitation
              </Button>
              <Button type="submit" name="intent" value="decline" variant="secondary" disabled={busy}>
                Decline
              </Button>
            </Form>
          </li>
        ))}
      </ul>
      {trialCompanyName ? (
        <p className="text-sm text-slate-700">
          If you accept, your trial company {trialCompanyName} keeps its data but no longer has you as its owner (a Pool
          Bud administrator can give it back to you).{' '}
          <Link to="/app" className="font-semibold text-brand-800 underline">
            Go to {trialCompanyName} instead
          </Link>
        </p>
      ) : null}
      <LogoutButton variant="ghost" />
    </Card>
  )
}
