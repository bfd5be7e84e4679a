// GET /api/v1/technicians/{technicianId}: docs/api.md.
import { answer, apiJson, guard, notFoundError } from '~/features/api/api-handler.server'
import { apiGetTechnician } from '~/models/api-schedule.server'
import type { Route } from './+types/technician'

export function loader({ request, params }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const found = await apiGetTechnician(caller.companyId, params.technicianId)
    return found ? apiJson(caller, found) : notFoundError('Technician')
  })
}
