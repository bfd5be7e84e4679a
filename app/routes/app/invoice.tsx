// /app/invoices/:invoiceId: one invoice for the office (docs/billing.md; owners and admins). The document — customer,
// period, status, dates, lines, totals — its payments, and what can be done to it: "Send invoice" (a draft), "Record
// payment" (a sent one; its form opens from a link, amount empty until "Pay in full"), "Void invoice", "Refund" of a
// card payment (asked first, all or part; decision 032) and "Void payment" of any other (asked first, with a reason;
// docs/decisions/037-payment-voids.md).
// Another company's invoice, or an id that is none, is a 404.
import { data, Link } from 'react-router'
import { type CompanyMember, notFound, refusalStatus, requireCompanyCapability } from '~/auth/guards.server'
import { PAYMENT_METHOD_LABELS } from '~/billing/billing-fields'
import { RecordHeader } from '~/components/record-header'
import { RouteError } from '~/components/route-error'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import { dollarsText } from '~/features/billing/customer-billing.server'
import { draftEditFromForm } from '~/features/billing/draft-edit.server'
import { DraftEditor } from '~/features/billing/draft-editor'
import { InvoiceActions } from '~/features/billing/invoice-actions'
import { InvoiceDocument, InvoicePayments } from '~/features/billing/invoice-document'
import { InvoiceIntentSchema } from '~/features/billing/invoice-intent-schema'
import { InvoiceStatusBadge } from '~/features/billing/invoice-status-badge'
import {
  isVoidable,
  presentInvoiceDocument,
  presentInvoicePayments,
  refundableCents,
} from '~/features/billing/invoice-view'
import { recordPaymentFromForm } from '~/features/billing/record-payment.server'
import { RefundConfirmCard } from '~/features/billing/refund-confirm'
import { RefundSchema } from '~/features/billing/refund-form'
import { VoidPaymentConfirmCard } from '~/features/billing/void-payment-confirm'
import { requestRefund } from '~/models/card-payment.server'
import { searchInventory } from '~/models/inventory.server'
import { getInvoice, voidInvoice } from '~/models/invoice.server'
import { sendInvoice } from '~/models/invoice-send.server'
import { voidPayment } from '~/models/payment.server'
import { localDateAt } from '~/schedule/local-date'
import { formatLocalDate } from '~/utils/dates'
import { redirectWithFlash } from '~/utils/flash.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { formatCents } from '~/utils/money'
import { portalInvoicePath } from '~/utils/portal-paths'
import type { Failure } from '~/utils/result'
import type { Route } from './+types/invoice'

/** The invoice as this member's company has it, or a 404. */
async function requireInvoice(member: CompanyMember, invoiceId: string) {
  const today = localDateAt(new Date(), member.timezone)
  const invoice = await getInvoice({ companyId: member.companyId, invoiceId, today })
  if (!invoice) notFound()
  return { invoice, today }
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'billing:manage')
  const { invoice, today } = await requireInvoice(member, params.invoiceId)
  const url = new URL(request.url)
  // "Refund" asks first (?refund=<payment>): what will go back, all of what is left or part of it.
  const refundPayment = invoice.payments.find((payment) => payment.id === url.searchParams.get('refund'))
  const refundLeft = refundPayment ? refundableCents(refundPayment) : null
  // "Void payment" asks first too (?void-payment=<payment>), with a reason.
  const voidable = invoice.payments.find(
    (payment) => payment.id === url.searchParams.get('void-payment') && isVoidable(payment),
  )
  return {
    // The draft editor (issue 31 item 1): the lines it may change, the company's stock items for "Add line".
    draftEditor:
      invoice.state === 'draft'
        ? {
            lines: invoice.lines
              .filter((line) => line.kind !== 'tax')
              .map((line) => ({
                id: line.id,
                kind: line.kind,
                description: line.description,
                quantity: line.quantity.includes('.')
                  ? line.quantity.replace(/0+$/, '').replace(/\.$/, '')
                  : line.quantity,
                unitPrice: dollarsText(Math.abs(line.unitCents)),
              })),
            editLineId: url.searchParams.get('edit'),
            removeLineId: url.searchParams.get('remove'),
            note: invoice.customerNote ?? '',
            items: (await searchInventory({ companyId: member.companyId })).map((item) => ({
              id: item.id,
              label: `${item.name} (${formatCents(item.priceCents)})`,
            })),
          }
        : null,
    invoice: presentInvoiceDocument(invoice),
    customerId: invoice.customerId,
    state: invoice.state,
    payments: presentInvoicePayments(invoice, { forStaff: true }),
    paid: invoice.paidCents > 0 ? formatCents(invoice.paidCents) : null,
    autopayCard: invoice.autopayCardLabel,
    portalPath: invoice.state === 'sent' ? portalInvoicePath(invoice.customerId, invoice.id) : null,
    // Sent to a customer with no email address: on paper, not pretending it was emailed (decision 039).
    notEmailed: invoice.state === 'sent' && invoice.delivery === 'print',
    confirmVoid: url.searchParams.get('confirm') === 'void' && invoice.state !== 'void',
    confirmRefund:
      refundPayment && refundLeft !== null
        ? {
            paymentId: refundPayment.id,
            paid: formatCents(refundPayment.amountCents),
            left: formatCents(refundLeft),
            defaultAmount: dollarsText(refundLeft),
          }
        : null,
    confirmVoidPayment: voidable
      ? {
          paymentId: voidable.id,
          amount: formatCents(voidable.amountCents),
          description: [
            formatLocalDate(voidable.receivedOn),
            PAYMENT_METHOD_LABELS[voidable.method],
            voidable.reference,
          ]
            .filter(Boolean)
            .join(' · '),
        }
      : null,
    // Money is recorded against sent invoices only (a draft is sent first; a void one's money is account credit).
    recordPayment:
      invoice.state === 'sent'
        ? {
            today,
            // The form opens from "Record payment" (?record=payment); its amount starts empty, "Pay in full" fills
            // this.
            open: url.searchParams.get('record') === 'payment',
            fullAmount: invoice.outstandingCents > 0 ? dollarsText(invoice.outstandingCents) : '',
            idempotencyKey: crypto.randomUUID(),
            // Changes with every payment recorded: the form starts afresh (a new key) after one is saved.
            formKey: `payments-${invoice.payments.length}`,
          }
        : null,
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'billing:manage')
  const formData = await readForm(request)
  // Another company's invoice is answered before anything is read from the form, exactly as a missing one.
  const { invoice } = await requireInvoice(member, params.invoiceId)
  const parsed = InvoiceIntentSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) unknownIntent()
  const { intent } = parsed.data
  const back = `/app/invoices/${invoice.id}`
  const refuse = (refusal: Failure) => data({ intent, message: refusal.message }, refusalStatus(refusal))
  switch (intent) {
    case 'send': {
      const sent = await sendInvoice({ companyId: member.companyId, invoiceId: invoice.id })
      if (!sent.ok) return refuse(sent)
      return redirectWithFlash(back, `Sent ${invoice.numberLabel}.`)
    }
    case 'record-payment': {
      const refused = await recordPaymentFromForm({
        member,
        customerId: invoice.customerId,
        invoiceId: invoice.id,
        formData,
        back,
      })
      return data({ intent, message: null, result: refused.result }, refused.status)
    }
    case 'refund': {
      const form = RefundSchema.safeParse(Object.fromEntries(formData))
      if (!form.success) {
        return data({ intent, message: form.error.issues[0]?.message ?? 'Check the refund.' }, 400)
      }
      const refunded = await requestRefund({
        companyId: member.companyId,
        invoiceId: invoice.id,
        paymentId: form.data.paymentId,
        amountCents: form.data.amount,
        requestedBy: member.id,
      })
      if (!refunded.ok) return refuse(refunded)
      return redirectWithFlash(back, refunded.message)
    }
    case 'void-payment': {
      const voided = await voidPayment({
        companyId: member.companyId,
        invoiceId: invoice.id,
        paymentId: String(formData.get('paymentId') ?? ''),
        reason: String(formData.get('reason') ?? ''),
        voidedBy: member.id,
      })
      if (!voided.ok) return refuse(voided)
      return redirectWithFlash(back, `Payment of ${formatCents(voided.amountCents)} voided.`)
    }
    case 'add-line':
    case 'edit-line':
    case 'remove-line':
    case 'add-discount':
    case 'save-note':
    case 'reissue': {
      const refused = await draftEditFromForm({ member, invoice, intent, formData })
      if ('refusal' in refused) return refuse(refused.refusal)
      return data({ intent, message: refused.message }, 400)
    }
    case 'void': {
      const voided = await voidInvoice({ companyId: member.companyId, invoiceId: invoice.id })
      if (!voided.ok) return refuse(voided)
      return redirectWithFlash(back, `Voided ${invoice.numberLabel}.`)
    }
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.invoice.numberLabel ?? 'Invoice'} · Pool Bud` }]
}

const linkClass = cn('font-medium text-brand-700 hover:underline', textLinkTarget)

export default function InvoicePage({ loaderData, actionData }: Route.ComponentProps) {
  const { invoice } = loaderData
  return (
    <div className="space-y-6">
      <RecordHeader
        back="/app/billing"
        backLabel="Billing"
        title={invoice.numberLabel}
        badge={<InvoiceStatusBadge status={invoice.status} className="text-sm" />}
      >
        <p className="text-lg">
          {invoice.totals.dueOnSending ? 'Total due on sending' : 'Amount due'}{' '}
          <span className="font-semibold tabular-nums">{invoice.totals.dueOnSending ?? invoice.totals.amountDue}</span>
          {loaderData.autopayCard && invoice.owes ? (
            <span className="text-sm text-slate-600"> · autopay with {loaderData.autopayCard}</span>
          ) : null}
        </p>
        {loaderData.portalPath ? (
          <Link to={loaderData.portalPath} className={cn('text-sm print:hidden', linkClass)}>
            As the customer sees it
          </Link>
        ) : null}
        {loaderData.notEmailed ? <p className="text-sm font-medium text-amber-800">Not emailed — print</p> : null}
        {/* A download, not a page: the browser fetches it outside the router (issue 31 item 4). */}
        <a href={`/app/invoices/${invoice.id}.pdf`} download className={cn('text-sm print:hidden', linkClass)}>
          Download PDF
        </a>
      </RecordHeader>
      <InvoiceDocument
        invoice={invoice}
        customer={
          <Link to={`/app/customers/${loaderData.customerId}`} className={linkClass}>
            {invoice.customerName}
          </Link>
        }
      />
      {loaderData.draftEditor ? (
        <DraftEditor
          editor={loaderData.draftEditor}
          refusal={actionData && 'message' in actionData ? actionData : undefined}
        />
      ) : null}
      <InvoicePayments payments={loaderData.payments} />
      <VoidPaymentConfirmCard
        invoiceId={invoice.id}
        confirm={loaderData.confirmVoidPayment}
        refusal={actionData?.intent === 'void-payment' ? (actionData.message ?? null) : null}
      />
      <RefundConfirmCard
        invoiceId={invoice.id}
        confirm={loaderData.confirmRefund}
        refusal={actionData?.intent === 'refund' ? (actionData.message ?? null) : null}
      />
      <InvoiceActions
        numberLabel={invoice.numberLabel}
        state={loaderData.state}
        paid={loaderData.paid}
        confirmVoid={loaderData.confirmVoid}
        recordPayment={loaderData.recordPayment}
        refusal={actionData}
      />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
