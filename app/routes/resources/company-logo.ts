// GET /logo/<token>.<png|jpg> — a company's logo, as its portal shows it (docs/decisions/044-company-brand.md).
// Deliberately public: the portal's customers (and anyone they forward a page to) load it without a staff session;
// the unguessable token (128 random bits, a new one per upload) is what keeps one company from finding another's
// logo. An old, removed or guessed address is the same plain 404.
import { notFoundResponse } from '~/auth/guards.server'
import { getPublicLogo } from '~/models/company-brand.server'
import type { Route } from './+types/company-logo'

export async function loader({ params }: Route.LoaderArgs) {
  const logo = await getPublicLogo(params.file)
  if (!logo) return notFoundResponse('Logo not found.')
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      'Content-Type': logo.contentType,
      'Content-Length': String(logo.bytes.byteLength),
      // A new upload is a new address, so what one address shows never changes.
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
      'X-Robots-Tag': 'noindex',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    },
  })
}
