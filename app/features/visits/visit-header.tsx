// The top of the visit page, in the order the technician needs it at the gate (docs/product.md "The visit"): customer,
// address, "Call" and "Text" the customer, "Dog on site", "Gate code", access notes; then when, who and the pool. The
// back link is named after where it goes (back-link.ts).
import { Link } from 'react-router'
import { SiteAccess, type SiteAccessView } from '~/components/site-access'
import { StatusBadge, type VisitStatusLabel } from '~/components/status-badge'
import { buttonClass } from '~/components/ui/button'
import type { BackLink } from './back-link'

/** A phone number as a `tel:`/`sms:` address: its digits, and a leading + (extensions and spaces dropped). */
export function dialable(phone: string) {
  const main = phone.split(/\s*(?:x|ext\.?)\s*\d+$/i)[0] ?? phone
  const digits = main.replace(/[^\d+]/g, '')
  return digits.startsWith('+') ? `+${digits.slice(1).replace(/\+/g, '')}` : digits.replace(/\+/g, '')
}

export function VisitHeader({
  customerName,
  address,
  status,
  assigned,
  companyName,
  access,
  scheduled,
  technicianName,
  technicianPhone,
  pool,
  customerPhone,
  back,
}: {
  customerName: string
  address: string
  status: VisitStatusLabel
  assigned: boolean
  /** Set for a platform admin's read-only look. */
  companyName: string | null
  access: SiteAccessView | null
  scheduled: string
  technicianName: string | null
  technicianPhone: string | null
  pool: string | null
  /** Staff of the company only (null for a platform admin's look, or a customer with no phone on file). */
  customerPhone: string | null
  back: BackLink
}) {
  const dial = customerPhone ? dialable(customerPhone) : ''
  return (
    <header className="space-y-3">
      <Link to={back.to} className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700">
        ← {back.label}
      </Link>
      <div className="space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold break-words">{customerName}</h1>
          <StatusBadge status={status} />
          {assigned ? null : <StatusBadge status="Unassigned" />}
        </div>
        {companyName ? <p className="text-sm font-medium text-brand-700">{companyName} · read-only</p> : null}
        <p className="text-lg text-slate-800">{address}</p>
      </div>
      {customerPhone && dial ? (
        <div className="flex flex-wrap items-center gap-2">
          <a href={`tel:${dial}`} className={buttonClass('primary')}>
            Call<span className="sr-only"> {customerName}</span>
          </a>
          <a href={`sms:${dial}`} className={buttonClass('secondary')}>
            Text<span className="sr-only"> {customerName}</span>
          </a>
          <span className="text-sm text-slate-700">{customerPhone}</span>
        </div>
      ) : null}
      {access?.dogOnSite ? (
        <p className="rounded-xl bg-red-50 px-4 py-2 text-base font-semibold text-red-800 ring-1 ring-red-200">
          Dog on site: check before opening the gate.
        </p>
      ) : null}
      {access ? <SiteAccess access={access} className="rounded-xl border border-slate-200 bg-white p-4" /> : null}
      <div className="text-sm text-slate-700">
        <p>
          Scheduled {scheduled} · {technicianName ? `Technician: ${technicianName}` : 'Unassigned'}
          {technicianPhone ? ` · ${technicianPhone}` : ''}
        </p>
        <p>{pool ? `Pool: ${pool}` : 'Pool: no profile yet'}</p>
      </div>
    </header>
  )
}
