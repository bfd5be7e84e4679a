import { Link, useRouteLoaderData } from 'react-router'
import { DemoSnapshot } from '~/components/marketing/demo-snapshot'
import { Icon, type IconName } from '~/components/marketing/icons'
import { TRIAL_SIGNUP_PATH } from '~/components/marketing/nav-links'
import { pageMeta } from '~/components/marketing/page-meta'
import { PoolIllustration } from '~/components/marketing/pool-illustration'
import { ProductGallery } from '~/components/marketing/product-gallery'
import { LANDING_SHOTS } from '~/components/marketing/product-shots'
import { buttonClass } from '~/components/ui/button'
import type { Route } from './+types/landing'
import type { loader as layoutLoader } from './layout'

// Each card is something a user can do today (the features page has the detail).
const FEATURES: Array<{ icon: IconName; title: string; body: string }> = [
  {
    icon: 'calendar',
    title: 'Recurring service plans',
    body: 'Set each pool’s day, technician and frequency once. The visits appear on the week board by themselves, and you move them with a click.',
  },
  {
    icon: 'route',
    title: 'Optimized routes with ETAs',
    body: '“Optimize route” orders a technician’s day around appointments and windows, shows it on a map, and gives every stop an ETA.',
  },
  {
    icon: 'phone',
    title: 'A phone app that works offline',
    body: 'Technicians see Today and This week, log readings and photos with no signal, and tap “On my way” to text or email the customer.',
  },
  {
    icon: 'portal',
    title: 'Notices and a customer portal',
    body: 'Customers get a service report after each visit, reminders by email or text, and a portal with visits, readings, invoices and quotes to sign.',
  },
  {
    icon: 'card',
    title: 'Billing, card payments and QuickBooks',
    body: 'Invoice the whole month at once, take card payments and autopay through Stripe, and export to QuickBooks.',
  },
  {
    icon: 'team',
    title: 'Timesheets and payroll',
    body: 'The technician’s “Start day” and “End day” fill a weekly timesheet; approve it and download the payroll CSV.',
  },
]

// Invented companies and people: the strip shows the kind of feedback we aim for, not endorsements.
const TESTIMONIALS = [
  {
    quote: 'The photos ended the “did anyone even come?” calls. Customers just check the portal.',
    name: 'Dana R.',
    company: 'Crystal Cove Pool Care',
  },
  {
    quote: 'I assign the day’s stops before my first coffee, and every tech knows where to go.',
    name: 'Marco L.',
    company: 'Blue Heron Pools',
  },
  {
    quote: 'Chemistry readings are on file for every visit now, not in a notebook in the truck.',
    name: 'Priya S.',
    company: 'Sunfish Aquatic Service',
  },
]

export default function Landing() {
  // The layout already asked the server; reusing its answer avoids a second session lookup.
  const signedIn = useRouteLoaderData<typeof layoutLoader>('routes/marketing/layout')?.signedIn ?? false
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 md:py-20">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">For pool-service companies</p>
            <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-900 text-balance sm:text-5xl">
              Run your pool-service company from one screen
            </h1>
            <p className="mt-4 text-lg text-slate-600 text-pretty">
              Plan recurring visits, optimize every technician’s route, give them a phone app that works without signal,
              tell customers when you are on the way, and invoice the whole month at once.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              {signedIn ? (
                <Link to="/app" className={buttonClass('primary', 'px-6 text-base')}>
                  Go to Dashboard
                </Link>
              ) : (
                <Link to={TRIAL_SIGNUP_PATH} className={buttonClass('primary', 'px-6 text-base')}>
                  Get started
                </Link>
              )}
              <Link to="/features" className={buttonClass('secondary', 'px-6 text-base')}>
                See features
              </Link>
            </div>
          </div>
          <PoolIllustration className="mx-auto w-full max-w-md" />
        </div>
      </section>

      <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="features-title" className="text-2xl font-bold text-slate-900 sm:text-3xl">
          Everything a service day needs
        </h2>
        <p className="mt-2 max-w-2xl text-slate-600">
          From the week board to the technician’s phone, the customer’s inbox and your books.
        </p>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="rounded-xl border border-slate-200 p-5">
              <span className="inline-flex size-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                <Icon name={feature.icon} />
              </span>
              <h3 className="mt-3 font-semibold text-slate-900">{feature.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{feature.body}</p>
            </li>
          ))}
        </ul>
        <Link
          to="/features"
          className="mt-6 inline-flex min-h-11 items-center rounded-lg font-semibold text-brand-700 hover:underline"
        >
          All features <span aria-hidden="true">&nbsp;→</span>
        </Link>
      </section>

      <section aria-labelledby="gallery-title" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="gallery-title" className="text-2xl font-bold text-slate-900 sm:text-3xl">
            See it working
          </h2>
          <p className="mt-2 max-w-2xl text-slate-600">
            Real screens from the demo company you can log in to: a technician’s route day, their phone’s Today and the
            month’s invoices.
          </p>
          <ProductGallery names={LANDING_SHOTS} />
        </div>
      </section>

      <section aria-labelledby="testimonials-title">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="testimonials-title" className="text-2xl font-bold text-slate-900 sm:text-3xl">
            What pool pros tell us
          </h2>
          <p className="mt-2 text-sm text-slate-600">Illustrative quotes; the people and companies are fictional.</p>
          <ul className="mt-8 grid gap-4 md:grid-cols-3">
            {TESTIMONIALS.map((item) => (
              <li key={item.company}>
                <figure className="h-full rounded-xl border border-slate-200 bg-white p-5">
                  <blockquote className="text-slate-800">“{item.quote}”</blockquote>
                  <figcaption className="mt-4 text-sm text-slate-600">
                    <span className="font-semibold text-slate-900">{item.name}</span>, {item.company}
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="snapshot-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <div className="grid items-center gap-10 md:grid-cols-2">
          <div>
            <h2 id="snapshot-title" className="text-2xl font-bold text-slate-900 sm:text-3xl">
              Your day at a glance
            </h2>
            <p className="mt-2 text-slate-600">
              Every role opens on its own dashboard: dispatchers see today’s visits and what is unassigned or overdue,
              technicians see only their own stops in route order, and owners see the work, the money and the team.
            </p>
          </div>
          <DemoSnapshot />
        </div>
      </section>
    </>
  )
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Software for pool-service companies · Pool Bud',
    description:
      'Recurring service plans, optimized routes with ETAs, an offline phone app for technicians, customer notices by email and text, and monthly billing with card payments and QuickBooks exports.',
    path: '/',
    matches,
  })
