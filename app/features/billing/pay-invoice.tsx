// "Pay invoice" in the portal (docs/billing.md). With Stripe set up it is a plain form posting to the invoice's /pay
// route, which answers with a redirect to Stripe Checkout (a whole-page navigation, so a plain form, not a fetch).
// Without Stripe the button stays, disabled, with "Online payment is not set up" next to it.
import { IdempotencyKeyInput } from '~/components/idempotency-key'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'

export function PayInvoice({
  pay,
  preview,
  companyName,
}: {
  pay: { enabled: boolean; action: string; notSetUp: string; idempotencyKey?: string }
  /** Staff looking at the customer's portal: they see the button as the customer does, but cannot press it. */
  preview: boolean
  companyName: string
}) {
  const note = !pay.enabled ? pay.notSetUp : preview ? 'Only the customer can pay from their portal.' : null
  return (
    <Card aria-label="Pay invoice" className="flex flex-wrap items-center gap-x-4 gap-y-2 print:hidden">
      {note ? (
        <>
          <Button type="button" disabled aria-describedby="pay-note">
            Pay invoice
          </Button>
          <p id="pay-note" className="text-sm text-slate-700">
            {note}
          </p>
          {!pay.enabled ? (
            <p className="w-full text-sm text-slate-600">Please pay {companyName || 'your pool company'} directly.</p>
          ) : null}
        </>
      ) : (
        <form method="post" action={pay.action}>
          {pay.idempotencyKey ? <IdempotencyKeyInput value={pay.idempotencyKey} /> : null}
          <Button type="submit">Pay invoice</Button>
        </form>
      )}
    </Card>
  )
}
