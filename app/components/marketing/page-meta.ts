// Title, description, canonical link and Open Graph tags of a public page, from one place, so every page has them
// all and a shared preview (chat apps, social sites) shows the page's own words and the product's own image.
import type { MetaDescriptor } from 'react-router'
import { marketingImageUrl } from './product-shots'

/** The marketing layout's loader id: its data carries the site's public origin (APP_URL). */
const LAYOUT_ID = 'routes/marketing/layout'

type MatchLike = { id: string; data?: unknown } | undefined

/** Every public page, for the sitemap (and the audit script). */
export const PUBLIC_PAGES = ['/', '/features', '/services', '/pricing', '/about'] as const

export const OG_IMAGE = { path: marketingImageUrl('og-image.png'), width: 1200, height: 630 } as const

export function pageMeta({
  title,
  description,
  path,
  matches,
}: {
  title: string
  description: string
  path: (typeof PUBLIC_PAGES)[number]
  matches: MatchLike[]
}): MetaDescriptor[] {
  const layout = matches.find((match) => match?.id === LAYOUT_ID)?.data as { origin?: string } | undefined
  const origin = layout?.origin ?? ''
  const url = `${origin}${path}`
  return [
    { title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: 'Pool Bud' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: `${origin}${OG_IMAGE.path}` },
    { property: 'og:image:width', content: String(OG_IMAGE.width) },
    { property: 'og:image:height', content: String(OG_IMAGE.height) },
    { property: 'og:image:alt', content: 'Pool Bud: scheduling, water chemistry, photos and a customer portal' },
    { name: 'twitter:card', content: 'summary_large_image' },
  ]
}
