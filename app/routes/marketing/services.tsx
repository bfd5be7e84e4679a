import { Icon, type IconName } from '~/components/marketing/icons'
import { PageIntro } from '~/components/marketing/page-intro'
import { pageMeta } from '~/components/marketing/page-meta'
import { SignupCta } from '~/components/marketing/signup-cta'
import type { Route } from './+types/services'

// Every kind of work maps onto the same visit record, so the copy stays true to what the app models.
const WORK: Array<{ icon: IconName; title: string; body: string }> = [
  {
    icon: 'route',
    title: 'Weekly maintenance routes',
    body: 'Book each stop as a visit and assign it to a technician. Dispatchers see today’s route; technicians see only their own stops, with the service checklist on every one.',
  },
  {
    icon: 'flask',
    title: 'Chemical-only stops',
    body: 'When the reading is the service, technicians log pH, chlorine and alkalinity in seconds, and customers can look them up in their portal afterwards.',
  },
  {
    icon: 'camera',
    title: 'Cleanups, repairs and one-off visits',
    body: 'Green-to-clean visits, filter cleans and equipment checks are visits too. Before and after photos show the customer exactly what changed.',
  },
]

const STEPS: Array<{ title: string; body: string }> = [
  {
    title: 'We set up your company',
    body: 'The Pool Bud team creates your company account and emails the owner an invitation.',
  },
  {
    title: 'The owner finishes setup',
    body: 'Follow the link, confirm your name and contact details, and choose a password.',
  },
  {
    title: 'Invite your team',
    body: 'Add admins, dispatchers and technicians by email. Each gets a short first-time setup and the dashboard for their role.',
  },
  {
    title: 'Add your customers',
    body: 'Enter names and service addresses. Customers you add with an email address are invited to their read-only portal.',
  },
  {
    title: 'Start scheduling',
    body: 'Create visits, assign technicians, and watch readings and photos arrive as the day goes on.',
  },
]

export default function Services() {
  return (
    <>
      <PageIntro eyebrow="Services" title="Made for the way pool companies work">
        <p>
          Whether you run fixed weekly routes, chemical-only stops or one-off cleanups, each visit is a visit with a
          technician, a checklist, readings and photos.
        </p>
      </PageIntro>

      <section aria-labelledby="work-title" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <h2 id="work-title" className="text-2xl font-bold text-slate-900">
          The work it fits
        </h2>
        <ul className="mt-6 grid gap-4 md:grid-cols-3">
          {WORK.map((item) => (
            <li key={item.title} className="rounded-xl border border-slate-200 p-6">
              <span className="inline-flex size-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                <Icon name={item.icon} />
              </span>
              <h3 className="mt-3 text-lg font-semibold text-slate-900">{item.title}</h3>
              <p className="mt-1 text-slate-600">{item.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="setup-title" className="bg-slate-50">
        <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
          <h2 id="setup-title" className="text-2xl font-bold text-slate-900">
            How we get you running
          </h2>
          <ol className="mt-6 flex flex-col gap-4">
            {STEPS.map((step, index) => (
              <li key={step.title} className="flex gap-4 rounded-xl border border-slate-200 bg-white p-5">
                <span
                  aria-hidden="true"
                  className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
                >
                  {index + 1}
                </span>
                <div>
                  <h3 className="font-semibold text-slate-900">{step.title}</h3>
                  <p className="mt-1 text-slate-600">{step.body}</p>
                </div>
              </li>
            ))}
          </ol>
          <p className="mt-6 text-slate-600">
            Need a faster answer when something comes up? Business plans include priority support.
          </p>
        </div>
      </section>

      <SignupCta />
    </>
  )
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Services · Pool Bud',
    description:
      'How Pool Bud fits weekly maintenance routes, chemical-only stops and one-off cleanups, and how we set up your company and team.',
    path: '/services',
    matches,
  })
