// GET /api/v1/invoices/{invoiceId}: docs/api.md.
import { answer, apiJson, guard, notFoundError } from '~/features/api/api-handler.server'
import { apiGetInvoice } from '~/models/api-billing.server'
import type { Route } from './+types/invoice'

export function loader({ request, params }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const found = await apiGetInvoice(caller.companyId, params.invoiceId)
    return found ? apiJson(caller, found) : notFoundError('Invoice')
  })
}
