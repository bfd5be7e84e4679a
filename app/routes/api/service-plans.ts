// GET /api/v1/service-plans: docs/api.md.
import { answer, apiJson, cursorOf, guard, readQuery } from '~/features/api/api-handler.server'
import { ServicePlanListQuery } from '~/features/api/api-schemas'
import { apiListServicePlans } from '~/models/api-schedule.server'
import type { Route } from './+types/service-plans'

export function loader({ request }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const query = readQuery(request, ServicePlanListQuery)
    return apiJson(caller, await apiListServicePlans(caller.companyId, { ...query, cursor: cursorOf(query) }))
  })
}
