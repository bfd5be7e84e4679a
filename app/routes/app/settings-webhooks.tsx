// /app/settings/webhooks: Settings → "Webhooks" (owners and admins; docs/decisions/051-webhooks.md).
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { addEndpointForm, endpointForm } from '~/features/developers/developers.server'
import { WebhooksSection } from '~/features/developers/webhooks-section'
import { listEndpointsWithLog } from '~/models/webhook.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import type { Route } from './+types/settings-webhooks'

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'api:manage')
  return { endpoints: await listEndpointsWithLog(member.companyId) }
}

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'api:manage')
  const formData = await readForm(request)
  const intent = formData.get('intent')
  switch (intent) {
    case 'add-endpoint':
      return addEndpointForm(member.companyId, formData)
    case 'endpoint-test':
    case 'endpoint-delete':
    case 'endpoint-enable':
    case 'endpoint-resend':
      return endpointForm(member.companyId, intent, formData)
  }
  return unknownIntent()
}

export function meta() {
  return [{ title: 'Webhooks · Settings · Pool Bud' }]
}

export default function WebhooksPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <p className="text-sm">
        <a href="/app/settings" className="underline">
          ← Settings
        </a>
      </p>
      <WebhooksSection
        endpoints={loaderData.endpoints}
        reply={actionData && 'result' in actionData ? actionData.result : undefined}
        created={actionData && 'created' in actionData ? actionData.created : undefined}
        error={actionData && 'error' in actionData ? actionData.error : undefined}
      />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
