// GET /api/v1/payments/{paymentId}: docs/api.md.
import { answer, apiJson, guard, notFoundError } from '~/features/api/api-handler.server'
import { apiGetPayment } from '~/models/api-billing.server'
import type { Route } from './+types/payment'

export function loader({ request, params }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const found = await apiGetPayment(caller.companyId, params.paymentId)
    return found ? apiJson(caller, found) : notFoundError('Payment')
  })
}
