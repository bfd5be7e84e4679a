// GET /api/v1/technicians: every technician of the company (one page; a company has tens, not thousands).
import { answer, apiJson, guard } from '~/features/api/api-handler.server'
import { apiListTechnicians } from '~/models/api-schedule.server'
import type { Route } from './+types/technicians'

export function loader({ request }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    return apiJson(caller, { data: await apiListTechnicians(caller.companyId), nextCursor: null })
  })
}
