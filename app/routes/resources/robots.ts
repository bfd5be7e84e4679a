import { env } from '~/utils/env.server'

/**
 * GET /robots.txt: the public pages may be indexed; the app, portal, staff area, APIs and sign-in pages may not
 * (they are private or worthless in search results, and are not in the sitemap).
 */
export function loader() {
  const body = `User-agent: *
Allow: /
Disallow: /app
Disallow: /staff
Disallow: /customer/
Disallow: /visits/
Disallow: /api/
Disallow: /dev/
Disallow: /welcome
Disallow: /customer-setup
Disallow: /reset-password

Sitemap: ${env().APP_URL}/sitemap.xml
`
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
