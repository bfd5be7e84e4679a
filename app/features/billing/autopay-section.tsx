// "Automatic payments" in the customer portal (docs/billing.md): the saved card, if any, and "Save card for automatic
// payments", which posts to /customer/:customerId/autopay and goes on to Stripe's page. Without Stripe the button
// stays disabled with "Online payment is not set up"; staff previewing the portal see it as the customer would, but
// disabled (the office emails the customer a link from the customer record instead).
import { Card } from '~/components/ui/card'
import { AutopayButton } from './autopay-button'

export type AutopayState = {
  enabled: boolean
  cardLabel: string | null
  /** Back from Stripe's page: the webhook saves the card within moments. */
  justSaved: boolean
  /** "Online payment is not set up" (the server module's wording). */
  notSetUpText: string
}

export const SAVE_CARD_LABEL = 'Save card for automatic payments'

export function AutopaySection({
  customerId,
  autopay,
  preview,
}: {
  customerId: string
  autopay: AutopayState
  preview: boolean
}) {
  const note = !autopay.enabled
    ? autopay.notSetUpText
    : preview
      ? 'Only the customer can save a card, from their own login. Send them a link from the customer record.'
      : null
  return (
    <Card id="autopay" aria-labelledby="autopay-heading">
      <h2 id="autopay-heading" className="mb-3 text-lg font-semibold">
        Automatic payments
      </h2>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="min-w-0 space-y-1">
          {autopay.cardLabel ? (
            <p>
              Invoices are charged to your <strong>{autopay.cardLabel}</strong> when they are sent.
            </p>
          ) : autopay.justSaved && autopay.enabled ? (
            <p role="status">Thank you. Your card is being saved: it shows here in a moment (reload the page).</p>
          ) : (
            <p className="text-slate-700">Save a card and each invoice is paid from it when it is sent.</p>
          )}
          <p className="text-sm text-slate-600">Your card is kept by Stripe; we only see its last four digits.</p>
        </div>
        <AutopayButton
          action={`/customer/${customerId}/autopay`}
          label={SAVE_CARD_LABEL}
          pendingLabel="Opening Stripe…"
          variant={autopay.cardLabel ? 'secondary' : 'primary'}
          disabled={!autopay.enabled || preview}
          note={note}
          noteId="autopay-note"
        />
      </div>
    </Card>
  )
}
