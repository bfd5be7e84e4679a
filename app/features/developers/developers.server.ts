// The actions of Settings → "API keys" and "Webhooks" (owners and admins): each parses its form's schema and
// calls the model; a refusal shows at its field.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { createApiKey, revokeApiKey } from '~/models/api-key.server'
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  resendDelivery,
  sendTestEvent,
  updateWebhookEndpoint,
} from '~/models/webhook.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { failureStatus } from '~/utils/result'
import {
  AddEndpointSchema,
  CreateApiKeySchema,
  EndpointActionSchema,
  ResendSchema,
  RevokeApiKeySchema,
} from './developer-schemas'

const API_KEYS_PATH = '/app/settings/api-keys'
const WEBHOOKS_PATH = '/app/settings/webhooks'

export async function createApiKeyForm(member: { companyId: string; id: string }, formData: FormData) {
  const submission = parseWithZod(formData, { schema: CreateApiKeySchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const created = await createApiKey({ companyId: member.companyId, createdBy: member.id, input: submission.value })
  if (!created.ok) {
    return data({ result: submission.reply({ fieldErrors: { name: [created.message] } }) }, { status: 400 })
  }
  // Shown once, in this answer only: the page never has it again.
  return { result: submission.reply({ resetForm: true }), created: { name: submission.value.name, key: created.key } }
}

export async function revokeApiKeyForm(companyId: string, formData: FormData) {
  const parsed = RevokeApiKeySchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) return data({ error: 'Choose a key to revoke.' }, { status: 400 })
  const revoked = await revokeApiKey({ companyId, keyId: parsed.data.keyId })
  if (!revoked.ok) return data({ error: revoked.message }, { status: failureStatus(revoked) })
  return redirectWithFlash(API_KEYS_PATH, 'API key revoked. Requests sending it are refused from now on.')
}

export async function addEndpointForm(companyId: string, formData: FormData) {
  const submission = parseWithZod(formData, { schema: AddEndpointSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const created = await createWebhookEndpoint({ companyId, ...submission.value })
  if (!created.ok) {
    return data({ result: submission.reply({ fieldErrors: { url: [created.message] } }) }, { status: 400 })
  }
  return {
    result: submission.reply({ resetForm: true }),
    created: { url: created.endpoint.url, secret: created.secret },
  }
}

export async function endpointForm(
  companyId: string,
  intent: 'endpoint-test' | 'endpoint-delete' | 'endpoint-enable' | 'endpoint-resend',
  formData: FormData,
) {
  const values = Object.fromEntries(formData)
  if (intent === 'endpoint-resend') {
    const parsed = ResendSchema.safeParse(values)
    if (!parsed.success) return data({ error: 'Choose a delivery to resend.' }, { status: 400 })
    const resent = await resendDelivery({ companyId, deliveryId: parsed.data.deliveryId })
    if (!resent.ok) return data({ error: resent.message }, { status: failureStatus(resent) })
    return redirectWithFlash(WEBHOOKS_PATH, 'Event queued to be sent again (same event id).')
  }
  const parsed = EndpointActionSchema.safeParse(values)
  if (!parsed.success) return data({ error: 'Choose an endpoint.' }, { status: 400 })
  const endpointId = parsed.data.endpointId
  const outcome =
    intent === 'endpoint-test'
      ? await sendTestEvent({ companyId, endpointId })
      : intent === 'endpoint-delete'
        ? await deleteWebhookEndpoint({ companyId, endpointId })
        : await updateWebhookEndpoint({ companyId, endpointId, changes: { status: 'active' } })
  if (!outcome.ok) return data({ error: outcome.message }, { status: failureStatus(outcome) })
  const message = {
    'endpoint-test': 'Test event queued; it shows in the delivery log once sent.',
    'endpoint-delete': 'Endpoint deleted.',
    'endpoint-enable': 'Endpoint turned on again.',
  }[intent]
  return redirectWithFlash(WEBHOOKS_PATH, message)
}
