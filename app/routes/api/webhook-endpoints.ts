// GET /api/v1/webhook-endpoints and POST (the secret is in the answer once): docs/api.md.
import {
  answer,
  apiJson,
  cursorOf,
  failureResponse,
  guard,
  idempotentWrite,
  readBody,
  readQuery,
} from '~/features/api/api-handler.server'
import { PageQuery, WebhookEndpointCreateBody } from '~/features/api/api-schemas'
import { encodeCursor } from '~/models/api-paging.server'
import { createWebhookEndpoint, endpointOut, listWebhookEndpoints } from '~/models/webhook.server'
import type { Route } from './+types/webhook-endpoints'

export function loader({ request }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const query = readQuery(request, PageQuery)
    const cursor = cursorOf(query)
    const rows = await listWebhookEndpoints(caller.companyId, {
      limit: query.limit + 1,
      after: cursor ? { createdAt: new Date(cursor.createdAt), id: cursor.id } : undefined,
    })
    const data = rows.slice(0, query.limit)
    const last = data[data.length - 1]
    return apiJson(caller, {
      data: data.map(endpointOut),
      nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
    })
  })
}

export function action({ request }: Route.ActionArgs) {
  return answer(async () => {
    const caller = await guard(request, ['POST'])
    const { raw, data } = await readBody(request, WebhookEndpointCreateBody)
    return idempotentWrite(request, caller, raw, async (tx) => {
      const created = await createWebhookEndpoint({ companyId: caller.companyId, ...data }, tx)
      if (!created.ok) return failureResponse(created)
      return { ok: true, status: 201, body: { ...endpointOut(created.endpoint), secret: created.secret } }
    })
  })
}
