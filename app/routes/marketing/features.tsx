import { Icon, type IconName } from '~/components/marketing/icons'
import { PageIntro } from '~/components/marketing/page-intro'
import { pageMeta } from '~/components/marketing/page-meta'
import { ProductGallery } from '~/components/marketing/product-gallery'
import { FEATURES_SHOTS } from '~/components/marketing/product-shots'
import { SignupCta } from '~/components/marketing/signup-cta'
import type { Route } from './+types/features'

// Each point names something a user can do today: nothing is announced before it is built.
const GROUPS: Array<{ icon: IconName; title: string; summary: string; points: string[] }> = [
  {
    icon: 'calendar',
    title: 'Service plans and the week board',
    summary: 'Set up a pool once; its visits appear on the schedule by themselves.',
    points: [
      'Service plans repeat weekly or every 2, 3 or 4 weeks, on a set day with a technician, and create the visits',
      'The week board shows every technician’s visits day by day; move a visit to another day or technician',
      '“Suggest a day and technician” ranks the days and routes a new pool fits with the least extra driving',
      'Appointments and arrival windows per visit; visits past their time show as Overdue',
      'Pause a plan, change its price from a given month, or add a one-off visit',
    ],
  },
  {
    icon: 'route',
    title: 'Routes',
    summary: 'Less driving, and times you can give the customer.',
    points: [
      'Each technician’s route day: the stops in order on a map, the miles between them and the day’s total',
      '“Optimize route” orders the stops for the least driving, keeping appointments and windows where they can be kept, with an undo',
      'An ETA for every stop, updated when you reorder',
      '“Balance the day” moves visits between technicians to cut driving; “Cover this day” spreads a sick technician’s stops over the others',
    ],
  },
  {
    icon: 'phone',
    title: 'The technician’s phone',
    summary: 'Made for a phone, wet hands and no signal.',
    points: [
      'Today and This week: the stops in route order with gate code, dog on site and notes',
      'Works offline: today’s stops are kept on the phone, and changes wait in a queue until there is signal',
      'A shared truck phone is safe: each person sees and sends only their own work',
      '“On my way” tells the customer by text or email, with an arrival estimate',
      '“Start day”, breaks and “End day” record the hours for timesheets',
      'Technicians see only the visits assigned to them',
    ],
  },
  {
    icon: 'flask',
    title: 'At the pool',
    summary: 'Chemistry, checklist and photos, on the visit they belong to.',
    points: [
      'A service checklist: vacuum, skim and empty baskets, brush walls, test and balance chemicals',
      'Readings for pH, chlorine (ppm) and alkalinity, plus optional stabilizer, hardness, salt and water temperature',
      'Each reading is judged against the pool’s own targets (“pH high”, “chlorine low”) with its saturation index: Balanced, Corrosive or Scaling',
      'Dosing advice from the pool’s volume: how many fl oz or lb of which product, with the assumption stated',
      'Chemicals added are taken from stock, and before and after photos are attached to the visit',
      'A service report goes to the customer when the visit is completed (you can turn it off)',
    ],
  },
  {
    icon: 'portal',
    title: 'Customers and notices',
    summary: 'Fewer “when are you coming?” calls.',
    points: [
      'Customer notices by email and text (Twilio): on my way, visit completed or skipped, reminders, invoices and overdue payments',
      'Each customer chooses email, text or both; a STOP reply is honored, and texts wait out your quiet hours',
      'A customer portal: next visit and technician, visit history, readings, photos, invoices and balance due',
      'Quotes from your price book, approved and signed by the customer in the portal',
      'Import your customers from a CSV file, with every row checked before anything is written',
    ],
  },
  {
    icon: 'card',
    title: 'Billing and payments',
    summary: 'Invoice the whole month at once, and get paid by card.',
    points: [
      'Monthly invoices for per-visit and monthly rates plus chemicals, previewed, created as editable drafts, then sent',
      'Tax on invoices, voids and refunds kept as their own records, and a PDF of every invoice',
      'Customers without email: their invoices in one PDF to print and mail',
      'Card payments and autopay through Stripe; cash, check and bank transfers recorded by the office',
      'Exports for QuickBooks (IIF and QuickBooks Online CSV) and a profit report per pool',
    ],
  },
  {
    icon: 'team',
    title: 'Team, time and payroll',
    summary: 'Everyone sees what their visit needs, and nothing more.',
    points: [
      'Four company roles: owner, admin, dispatcher and technician, each with its own dashboard',
      'Invite teammates by email; they finish a short first-time setup before they reach the app',
      'Weekly timesheets from the phone’s clock, overtime flagged, approved by the office',
      'A payroll CSV of approved weeks: regular and overtime hours, stops and gross pay',
    ],
  },
  {
    icon: 'box',
    title: 'Inventory and your own tools',
    summary: 'Know what is on the shelf, and connect what you already use.',
    points: [
      'Search chemicals and parts by name or SKU, with stock, price and low-stock alerts',
      'A REST API with API keys and signed webhooks, documented on the developers page',
      'Export all your data, any time, as a ZIP of CSV files',
    ],
  },
]

export default function Features() {
  return (
    <>
      <PageIntro eyebrow="Features" title="Built around a pool-service day">
        <p>
          Pool Bud covers the office, the truck and the customer: recurring service plans and routes, a phone app that
          works offline, notices by email and text, billing with card payments and QuickBooks exports, and a customer
          portal.
        </p>
      </PageIntro>

      <div className="mx-auto grid max-w-6xl gap-6 px-4 pb-16 sm:px-6 md:grid-cols-2">
        {GROUPS.map((group) => {
          const headingId = `feature-${group.icon}`
          return (
            <section key={group.title} aria-labelledby={headingId} className="rounded-xl border border-slate-200 p-6">
              <div className="flex items-center gap-3">
                <span className="inline-flex size-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <Icon name={group.icon} />
                </span>
                <div>
                  <h2 id={headingId} className="text-lg font-bold text-slate-900">
                    {group.title}
                  </h2>
                  <p className="text-sm text-slate-600">{group.summary}</p>
                </div>
              </div>
              <ul className="mt-4 flex flex-col gap-2">
                {group.points.map((point) => (
                  <li key={point} className="flex gap-2 text-slate-700">
                    <Icon name="check" className="mt-0.5 size-5 text-brand-700" />
                    <span>{point}</span>
                  </li>
                ))}
              </ul>
            </section>
          )
        })}
      </div>

      <section aria-labelledby="screens-title" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="screens-title" className="text-2xl font-bold text-slate-900 sm:text-3xl">
            More screens
          </h2>
          <p className="mt-2 max-w-2xl text-slate-600">
            From the demo company you can log in to: the dispatcher’s board, a visit on the technician’s phone and the
            customer’s portal.
          </p>
          <ProductGallery names={FEATURES_SHOTS} />
        </div>
      </section>

      <SignupCta />
    </>
  )
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Features · Pool Bud',
    description:
      'Recurring service plans, optimized routes with ETAs, an offline phone app, customer notices by email and text, monthly invoices with card payments and QuickBooks exports, quotes, timesheets and an API.',
    path: '/features',
    matches,
  })
