import { PageIntro } from '~/components/marketing/page-intro'
import { pageMeta } from '~/components/marketing/page-meta'
import { SignupCta } from '~/components/marketing/signup-cta'
import type { Route } from './+types/about'

const TIMELINE: Array<{ year: string; title: string; body: string }> = [
  {
    year: '2022',
    title: 'Started on a service route',
    body: 'Pool Bud began as a way to replace paper route sheets and a chemistry notebook in the truck: visits on a phone, with pH, chlorine and alkalinity logged at every stop.',
  },
  {
    year: '2023',
    title: 'Proof of service',
    body: 'Before and after photos joined every visit, and customers got a read-only portal with their visit history, readings and photos.',
  },
  {
    year: '2024',
    title: 'Built for whole teams',
    body: 'Owner, admin, dispatcher and technician roles with their own dashboards, team invitations, inventory, and the Team and Business plans.',
  },
]

const PRINCIPLES: Array<{ title: string; body: string }> = [
  {
    title: 'Show the work',
    body: 'Customers trust what they can see. Readings and photos from every visit should be one click away for them.',
  },
  {
    title: 'Phones in the sun',
    body: 'Technicians work with wet hands and bright glare, so buttons are big, contrast is high and forms are short.',
  },
  {
    title: 'Straight pricing',
    body: 'Month-to-month plans, no setup fee, and a product described only by what it does today.',
  },
]

export default function About() {
  return (
    <>
      <PageIntro eyebrow="About" title="Software for the people who keep pools clear">
        <p>
          Pool Bud is built for pool-service companies: the owner, the office, the technicians on the road and the
          customers who want to know their pool is in good hands.
        </p>
      </PageIntro>

      <section aria-labelledby="timeline-title" className="mx-auto max-w-3xl px-4 pb-16 sm:px-6">
        <h2 id="timeline-title" className="text-2xl font-bold text-slate-900">
          Our story so far
        </h2>
        <ol className="mt-8 border-l-2 border-brand-100">
          {TIMELINE.map((entry) => (
            <li key={entry.year} className="relative pb-10 pl-8 last:pb-0">
              <span aria-hidden="true" className="absolute top-1 -left-[9px] size-4 rounded-full bg-brand-700" />
              <h3 className="flex flex-col">
                <span className="text-sm font-semibold text-brand-700">{entry.year}</span>
                <span className="text-lg font-bold text-slate-900">{entry.title}</span>
              </h3>
              <p className="mt-2 text-slate-600">{entry.body}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="principles-title" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="principles-title" className="text-2xl font-bold text-slate-900">
            What guides us
          </h2>
          <ul className="mt-6 grid gap-4 md:grid-cols-3">
            {PRINCIPLES.map((item) => (
              <li key={item.title} className="rounded-xl border border-slate-200 bg-white p-6">
                <h3 className="font-semibold text-slate-900">{item.title}</h3>
                <p className="mt-1 text-slate-600">{item.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <SignupCta title="Come build your routes with us" />
    </>
  )
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'About · Pool Bud',
    description:
      'Why Pool Bud exists and how it grew from 2022 to 2024: chemistry logs, proof-of-service photos, a customer portal and team roles.',
    path: '/about',
    matches,
  })
