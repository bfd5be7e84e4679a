// /app/customers: the customer list (docs/product.md "Customers"). Search, "Active" / "Archived", one page at a time;
// each row links to the customer's record and can send the portal invite. Adding a customer is its own page.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { ListSearchForm } from '~/components/list-search-form'
import { RouteError } from '~/components/route-error'
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { loadCustomerDirectory } from '~/features/customers/customer-directory.server'
import { InviteCustomerSchema } from '~/features/customers/customer-invite-schema'
import { CustomerList, type InviteReply, StatusFilter } from '~/features/customers/customer-list'
import { sendPortalInvite } from '~/features/customers/portal-invite.server'
import { getCustomer } from '~/models/customer.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { preparedLoader } from '~/utils/prepared-statements.server'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/customers'

// Customers page access is tied to the profile's company (docs/product.md "Roles", "Forms"): a member without one gets
// the 403 card.
export const loader = preparedLoader(async ({ request }: Route.LoaderArgs) => {
  const member = await requireCompanyCapability(request, 'customers:manage')
  return loadCustomerDirectory({ companyId: member.companyId, timezone: member.timezone, url: new URL(request.url) })
})

export async function action({ request }: Route.ActionArgs) {
  const { companyId } = await requireCompanyCapability(request, 'customers:manage')
  const submission = parseWithZod(await readForm(request), { schema: InviteCustomerSchema })
  if (submission.status !== 'success') unknownIntent()
  const { intent, customerId } = submission.value
  const customer = await getCustomer({ companyId, customerId })
  if (!customer) notFound()
  if (!customer.email) {
    return data<InviteReply>(
      { intent, customerId, ok: false, message: 'Add an email address for this customer first.' },
      400,
    )
  }
  const invite = await sendPortalInvite(companyId, customer.id)
  return data<InviteReply>(
    { intent, customerId, ok: invite.ok, message: invite.message },
    invite.ok ? 200 : failureStatus(invite),
  )
}

export function meta() {
  return [{ title: 'Customers · Pool Bud' }]
}

export default function CustomersPage({ loaderData: data }: Route.ComponentProps) {
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
      {data.placing > 0 ? (
        <p role="status" className="text-sm text-slate-700">
          Placing addresses on the map: {data.placing} to go. Until then they are routed at their ZIP center.
        </p>
      ) : null}
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
