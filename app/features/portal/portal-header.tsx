import { Link } from 'react-router'
import { LogoutButton } from '~/components/logout-button'
import type { CustomerPortalData } from './customer-portal.server'

/** The staff preview's notice (staff see what the customer sees), then the customer's name, address and phone. */
export function PortalHeader({
  customer,
  companyName,
  companyLogoUrl,
  preview,
}: Pick<CustomerPortalData, 'customer' | 'companyName' | 'companyLogoUrl' | 'preview'>) {
  return (
    <>
      {preview ? (
        <aside
          aria-label="Staff preview"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <p>
            <strong>Staff preview.</strong> This is what {customer.name} sees when they sign in.
          </p>
          <Link to="/app/customers" className="font-semibold underline">
            Back to Customers
          </Link>
        </aside>
      ) : null}

      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          {companyLogoUrl ? (
            <img src={companyLogoUrl} alt={`${companyName} logo`} className="mb-2 max-h-14 max-w-48 object-contain" />
          ) : null}
          {companyName ? <p className="text-sm font-medium text-brand-700">{companyName}</p> : null}
          <h1 className="text-2xl font-bold sm:text-3xl">{customer.name}</h1>
          <p className="text-slate-600">{customer.address}</p>
          {customer.phone ? (
            <p>
              <a
                href={`tel:${customer.phone.replace(/[^\d+]/g, '')}`}
                className="inline-flex min-h-11 items-center text-slate-700 underline"
              >
                {customer.phone}
              </a>
            </p>
          ) : null}
        </div>
        {preview ? null : <LogoutButton variant="secondary" />}
      </header>
    </>
  )
}
