// "Void payment" on the office's invoice page, asked first with a reason (docs/decisions/037-payment-voids.md): a
// payment recorded by mistake stays listed as "Void" with the reason, and no longer counts towards what was paid.
// Opened from the payment's "Void payment" link (`?void-payment=<payment>`), so it works before JavaScript and
// survives a reload. A card payment taken through Stripe is refunded instead, so it has no such link.
import { Form, Link, useNavigation } from 'react-router'
import { VOID_REASON_MAX } from '~/billing/payment-messages'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { inputClass } from '~/components/ui/field'

export const VOID_PAYMENT_INTENT = 'void-payment'

type Props = {
  invoiceId: string
  confirm: { paymentId: string; amount: string; description: string } | null
  refusal: string | null
}

export function VoidPaymentConfirmCard({ invoiceId, confirm, refusal }: Props) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === VOID_PAYMENT_INTENT
  if (!confirm) return null
  return (
    <Card aria-labelledby="void-payment-heading" className="space-y-3 border-red-200 print:hidden">
      <h2 id="void-payment-heading" className="text-lg font-semibold">
        Void this payment?
      </h2>
      <p className="text-sm text-slate-700">
        The payment of {confirm.amount} ({confirm.description}) stays listed as Void with your reason, and no longer
        counts towards what was paid: the customer owes it again. It cannot be undone.
      </p>
      <Form
        method="post"
        action={`/app/invoices/${invoiceId}?void-payment=${confirm.paymentId}`}
        className="space-y-3"
        preventScrollReset
      >
        <input type="hidden" name="intent" value={VOID_PAYMENT_INTENT} />
        <input type="hidden" name="paymentId" value={confirm.paymentId} />
        <div className="space-y-1">
          <label htmlFor="void-payment-reason" className="block text-sm font-medium">
            Reason
          </label>
          <input
            id="void-payment-reason"
            name="reason"
            required
            maxLength={VOID_REASON_MAX}
            autoComplete="off"
            aria-describedby={refusal ? 'void-payment-error' : undefined}
            className={inputClass}
          />
        </div>
        {refusal ? (
          <Alert tone="error" id="void-payment-error">
            {refusal}
          </Alert>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="danger" pending={pending} pendingLabel="Voiding…">
            Yes, void payment
          </Button>
          <Link to="." className={buttonClass('secondary')} preventScrollReset>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  )
}
