import { Link } from 'react-router'
import { POOL_BUD_PLAN_DETAILS } from '~/billing/pool-bud-plans'
import { Icon } from '~/components/marketing/icons'
import { type PlanName, TRIAL_SIGNUP_PATH, trialSignupPath } from '~/components/marketing/nav-links'
import { PageIntro } from '~/components/marketing/page-intro'
import { pageMeta } from '~/components/marketing/page-meta'
import { buttonClass } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { TRIAL_DAYS } from '~/utils/trial'
import type { Route } from './+types/pricing'

type Plan = { name: PlanName; price: number; blurb: string; features: string[]; highlighted?: boolean }

// Plan contents come straight from the product spec; card payments are marked as not yet available. Prices are the
// ones Settings → "Plan" shows (app/billing/pool-bud-plans.ts).
const PLANS: Plan[] = [
  {
    name: 'Starter',
    price: POOL_BUD_PLAN_DETAILS.starter.monthlyPriceDollars,
    blurb: 'For the owner-operator running their own route.',
    features: ['1 user', 'Visits and before/after photos', 'Read-only customer portal'],
  },
  {
    name: 'Team',
    price: POOL_BUD_PLAN_DETAILS.team.monthlyPriceDollars,
    blurb: 'For a growing crew with someone in the office.',
    features: ['Up to 8 users', 'Everything in Starter', 'Routes and reporting', 'Invoices and card payments'],
    highlighted: true,
  },
  {
    name: 'Business',
    price: POOL_BUD_PLAN_DETAILS.business.monthlyPriceDollars,
    blurb: 'For established companies with several crews.',
    features: ['Unlimited users', 'Everything in Team', 'Advanced roles', 'Priority support'],
  },
]

const FAQS: Array<{ question: string; answer: string }> = [
  {
    question: 'Is there a contract or a setup fee?',
    answer: 'No. Every plan is month-to-month with no setup fee.',
  },
  {
    question: 'Who counts as a user?',
    answer:
      'Anyone on your team who signs in: owners, admins, dispatchers and technicians. Customers using the read-only portal are not users.',
  },
  {
    question: 'Can my customers pay invoices online?',
    answer:
      'Yes. Connect your Stripe account and each invoice in the customer’s portal has “Pay invoice”; customers can also save a card for automatic payments. Without Stripe, the office records cash, check and bank-transfer payments.',
  },
  {
    question: 'Is the customer portal included on every plan?',
    answer: 'Yes. Customers see their visit history, chemistry readings, photos and balance due on every plan.',
  },
]

export default function Pricing() {
  return (
    <>
      <PageIntro eyebrow="Pricing" title="Simple monthly pricing">
        <p>
          Month-to-month, no setup fee, and a {TRIAL_DAYS}-day free trial. Pick the plan that fits the size of your
          team.
        </p>
      </PageIntro>

      <div className="mx-auto grid max-w-6xl gap-6 px-4 pb-16 sm:px-6 md:grid-cols-3 md:items-start">
        {PLANS.map((plan) => {
          const headingId = `plan-${plan.name.toLowerCase()}`
          return (
            <section
              key={plan.name}
              aria-labelledby={headingId}
              className={cn(
                'relative flex flex-col rounded-2xl border bg-white p-6',
                plan.highlighted
                  ? 'border-brand-700 shadow-lg ring-2 ring-brand-700 md:-mt-4 md:pb-10'
                  : 'border-slate-200',
              )}
            >
              {plan.highlighted ? (
                <p className="absolute -top-3 left-6 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">
                  Recommended
                </p>
              ) : null}
              <h2 id={headingId} className="text-xl font-bold text-slate-900">
                {plan.name}
              </h2>
              <p className="mt-1 text-sm text-slate-600">{plan.blurb}</p>
              <p className="mt-4 flex items-baseline gap-1">
                <span className="text-4xl font-bold text-slate-900">${plan.price}</span>
                <span className="text-slate-600">
                  <span aria-hidden="true">/mo</span>
                  <span className="sr-only">per month</span>
                </span>
              </p>
              <ul className="mt-6 flex flex-col gap-2">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-2 text-slate-700">
                    <Icon name="check" className="mt-0.5 size-5 text-brand-700" />
                    <span>{feature}</span>
                  </li>
                ))}
              </ul>
              <Link
                to={trialSignupPath(plan.name)}
                className={buttonClass(plan.highlighted ? 'primary' : 'secondary', 'mt-8 w-full')}
              >
                Choose {plan.name}
              </Link>
            </section>
          )
        })}
      </div>

      <section aria-labelledby="faq-title" className="bg-slate-50">
        <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
          <h2 id="faq-title" className="text-2xl font-bold text-slate-900">
            Frequently asked questions
          </h2>
          <div className="mt-6 flex flex-col gap-3">
            {FAQS.map((faq) => (
              <details key={faq.question} className="group rounded-xl border border-slate-200 bg-white">
                <summary className="flex min-h-12 list-none [&::-webkit-details-marker]:hidden cursor-pointer items-center justify-between gap-4 rounded-xl px-5 py-3 font-semibold text-slate-900">
                  {faq.question}
                  <span aria-hidden="true" className="text-brand-700 transition-transform group-open:rotate-45">
                    +
                  </span>
                </summary>
                <p className="px-5 pb-5 text-slate-700">{faq.answer}</p>
              </details>
            ))}
          </div>
          <div className="mt-10 flex flex-col items-start gap-3 sm:flex-row sm:items-center">
            <p className="font-semibold text-slate-900">Ready when you are.</p>
            <Link to={TRIAL_SIGNUP_PATH} className={buttonClass('primary')}>
              Get started
            </Link>
          </div>
        </div>
      </section>
    </>
  )
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Pricing · Pool Bud',
    description: 'Pool Bud plans: Starter $29/mo, Team $99/mo, Business $199/mo. Month-to-month with no setup fee.',
    path: '/pricing',
    matches,
  })
