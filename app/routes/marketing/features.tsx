import { Icon, type IconName } from '~/components/marketing/icons'
import { PageIntro } from '~/components/marketing/page-intro'
import { pageMeta } from '~/components/marketing/page-meta'
import { SignupCta } from '~/components/marketing/signup-cta'
import type { Route } from './+types/features'

// Each point names something a user can do today: nothing is announced before it is built.
const GROUPS: Array<{ icon: IconName; title: string; summary: string; points: string[] }> = [
  {
    icon: 'calendar',
    title: 'Scheduling and dispatch',
    summary: 'Dispatchers plan the day and keep it moving.',
    points: [
      'Create a job by picking the customer; their name and service address fill in for you',
      'Assign a technician, or leave the job unassigned until someone is free',
      'Reschedule unassigned jobs without re-entering anything',
      'Jobs past their scheduled time show as Overdue, so nothing slips',
      'Today’s route and recent activity on the dispatcher dashboard',
    ],
  },
  {
    icon: 'flask',
    title: 'In the field',
    summary: 'Technicians get a job screen made for a phone and wet hands.',
    points: [
      'A service checklist: vacuum, skim and empty baskets, brush walls, test and balance chemicals',
      'Chemical test form for pH, chlorine (ppm) and alkalinity, plus optional stabiliser, hardness, salt and water temperature',
      'Each reading is judged against the pool’s own targets (“pH high”, “chlorine low”) with its saturation index: Balanced, Corrosive or Scaling',
      'Dosing advice from the pool’s volume: how many fl oz or lb of which product, with the assumption stated',
      'Record the chemicals added; pick them from stock and inventory goes down by itself',
      'Before and after photo pickers that accept image files only and preview before upload',
      'Mark Complete stamps the finish time on the job',
      'Technicians see only the jobs assigned to them',
    ],
  },
  {
    icon: 'portal',
    title: 'Customers and the portal',
    summary: 'Fewer “when are you coming?” calls.',
    points: [
      'Customer records with service address, email, phone and balance due, searchable by name, address or email',
      'Adding a customer’s email sends them an invitation to their portal',
      'Read-only portal: next visit and technician, visit history, chemistry readings with the water’s balance, photos and balance due',
      'A service report emailed after every visit: work done, readings, chemicals added and before/after photos (you can turn it off)',
      'Invoices in the portal, paid by card with “Pay invoice” (Stripe), or automatically with a saved card',
    ],
  },
  {
    icon: 'team',
    title: 'Team and roles',
    summary: 'Everyone sees what their job needs, and nothing more.',
    points: [
      'Four company roles: owner, admin, dispatcher and technician',
      'Owners invite admins, dispatchers and technicians; admins invite dispatchers and technicians',
      'Invited teammates finish a short first-time setup before they reach the app',
      'Separate dashboards for owners, admins, dispatchers and technicians',
    ],
  },
  {
    icon: 'box',
    title: 'Inventory',
    summary: 'Know what is on the shelf before the truck leaves.',
    points: [
      'Search chemicals and parts by name or SKU',
      'Quantity in stock and price on every item',
      'Low-stock alerts so you can reorder in time',
    ],
  },
  {
    icon: 'card',
    title: 'Payments',
    summary: 'Getting paid, closer to the work.',
    points: [
      'Monthly invoices for every rate type — per visit, monthly, plus chemicals — previewed, then created and sent',
      'Balance from invoices and payments, shown on the customer record and in their portal',
      'Record cash, check, card and bank-transfer payments; card payments and autopay through Stripe',
      'Export for QuickBooks (IIF and QuickBooks Online CSV) and profit per pool',
    ],
  },
]

export default function Features() {
  return (
    <>
      <PageIntro eyebrow="Features" title="Built around a pool-service day">
        <p>
          Pool Bud covers the office, the truck and the customer: scheduling, chemistry, photos, a customer portal, team
          roles and inventory.
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

      <SignupCta />
    </>
  )
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Features · Pool Bud',
    description:
      'Job scheduling and technician assignment, pH, chlorine and alkalinity logs, before/after photos, a read-only customer portal, team roles and inventory.',
    path: '/features',
    matches,
  })
