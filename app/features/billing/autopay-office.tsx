// The office's side of autopay on the customer record (docs/billing.md): the customer's saved card, if any, and a
// button that emails the customer a link to Stripe's page where they save one themselves (staff never handle card
// numbers).
import { Card } from '~/components/ui/card'
import { AutopayButton } from './autopay-button'
import type { AutopayState } from './autopay-section'

export const SEND_CARD_LINK_LABEL = 'Email a link to save a card'

export function AutopayOffice({
  customerId,
  autopay,
  hasEmail,
}: {
  customerId: string
  autopay: Pick<AutopayState, 'enabled' | 'cardLabel' | 'notSetUpText'>
  hasEmail: boolean
}) {
  const note = !autopay.enabled
    ? autopay.notSetUpText
    : !hasEmail
      ? 'Add the customer’s email address first: the link is sent there.'
      : null
  return (
    <Card aria-labelledby="autopay-office-heading">
      <h2 id="autopay-office-heading" className="mb-2 text-lg font-semibold">
        Automatic payments
      </h2>
      <p className="mb-3 text-slate-700">
        {autopay.cardLabel
          ? `Invoices are charged to the customer's ${autopay.cardLabel} when they are sent.`
          : 'No card saved. The customer can save one in their portal, or from a link you email them.'}
      </p>
      <AutopayButton
        action={`/app/customers/${customerId}/autopay`}
        label={SEND_CARD_LINK_LABEL}
        pendingLabel="Sending…"
        disabled={!autopay.enabled || !hasEmail}
        note={note}
        noteId="autopay-office-note"
      />
    </Card>
  )
}
