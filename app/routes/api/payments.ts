// GET /api/v1/payments: docs/api.md.
import { answer, apiJson, cursorOf, guard, readQuery } from '~/features/api/api-handler.server'
import { PaymentListQuery } from '~/features/api/api-schemas'
import { apiListPayments } from '~/models/api-billing.server'
import type { Route } from './+types/payments'

export function loader({ request }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const query = readQuery(request, PaymentListQuery)
    return apiJson(caller, await apiListPayments(caller.companyId, { ...query, cursor: cursorOf(query) }))
  })
}
