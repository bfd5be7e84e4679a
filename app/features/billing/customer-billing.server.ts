// The customer record's billing (docs/product.md "Easy to get wrong"): dispatchers see the balance, the invoices and
// the payments (they answer the phone); owners and admins also open the invoices and "Record payment". Technicians
// never reach the record. One statement (getCustomerBilling), and none at all for a role that may not see it.
import { PAYMENT_METHOD_LABELS } from '~/billing/billing-fields'
import { getCustomerBilling } from '~/models/customer-billing.server'
import type { LocalDate } from '~/schedule/local-date'
import { formatLocalDate } from '~/utils/dates'
import { formatCents } from '~/utils/money'
import { can, type Role } from '~/utils/permissions'

/** Cents as the amount field's text: 8500 → "85.00". */
export function dollarsText(cents: number) {
  return (cents / 100).toFixed(2)
}

export async function loadCustomerBilling({
  companyId,
  customerId,
  role,
  today,
}: {
  companyId: string
  customerId: string
  role: Role
  today: LocalDate
}) {
  if (!can(role, 'billing:balances')) return null
  const billing = await getCustomerBilling({ companyId, customerId, today })
  if (!billing) return null
  const canManage = can(role, 'billing:manage')
  return {
    canManage,
    invoiceCount: billing.invoiceCount,
    invoices: billing.invoices.map((invoice) => ({
      id: invoice.id,
      numberLabel: invoice.numberLabel,
      period: invoice.periodLabel ?? 'Opening balance',
      status: invoice.status,
      total: formatCents(invoice.totalCents),
      amountDue: invoice.outstandingCents > 0 ? formatCents(invoice.outstandingCents) : null,
      dueOn: invoice.dueOn ? formatLocalDate(invoice.dueOn) : null,
    })),
    payments: billing.payments.map((payment) => ({
      id: payment.id,
      receivedOn: formatLocalDate(payment.receivedOn),
      method: PAYMENT_METHOD_LABELS[payment.method],
      reference: payment.reference,
      amount: formatCents(payment.amountCents),
      refunded: payment.refundedCents > 0 ? formatCents(payment.refundedCents) : null,
      invoice: payment.invoiceId ? { id: payment.invoiceId, numberLabel: payment.invoiceNumberLabel } : null,
    })),
    // Only those who may record a payment get the form's choices and key.
    recordPayment: canManage
      ? {
          today,
          openInvoices: billing.openInvoices.map((invoice) => ({
            id: invoice.id,
            label: `${invoice.numberLabel}${invoice.periodLabel ? ` (${invoice.periodLabel})` : ''}`,
            amountDue: formatCents(invoice.outstandingCents),
            dueDollars: dollarsText(invoice.outstandingCents),
          })),
          idempotencyKey: crypto.randomUUID(),
          // Changes with every payment recorded: the form starts afresh (a new key) after one is saved.
          formKey: `payments-${billing.paymentCount}`,
        }
      : null,
  }
}

export type CustomerBillingData = NonNullable<Awaited<ReturnType<typeof loadCustomerBilling>>>
