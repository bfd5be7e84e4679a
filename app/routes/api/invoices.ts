// GET /api/v1/invoices: docs/api.md.
import { answer, apiJson, cursorOf, guard, readQuery } from '~/features/api/api-handler.server'
import { InvoiceListQuery } from '~/features/api/api-schemas'
import { apiListInvoices } from '~/models/api-billing.server'
import type { Route } from './+types/invoices'

export function loader({ request }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const query = readQuery(request, InvoiceListQuery)
    return apiJson(caller, await apiListInvoices(caller.companyId, { ...query, cursor: cursorOf(query) }))
  })
}
