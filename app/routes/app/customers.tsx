// /app/customers: the customer list (OPERATIONS §2). Search, "Active" / "Archived", one page at a time; each row
// links to the customer's record and can send the portal invite. Adding a customer is its own page.
import { data } from 'react-router'
import { notFound, requireCapability } from '~/auth/guards.server'
import { ListSearchForm } from '~/components/list-search-form'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { type CustomerDirectoryData, loadCustomerDirectory } from '~/features/customers/customer-directory.server'
import { CustomerList, type InviteReply, StatusFilter } from '~/features/customers/customer-list'
import { sendPortalInvite } from '~/features/customers/portal-invite.server'
import { getCustomer } from '~/models/customer.server'
import { readForm } from '~/utils/forms'
import type { Route } from './+types/customers'

const NO_COMPANY_PAGE = "Your profile isn't linked to a company. Contact an owner for access."

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCapability(request, 'customers:manage')
  const companyId = user.company?.id
  // Customers page access is tied to the profile's company (SPEC §6, §8).
  if (!companyId) return data({ kind: 'no-company' as const, message: NO_COMPANY_PAGE })
  return data(await loadCustomerDirectory({ companyId, timezone: user.timezone, url: new URL(request.url) }))
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCapability(request, 'customers:manage')
  const companyId = user.profile?.companyId ?? null
  const formData = await readForm(request)
  const customerId = String(formData.get('customerId') ?? '')
  const refuse = (message: string) => data<InviteReply>({ intent: 'invite', customerId, ok: false, message }, 400)
  if (formData.get('intent') !== 'invite') return refuse('Unknown action.')
  if (!companyId) return refuse('No company context.')
  const customer = await getCustomer({ companyId, customerId })
  if (!customer) notFound()
  if (!customer.email) return refuse('Add an email address for this customer first.')
  const { status, ...result } = await sendPortalInvite(companyId, customer.id)
  return data<InviteReply>({ intent: 'invite', customerId, ...result }, status)
}

export function meta() {
  return [{ title: 'Customers · Pool Bud' }]
}

export default function CustomersPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'no-company') {
    return (
      <Card className="mx-auto max-w-lg space-y-3">
        <h1 className="text-2xl font-bold">Customers</h1>
        <Alert tone="error">{loaderData.message}</Alert>
      </Card>
    )
  }
  return <CustomersScreen data={loaderData} />
}

function CustomersScreen({ data }: { data: CustomerDirectoryData }) {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Customers</h1>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to="/app/customers/new">Add customer</ButtonLink>
          <ButtonLink to="/app/customers/import" variant="secondary">
            Import customers
          </ButtonLink>
          {/* A file download, not a page: the browser fetches it directly. */}
          <a
            href="/app/customers/export.csv"
            className="inline-flex min-h-11 items-center px-2 text-sm font-medium text-brand-700 hover:underline"
            download
          >
            Export customers (CSV)
          </a>
        </div>
      </div>
      <Card className="space-y-4">
        <ListSearchForm
          path="/app/customers"
          id="customer-search"
          label="Search customers"
          placeholder="Name, address, email or phone"
          q={data.q}
          editingId={null}
          hidden={data.status === 'archived' ? { status: 'archived' } : undefined}
        />
        <StatusFilter data={data} />
        <CustomerList data={data} />
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
