// GET /app/customers/picker?q=…: the new-visit form's customer combobox asks this as the dispatcher types. Active
// customers of the dispatcher's company only (pickCustomers), best match first, each with their locations in use.
import { data } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import type { PickedCustomer } from '~/features/customers/customer-picker'
import { pickCustomers } from '~/models/customer-search.server'
import { formatPhone } from '~/utils/phone'
import type { Route } from './+types/customer-picker'

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId } = await requireCompanyCapability(request, 'visits:manage')
  const query = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 100)
  const found = await pickCustomers({ companyId, query })
  const customers: PickedCustomer[] = found.map((customer) => ({
    id: customer.id,
    customerName: customer.customerName,
    detail: [customer.locations[0]?.address, customer.email, customer.phone ? formatPhone(customer.phone) : null]
      .filter(Boolean)
      .join(' · '),
    locations: customer.locations,
  }))
  // Typed text is private to the office: never kept by a shared cache.
  return data({ query, customers }, { headers: { 'Cache-Control': 'private, no-store' } })
}
