// GET /api/v1/customers/{customerId} and PATCH (contact fields; those left out keep their value): docs/api.md.
import {
  answer,
  apiJson,
  failureResponse,
  guard,
  idempotentWrite,
  notFoundError,
  readBody,
} from '~/features/api/api-handler.server'
import { CustomerUpdateBody } from '~/features/api/api-schemas'
import { apiGetCustomer } from '~/models/api-customers.server'
import { updateCustomerContact } from '~/models/customer-changes.server'
import type { Route } from './+types/customer'

export function loader({ request, params }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const customer = await apiGetCustomer(caller.companyId, params.customerId)
    return customer ? apiJson(caller, customer) : notFoundError('Customer')
  })
}

export function action({ request, params }: Route.ActionArgs) {
  return answer(async () => {
    const caller = await guard(request, ['PATCH'])
    const { raw } = await readBody(request, CustomerUpdateBody)
    return idempotentWrite(request, caller, raw, async (tx) => {
      const current = await apiGetCustomer(caller.companyId, params.customerId, tx)
      if (!current) return notFoundError('Customer')
      const { customerName, email, phone, billingAddress, notes } = current
      const input = { customerName, email, phone, billingAddress, notes, ...(raw as object) }
      const updated = await updateCustomerContact({ companyId: caller.companyId, customerId: current.id, input }, tx)
      if (!updated.ok) return failureResponse(updated)
      return { ok: true, status: 200, body: await apiGetCustomer(caller.companyId, current.id, tx) }
    })
  })
}
