// GET /api/v1/service-plans/{planId}: docs/api.md.
import { answer, apiJson, guard, notFoundError } from '~/features/api/api-handler.server'
import { apiGetServicePlan } from '~/models/api-schedule.server'
import type { Route } from './+types/service-plan'

export function loader({ request, params }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const found = await apiGetServicePlan(caller.companyId, params.planId)
    return found ? apiJson(caller, found) : notFoundError('Service plan')
  })
}
