// GET, PATCH and DELETE /api/v1/webhook-endpoints/{endpointId}: docs/api.md.
import {
  answer,
  apiJson,
  failureResponse,
  guard,
  idempotentWrite,
  notFoundError,
  readBody,
} from '~/features/api/api-handler.server'
import { WebhookEndpointUpdateBody } from '~/features/api/api-schemas'
import { deleteWebhookEndpoint, endpointOut, getWebhookEndpoint, updateWebhookEndpoint } from '~/models/webhook.server'
import type { Route } from './+types/webhook-endpoint'

export function loader({ request, params }: Route.LoaderArgs) {
  return answer(async () => {
    const caller = await guard(request, ['GET'])
    const endpoint = await getWebhookEndpoint(caller.companyId, params.endpointId)
    return endpoint ? apiJson(caller, endpointOut(endpoint)) : notFoundError('Webhook endpoint')
  })
}

export function action({ request, params }: Route.ActionArgs) {
  return answer(async () => {
    const caller = await guard(request, ['PATCH', 'DELETE'])
    if (request.method === 'DELETE') {
      const deleted = await deleteWebhookEndpoint({ companyId: caller.companyId, endpointId: params.endpointId })
      return deleted.ok ? new Response(null, { status: 204, headers: caller.rateHeaders }) : failureResponse(deleted)
    }
    const { raw, data } = await readBody(request, WebhookEndpointUpdateBody)
    return idempotentWrite(request, caller, raw, async (tx) => {
      const updated = await updateWebhookEndpoint(
        { companyId: caller.companyId, endpointId: params.endpointId, changes: data },
        tx,
      )
      if (!updated.ok) return failureResponse(updated)
      return { ok: true, status: 200, body: endpointOut(updated.endpoint) }
    })
  })
}
