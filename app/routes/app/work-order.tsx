// /app/work-orders/:workOrderId: one work order in the office (issue 33 items 4 and 6, docs/work-orders.md): the
// customer, the quote (the version approved), the visits, the parts to fit and the parts used, the notes; "Complete
// work order" once every visit is done, and "Create invoice" (once; asked first while the work order is open).
// Another company's work order is a 404.
import { Link, useLocation } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { ConfirmForm } from '~/components/confirm-buttons'
import { RouteError } from '~/components/route-error'
import { StatusPill } from '~/components/status-badge'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'
import { textLinkTarget } from '~/components/ui/touch'
import { visitHref } from '~/features/visits/back-link'
import { loadWorkOrderPage, workOrderAction } from '~/features/work-orders/work-order-page.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import type { Route } from './+types/work-order'

export async function loader({ request, params }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'quotes:manage')
  return loadWorkOrderPage(member, params.workOrderId)
}

export async function action({ request, params }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'quotes:manage')
  const formData = await readForm(request)
  const answer = await workOrderAction(member, params.workOrderId, String(formData.get('intent') ?? ''))
  return answer ?? unknownIntent()
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Work order ${data.workOrder.numberLabel} · Pool Bud` : 'Work order · Pool Bud' }]
}

function Lines({ lines, empty }: { lines: { id: string; description: string; quantity: string }[]; empty: string }) {
  if (!lines.length) return <p className="text-sm text-slate-700">{empty}</p>
  return (
    <ul className="list-disc space-y-1 pl-5 text-sm">
      {lines.map((line) => (
        <li key={line.id} className="wrap-anywhere">
          {line.quantity} × {line.description}
        </li>
      ))}
    </ul>
  )
}

export default function WorkOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { workOrder: order, canInvoice } = loaderData
  const error = actionData && 'error' in actionData ? actionData.error : null
  // A visit's page leads back here ("Back to work order").
  const { pathname } = useLocation()
  return (
    <div className="space-y-5">
      <Link to="/app/work-orders" className={`text-sm underline ${textLinkTarget}`}>
        ← Work orders
      </Link>
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Work order {order.numberLabel}</h1>
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-sm">
          {order.state === 'completed' ? `Completed ${order.completed ?? ''}` : 'Open'}
        </span>
      </header>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Card className="space-y-2" aria-labelledby="work-order-summary-heading">
        <h2 id="work-order-summary-heading" className="text-lg font-semibold">
          Summary
        </h2>
        <p className="text-sm">
          Customer:{' '}
          <Link to={`/app/customers/${order.customerId}`} className={`underline ${textLinkTarget}`}>
            {order.customerName}
          </Link>
        </p>
        <p className="text-sm">
          Quote:{' '}
          <Link to={`/app/quotes/${order.quoteId}?version=${order.version}`} className={`underline ${textLinkTarget}`}>
            {order.quoteLabel}, version {order.version} (approved)
          </Link>
          {order.approvedTotal ? ` · approved total ${order.approvedTotal}` : ''}
          {order.deposit ? ` · deposit received ${order.deposit}` : ''}
        </p>
        {order.equipment ? (
          <p className="text-sm">
            For:{' '}
            <Link to={`/app/equipment/${order.equipment.id}`} className={`underline wrap-anywhere ${textLinkTarget}`}>
              {order.equipment.label}
            </Link>
            {order.equipment.underWarranty ? (
              <span className="ml-2">
                <StatusPill tone="green">Under warranty</StatusPill>
              </span>
            ) : null}
          </p>
        ) : null}
        {order.template ? <p className="text-sm">Template: {order.template}</p> : null}
        {order.notes ? <p className="text-sm wrap-anywhere">Notes: {order.notes}</p> : null}
      </Card>
      <Card className="space-y-2" aria-labelledby="work-order-visits-heading">
        <h2 id="work-order-visits-heading" className="text-lg font-semibold">
          Visits
        </h2>
        <ul className="divide-y divide-slate-200">
          {order.visits.map((visit) => (
            <li key={visit.visitId} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div className="min-w-0">
                <Link to={visitHref(visit.visitId, pathname)} className={`font-medium underline ${textLinkTarget}`}>
                  {visit.position}. {visit.title}
                </Link>
                <p className="text-slate-700">
                  {visit.when} · {visit.technician}
                </p>
              </div>
              <span>{visit.status}</span>
            </li>
          ))}
        </ul>
      </Card>
      <Card className="space-y-2" aria-labelledby="work-order-parts-heading">
        <h2 id="work-order-parts-heading" className="text-lg font-semibold">
          Parts list
        </h2>
        <Lines lines={order.parts} empty="The approved quote names no parts." />
        <h3 className="pt-2 font-semibold">Parts used</h3>
        {order.partsUsed.length ? (
          <ul className="space-y-1 text-sm">
            {order.partsUsed.map((part) => (
              <li key={part.id} className="wrap-anywhere">
                {part.quantity} × {part.description} at {part.unitPrice} · {part.recorded}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">None recorded yet.</p>
        )}
      </Card>
      <Card className="space-y-3" aria-labelledby="work-order-actions-heading">
        <h2 id="work-order-actions-heading" className="text-lg font-semibold">
          Finish and bill
        </h2>
        {order.state === 'open' ? (
          order.allVisitsDone ? (
            <ConfirmForm
              fields={{ intent: 'complete' }}
              label="Complete work order"
              variant="primary"
              question={`Complete work order ${order.numberLabel}? Parts can no longer be recorded on it.`}
              confirm="Yes, complete"
            />
          ) : (
            <p className="text-sm text-slate-700">
              “Complete work order” is available once every visit is completed or canceled.
            </p>
          )
        ) : null}
        {order.invoiceId ? (
          <p className="text-sm">
            <Link to={`/app/invoices/${order.invoiceId}`} className={`underline ${textLinkTarget}`}>
              Open invoice {order.invoiceLabel}
            </Link>
          </p>
        ) : canInvoice ? (
          <ConfirmForm
            fields={{ intent: 'create-invoice' }}
            label="Create invoice"
            question={
              order.state === 'open'
                ? 'This work order is still open: invoice it now? Parts recorded later will not be on the invoice.'
                : `Create the invoice for work order ${order.numberLabel}?`
            }
            confirm="Yes, create invoice"
          />
        ) : (
          <p className="text-sm text-slate-700">An owner or admin creates the invoice.</p>
        )}
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
