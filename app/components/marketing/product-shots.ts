// The product screenshots on the landing page: real screens of the demo company, captured by
// scripts/capture-product-shots.ts and encoded by scripts/build-marketing-images.ts into public/marketing/.
import versions from './image-versions.json'

/** The URL of a file in public/marketing/, with its content hash: it is served with a one-year cache. */
export function marketingImageUrl(file: string) {
  const version = (versions as Record<string, string>)[file]
  if (!version) throw new Error(`No marketing image ${file}: run npm run marketing:images`)
  return `/marketing/${file}?v=${version}`
}

export type ProductShot = {
  name: string
  alt: string
  caption: string
  /** Intrinsic size of the widest variant's aspect, for width/height attributes (no layout shift). */
  width: number
  height: number
  /** The encoded widths, in px. */
  widths: readonly number[]
}

export const PRODUCT_SHOTS: readonly ProductShot[] = [
  {
    name: 'dispatch',
    alt: 'The dispatcher’s dashboard: counts of unassigned, today’s, overdue and upcoming jobs, a create-job form and the unassigned jobs list',
    caption: 'The dispatch board: every unassigned visit, assigned or moved in one step.',
    width: 1280,
    height: 800,
    widths: [480, 800, 1280],
  },
  {
    name: 'technician',
    alt: 'A technician’s job page on a phone: dosing advice for muriatic acid, liquid chlorine and sodium bicarbonate, and the reading marked pH high, chlorine low',
    caption: 'On the phone: what is off, and how much of what to add.',
    width: 390,
    height: 844,
    widths: [300, 600],
  },
  {
    name: 'portal',
    alt: 'The customer portal: next visit, completed visits, latest chemistry with its status, and the visit history',
    caption: 'The customer’s portal: every visit, reading and photo.',
    width: 1280,
    height: 800,
    widths: [480, 800, 1280],
  },
]
