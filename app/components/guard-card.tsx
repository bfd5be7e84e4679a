import { Link } from 'react-router'
import type { GuardReason } from '~/auth/guards.server'
import { LogoutButton } from './logout-button'
import { Card } from './ui/card'

const CARDS: Record<GuardReason, { title: string; body: string }> = {
  'no-access': {
    title: 'No access',
    body: "Your role doesn't grant access to the dispatcher dashboard.",
  },
  'setup-incomplete': {
    title: 'Account setup incomplete',
    body: "We couldn't find a role for your account yet. Ask an owner or admin to add you, or contact support if you believe this is a mistake.",
  },
  'company-staff-only': {
    title: 'This page is for company staff',
    body: "It belongs to a pool company's own team. As a platform administrator you manage companies from the staff area.",
  },
  restricted: {
    title: 'Restricted area',
    body: 'Only Pool Bud platform administrators can access this section.',
  },
}

export function isGuardReason(value: unknown): value is GuardReason {
  return typeof value === 'string' && value in CARDS
}

/** The spec's cards for a signed-in user who may not see a page (docs/product.md "Screens" guards). */
export function GuardCard({ reason }: { reason: GuardReason }) {
  const card = CARDS[reason]
  return (
    <Card className="mx-auto max-w-lg space-y-3" role="alert">
      <h1 className="text-xl font-bold">{card.title}</h1>
      <p className="text-slate-700">{card.body}</p>
      {reason === 'company-staff-only' ? (
        <p>
          <Link to="/staff" className="font-semibold text-brand-800 underline">
            Go to the staff area
          </Link>
        </p>
      ) : null}
      {reason === 'setup-incomplete' ? (
        <p className="text-slate-700">
          Running your own pool company?{' '}
          <Link to="/start" className="font-semibold text-brand-800 underline">
            Start your own company
          </Link>{' '}
          and try Pool Bud as its owner.
        </p>
      ) : null}
      <LogoutButton variant="secondary" />
    </Card>
  )
}
