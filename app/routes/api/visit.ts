// GET /api/v1/visits/{visitId}: docs/api.md.
import { answer, apiJson, guard, notFoundError } from '~/features/api/api-handler.server'
import { apiGetVisit } from '~/models/api-schedule.server'
import type { Route } from './+types/visit'

export function loader({ request, params }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const visit = await apiGetVisit(caller.companyId, params.visitId)
    return visit ? apiJson(caller, visit) : notFoundError('Visit')
  })
}
