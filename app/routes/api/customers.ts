// GET /api/v1/customers (list, search with q) and POST /api/v1/customers (create): docs/api.md.
import {
  answer,
  apiJson,
  cursorOf,
  failureResponse,
  guard,
  idempotentWrite,
  readBody,
  readQuery,
} from '~/features/api/api-handler.server'
import { CustomerCreateBody, CustomerListQuery } from '~/features/api/api-schemas'
import { apiGetCustomer, apiListCustomers } from '~/models/api-customers.server'
import { createCustomerWithLocation } from '~/models/customer-changes.server'
import type { Route } from './+types/customers'

export function loader({ request }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const query = readQuery(request, CustomerListQuery)
    const page = await apiListCustomers(caller.companyId, { ...query, cursor: cursorOf(query) })
    return apiJson(caller, page)
  })
}

export function action({ request }: Route.ActionArgs) {
  return answer(async () => {
    const caller = await guard(request, ['POST'])
    const { raw } = await readBody(request, CustomerCreateBody)
    return idempotentWrite(request, caller, raw, async (tx) => {
      const created = await createCustomerWithLocation(caller.companyId, raw as never, tx)
      if (!created.ok) return failureResponse(created)
      return { ok: true, status: 201, body: await apiGetCustomer(caller.companyId, created.customerId, tx) }
    })
  })
}
