// "Refund" on the office's invoice page, asked first (decision 032): the card payment, what is left of it, and the
// amount to give back — all of it by default, or part. Opened from the payment's "Refund" link (`?refund=<payment>`),
// so it works before JavaScript and survives a reload. The money goes back through Stripe; the refund shows on the
// payment once Stripe confirms it (the charge.refunded webhook records it).
import { Form, Link, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { inputClass } from '~/components/ui/field'
import { REFUND_INTENT } from './refund-form'

type Props = {
  invoiceId: string
  confirm: { paymentId: string; paid: string; left: string; defaultAmount: string } | null
  refusal: string | null
}

export function RefundConfirmCard({ invoiceId, confirm, refusal }: Props) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === REFUND_INTENT
  if (!confirm) return null
  return (
    <Card aria-labelledby="refund-heading" className="space-y-3 border-red-200 print:hidden">
      <h2 id="refund-heading" className="text-lg font-semibold">
        Refund this card payment?
      </h2>
      <p className="text-sm text-slate-700">
        The card payment of {confirm.paid} has {confirm.left} left to refund. The amount goes back to the customer’s
        card through Stripe and cannot be undone.
      </p>
      <Form method="post" action={`/app/invoices/${invoiceId}?refund=${confirm.paymentId}`} className="space-y-3">
        <input type="hidden" name="intent" value={REFUND_INTENT} />
        <input type="hidden" name="paymentId" value={confirm.paymentId} />
        <div className="space-y-1">
          <label htmlFor="refund-amount" className="block text-sm font-medium">
            Amount to refund
          </label>
          <input
            id="refund-amount"
            name="amount"
            inputMode="decimal"
            defaultValue={confirm.defaultAmount}
            required
            aria-describedby={refusal ? 'refund-error' : undefined}
            className={inputClass}
          />
        </div>
        {refusal ? (
          <Alert tone="error" id="refund-error">
            {refusal}
          </Alert>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="danger" pending={pending} pendingLabel="Refunding…">
            Yes, refund
          </Button>
          <Link to="." className={buttonClass('secondary')} preventScrollReset>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  )
}
