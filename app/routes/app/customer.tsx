// /app/customers/:customerId: one customer's record (docs/product.md "Customers"). Contact details, each service
// location with what the technician needs at the gate, its bodies of water and their equipment, its service plan, the
// upcoming visits and a page of visit history; its billing — the balance in the header, "Invoices", "Payments" and
// "Record payment" (docs/product.md "Easy to get wrong", app/features/billing/customer-billing.tsx); "Archive customer"
// / "Restore customer". One piece is edited or added at a time: `?edit=…` / `?add=…` opens its form in place (a link,
// so it works before JavaScript and survives a reload); saving redirects back to the record with a message. The pieces
// live in app/features/customers/.
import { requireCompanyCapability } from '~/auth/guards.server'
import { RecordHeader } from '~/components/record-header'
import { RouteError } from '~/components/route-error'
import { AutopayOffice } from '~/features/billing/autopay-office'
import { CustomerBilling, RECORD_PAYMENT_OPEN } from '~/features/billing/customer-billing'
import { ArchiveCard } from '~/features/customers/archive-card'
import { ContactCard } from '~/features/customers/contact-card'
import { loadCustomerRecord } from '~/features/customers/customer-record.server'
import { customerRecordAction } from '~/features/customers/customer-record-actions.server'
import { TaxRateChoices } from '~/features/customers/form-fields'
import { ServiceLocationsSection } from '~/features/customers/service-locations-section'
import { VisitsCard } from '~/features/customers/visits-card'
import { CustomerMessages } from '~/features/notices/customer-messages'
import { NewQuoteButton } from '~/features/quotes/new-quote-button'
import { readForm } from '~/utils/forms'
import type { Route } from './+types/customer'

export async function loader({ request, params }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'customers:manage')
  const record = await loadCustomerRecord(member, params.customerId, new URL(request.url))
  return { ...record, newQuoteKey: crypto.randomUUID() }
}

export async function action({ request, params }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'customers:manage')
  const formData = await readForm(request)
  return customerRecordAction({ request, member, customerId: params.customerId, formData })
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.customer.customerName ?? 'Customer'} · Pool Bud` }]
}

export default function CustomerRecordPage({ loaderData, actionData }: Route.ComponentProps) {
  const { customer, open } = loaderData
  return (
    <div className="space-y-6">
      <RecordHeader
        back="/app/customers"
        backLabel="Customers"
        title={customer.customerName}
        badge={
          customer.archived ? (
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-300">
              Archived{customer.archivedOn ? ` ${customer.archivedOn}` : ''}
            </span>
          ) : null
        }
      >
        {customer.archived ? null : <NewQuoteButton customerId={customer.id} idempotencyKey={loaderData.newQuoteKey} />}
        {customer.balanceDue === null ? null : (
          <dl className="flex items-baseline gap-2">
            <dt className="text-sm font-medium text-slate-500">Balance</dt>
            <dd className="text-lg font-semibold tabular-nums">{customer.balanceDue}</dd>
          </dl>
        )}
      </RecordHeader>
      <ContactCard customer={customer} editing={open.edit === 'contact'} actionData={actionData} />
      <TaxRateChoices.Provider value={loaderData.taxRates}>
        <ServiceLocationsSection
          locations={loaderData.locations}
          open={open}
          technicians={loaderData.technicians}
          today={loaderData.today}
          planDraft={loaderData.planDraft}
          actionData={actionData}
        />
      </TaxRateChoices.Provider>
      <VisitsCard data={loaderData} />
      {loaderData.billing ? (
        <CustomerBilling
          data={loaderData.billing}
          customerId={customer.id}
          formOpen={open.add === RECORD_PAYMENT_OPEN}
          lastResult={actionData?.intent === 'record-payment' ? actionData.result : undefined}
        />
      ) : null}
      <CustomerMessages
        data={loaderData.notices}
        refusal={actionData?.intent === 'notice-preference' ? (actionData.message ?? 'Choose on or off.') : null}
      />
      {loaderData.autopay ? (
        <AutopayOffice customerId={customer.id} autopay={loaderData.autopay} hasEmail={Boolean(customer.email)} />
      ) : null}
      <ArchiveCard customer={customer} upcomingVisits={loaderData.upcomingVisits.length} actionData={actionData} />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
