import { PUBLIC_PAGES } from '~/components/marketing/page-meta'
import { env } from '~/utils/env.server'

/** GET /sitemap.xml: the public pages, for search engines. Private pages are never listed. */
export function loader() {
  const origin = env().APP_URL
  const urls = PUBLIC_PAGES.map((path) => `  <url><loc>${origin}${path}</loc></url>`).join('\n')
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls}
</urlset>
`
  return new Response(body, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
