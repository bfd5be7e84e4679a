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

export const PRODUCT_SHOTS = [
  {
    name: 'route-day',
    alt: 'A technician’s route for the day: numbered stops with addresses, miles between them and an ETA for each, the “Optimize route” button, and the stops drawn on a map from the start',
    caption: 'A route day: the stops in order with their ETAs, on a map, and “Optimize route”.',
    width: 1280,
    height: 800,
    widths: [480, 800, 1280],
  },
  {
    name: 'phone-today',
    alt: 'The technician’s phone: Today’s route with Today and This week tabs, a Start day button, the day’s stops saved on the phone for offline use, and the next stop with its ETA',
    caption: 'On the phone: today’s stops, kept on the phone for when the signal drops.',
    width: 390,
    height: 844,
    widths: [300, 600],
  },
  {
    name: 'billing',
    alt: 'Billing for a month: the drafts and sent totals, Create invoices and Send invoices buttons, QuickBooks IIF and CSV exports, profit per pool, and the month’s invoices with number, customer, status, total and amount due',
    caption: 'Billing: the whole month invoiced at once, sent, and exported for QuickBooks.',
    width: 1280,
    height: 1000,
    widths: [480, 800, 1280],
  },
  {
    name: 'dispatch',
    alt: 'The dispatcher’s dashboard: today’s visits, unassigned, overdue and skipped counts, a create-visit form and the unassigned visits with an Assign button on each',
    caption: 'The dispatch board: today’s numbers and every unassigned visit, assigned in one step.',
    width: 1280,
    height: 800,
    widths: [480, 800, 1280],
  },
  {
    name: 'technician',
    alt: 'A technician’s visit on a phone: dosing advice for muriatic acid, liquid chlorine and sodium bicarbonate, and the reading marked pH high, chlorine low and alkalinity low',
    caption: 'At the pool: what is off, and how much of what to add.',
    width: 390,
    height: 844,
    widths: [300, 600],
  },
  {
    name: 'portal',
    alt: 'The customer portal: next visit and technician, completed visits, latest chemistry with its status, balance due, invoices, and the visit history with reports and photos',
    caption: 'The customer’s portal: every visit, reading, photo and invoice.',
    width: 1280,
    height: 800,
    widths: [480, 800, 1280],
  },
] as const satisfies readonly ProductShot[]

export type ProductShotName = (typeof PRODUCT_SHOTS)[number]['name']

/** The landing page shows the newest work (routes, the offline phone, billing); the features page the rest. */
export const LANDING_SHOTS: readonly ProductShotName[] = ['route-day', 'phone-today', 'billing']
export const FEATURES_SHOTS: readonly ProductShotName[] = ['dispatch', 'technician', 'portal']
