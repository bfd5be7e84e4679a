// The customer list's pieces (docs/product.md "Customers"): "Active" / "Archived", the page of customers — each linking
// to its record, with its address, next visit and balance, and "Send portal invite" — and the pager.
import { Link, useFetcher } from 'react-router'
import { Pager } from '~/components/pager'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import type { PortalStatus } from '~/models/customer-list.server'
import type { CustomerStatus } from '~/utils/customer-fields'
import type { CustomerDirectoryData } from './customer-directory.server'

/** What the list's action answers a row's invite with. */
export type InviteReply = { intent: 'invite'; customerId: string; ok: boolean; message: string }

type CustomerRowData = CustomerDirectoryData['customers'][number]

const FILTERS: ReadonlyArray<{ status: CustomerStatus; label: string }> = [
  { status: 'active', label: 'Active' },
  { status: 'archived', label: 'Archived' },
]

/** "Active" / "Archived": links (the filter is part of the address, so back and reload keep it). */
export function StatusFilter({ data }: { data: CustomerDirectoryData }) {
  return (
    <nav aria-label="Customer status" className="flex gap-1">
      {FILTERS.map(({ status, label }) => {
        const params = new URLSearchParams()
        if (data.q) params.set('q', data.q)
        if (status !== 'active') params.set('status', status)
        const search = params.toString()
        const current = data.status === status
        return (
          <Link
            key={status}
            to={`/app/customers${search ? `?${search}` : ''}`}
            aria-current={current ? 'page' : undefined}
            className={cn(
              'inline-flex min-h-11 items-center rounded-lg px-4 text-sm font-medium',
              current ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100',
            )}
          >
            {label}
          </Link>
        )
      })}
    </nav>
  )
}

export function CustomerList({ data }: { data: CustomerDirectoryData }) {
  if (data.customers.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        {data.status === 'archived' ? 'No archived customers found.' : 'No customers found.'}
      </p>
    )
  }
  const from = (data.page - 1) * data.pageSize + 1
  const to = from + data.customers.length - 1
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600" aria-live="polite">
        Showing {from}–{to} of {data.total}
      </p>
      {/* Column headings for wide screens; on a phone each row stacks its values under their own labels. */}
      <div
        aria-hidden="true"
        className="hidden grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,1.2fr)_minmax(0,0.8fr)] gap-4 border-b border-slate-200 pb-2 text-xs font-semibold uppercase tracking-wide text-slate-500 md:grid"
      >
        <span>Name</span>
        <span>Address</span>
        <span>Next visit</span>
        <span className="text-right">Balance</span>
      </div>
      <ul className="divide-y divide-slate-100">
        {data.customers.map((customer) => (
          <CustomerRow key={customer.id} customer={customer} />
        ))}
      </ul>
      <Pager page={data.page} pageCount={Math.ceil(data.total / data.pageSize)} label="Customer pages" />
    </div>
  )
}

function PortalBadge({ status }: { status: PortalStatus }) {
  if (status === 'none') return null
  return (
    <span className={cn('pill', status === 'active' ? 'pill-green' : 'pill-amber')}>
      {status === 'active' ? 'Portal active' : 'Invited'}
    </span>
  )
}

function CustomerRow({ customer }: { customer: CustomerRowData }) {
  // Each row invites on its own, with its own pending state and result.
  const fetcher = useFetcher<InviteReply>()
  const sending = fetcher.state !== 'idle'
  const reply = fetcher.data && 'ok' in fetcher.data ? fetcher.data : null
  const canInvite = !customer.archived && Boolean(customer.email) && customer.portalStatus !== 'active'
  return (
    <li className="space-y-2 py-3">
      <div className="customer-row">
        <div className="min-w-0 space-y-0.5">
          <div className="flex flex-wrap items-center gap-2">
            <Link
              to={`/app/customers/${customer.id}`}
              className={cn('font-semibold text-brand-700 hover:underline', textLinkTarget)}
            >
              {customer.customerName}
            </Link>
            <PortalBadge status={customer.portalStatus} />
          </div>
          <p className="text-sm text-slate-600">
            {customer.email ? <span className="break-all">{customer.email}</span> : 'No email'}
            {' · '}
            {customer.phone ? (
              <a href={`tel:${customer.phoneHref}`} className="hover:underline">
                {customer.phone}
              </a>
            ) : (
              'No phone'
            )}
          </p>
        </div>
        <p className="text-sm text-slate-700">
          <span className="cell-label">Address: </span>
          <span>{customer.address ?? 'No service location'}</span>
        </p>
        <p className="text-sm text-slate-700">
          <span className="cell-label">Next visit: </span>
          {customer.nextVisitOverdue ? <span className="font-medium text-amber-800">Overdue · </span> : null}
          <span>{customer.nextVisit ?? 'None booked'}</span>
        </p>
        <p className={cn('text-sm md:text-right', customer.owes ? 'font-semibold text-slate-900' : 'text-slate-600')}>
          <span className="cell-label">Balance: </span>
          <span>{customer.balanceDue}</span>
        </p>
      </div>
      {canInvite ? (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="invite" />
          <input type="hidden" name="customerId" value={customer.id} />
          <Button type="submit" variant="secondary" pending={sending} pendingLabel="Sending…">
            {customer.portalStatus === 'invited' ? 'Resend portal invite' : 'Send portal invite'}
            <span className="sr-only"> to {customer.customerName}</span>
          </Button>
        </fetcher.Form>
      ) : null}
      <div aria-live="polite">
        {reply && !sending ? <Alert tone={reply.ok ? 'success' : 'error'}>{reply.message}</Alert> : null}
      </div>
    </li>
  )
}
