// /developers: the API reference, drawn by our own page from the OpenAPI document (no CDN, no viewer script).
import { ApiReference, type ReferenceDocument } from '~/features/api/api-reference'
import { openApiDocument } from '~/features/api/openapi.server'
import { env } from '~/utils/env.server'
import type { Route } from './+types/developers'

export function loader() {
  return { document: openApiDocument(env().APP_URL) as unknown as ReferenceDocument }
}

export function meta() {
  return [
    { title: 'Developers · Pool Bud API' },
    { name: 'description', content: 'The Pool Bud REST API and webhooks reference.' },
  ]
}

export default function Developers({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl space-y-8 px-4 py-10">
      <header className="space-y-3">
        <h1 className="text-3xl font-bold">Pool Bud API</h1>
        <p className="text-slate-700">
          Every company can connect its own tools: create a key in Settings → API keys, send it as{' '}
          <code>Authorization: Bearer pb_live_…</code>, and receive signed webhook events (Settings → Webhooks). Lists
          take <code>limit</code> (up to 100) and the <code>cursor</code> of the previous page; writes take an{' '}
          <code>Idempotency-Key</code>; each key may make 600 requests a minute, 50 at once. Errors are{' '}
          <code>{'{ "error": { "code", "message" } }'}</code>.
        </p>
      </header>
      <ApiReference document={loaderData.document} />
    </div>
  )
}
