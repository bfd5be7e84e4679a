// GET /api/v1/visits (by date range, technician, status) and POST /api/v1/visits (a one-off visit): docs/api.md.
import {
  answer,
  apiError,
  apiJson,
  cursorOf,
  guard,
  idempotentWrite,
  readBody,
  readQuery,
} from '~/features/api/api-handler.server'
import { VisitCreateBody, VisitListQuery } from '~/features/api/api-schemas'
import { apiGetVisit, apiListVisits } from '~/models/api-schedule.server'
import { createVisit } from '~/models/visit-changes.server'
import type { Route } from './+types/visits'

export function loader({ request }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const query = readQuery(request, VisitListQuery)
    return apiJson(caller, await apiListVisits(caller.companyId, { ...query, cursor: cursorOf(query) }))
  })
}

export function action({ request }: Route.ActionArgs) {
  return answer(async () => {
    const caller = await guard(request, ['POST'])
    const { raw, data } = await readBody(request, VisitCreateBody)
    return idempotentWrite(request, caller, raw, async (tx) => {
      const visit = await createVisit(
        {
          companyId: caller.companyId,
          customerId: data.customerId,
          locationId: data.locationId ?? null,
          scheduledAt: new Date(data.scheduledAt),
          technicianId: data.technicianId ?? null,
          appointment: data.appointment ?? false,
        },
        tx,
      )
      if (!visit) {
        return apiError(
          404,
          'not_found',
          'No active customer, service location or technician of yours has the ids given.',
        )
      }
      return { ok: true, status: 201, body: await apiGetVisit(caller.companyId, visit.id, tx) }
    })
  })
}
