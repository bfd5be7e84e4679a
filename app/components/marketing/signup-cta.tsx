import { Link } from 'react-router'
import { TRIAL_SIGNUP_PATH } from '~/components/marketing/nav-links'
import { buttonClass } from '~/components/ui/button'

/** The closing call to action shared by the inner marketing pages, so every page ends somewhere useful. */
export function SignupCta({ title = 'Ready to run your routes from one place?' }: { title?: string }) {
  return (
    <section aria-labelledby="signup-cta-title" className="bg-brand-900">
      <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-14 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 id="signup-cta-title" className="text-2xl font-bold text-white">
            {title}
          </h2>
          <p className="mt-2 text-brand-100">Month-to-month, no setup fee.</p>
        </div>
        <div className="flex flex-wrap gap-3">
          {/* The white "secondary" look reads as the primary action on this dark band; the brand focus ring would not
              show against it, hence the forced white outline. */}
          <Link to={TRIAL_SIGNUP_PATH} className={buttonClass('secondary', 'focus-visible:outline-white!')}>
            Get started
          </Link>
          <Link
            to="/pricing"
            className="inline-flex min-h-11 items-center justify-center rounded-lg border border-brand-100 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-white!"
          >
            Compare plans
          </Link>
        </div>
      </div>
    </section>
  )
}
