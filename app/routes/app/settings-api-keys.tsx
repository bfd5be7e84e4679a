// /app/settings/api-keys: Settings → "API keys" (owners and admins; docs/decisions/050-public-api.md).
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { ApiKeysSection } from '~/features/developers/api-keys-section'
import { createApiKeyForm, revokeApiKeyForm } from '~/features/developers/developers.server'
import { listApiKeys } from '~/models/api-key.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import type { Route } from './+types/settings-api-keys'

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'api:manage')
  const keys = await listApiKeys(member.companyId)
  return {
    keys: keys.map((key) => ({
      ...key,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    })),
  }
}

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'api:manage')
  const formData = await readForm(request)
  switch (formData.get('intent')) {
    case 'create':
      return createApiKeyForm(member, formData)
    case 'revoke':
      return revokeApiKeyForm(member.companyId, formData)
  }
  return unknownIntent()
}

export function meta() {
  return [{ title: 'API keys · Settings · Pool Bud' }]
}

export default function ApiKeysPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <p className="text-sm">
        <a href="/app/settings" className="underline">
          ← Settings
        </a>
      </p>
      <ApiKeysSection
        keys={loaderData.keys}
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
