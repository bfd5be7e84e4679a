// /app/customers: the customer list (OPERATIONS §2). Search, "Active" / "Archived", one page at a time; each row
// links to the customer's record and can send the portal invite. Adding a customer is its own page.
import { data, Link, useFetcher } from 'react-router'
import { notFound, requireCapability } from '~/auth/guards.server'
import { ListSearchForm } from '~/components/list-search-form'
import { Pager } from '~/components/pager'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import { sendPortalInvite } from '~/features/customers/portal-invite.server'
import { getCustomer, listCustomerDirectory, type PortalStatus } from '~/models/customer.server'
import type { CustomerStatus } from '~/utils/customer-fields'
import { formatDateTime } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import { formatCents } from '~/utils/money'
import { formatPhone } from '~/utils/phone'
import type { Route } from './+types/customers'

const PAGE_SIZE = 50
const NO_COMPANY_PAGE = "Your profile isn't linked to a company. Contact an owner for access."

const FILTERS: ReadonlyArray<{ status: CustomerStatus; label: string }> = [
  { status: 'active', label: 'Active' },
  { status: 'archived', label: 'Archived' },
]

function readListParams(url: URL) {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100)
  const status: CustomerStatus = url.searchParams.get('status') === 'archived' ? 'archived' : 'active'
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10)
  return { q, status, page: Number.isFinite(page) && page > 0 ? Math.min(page, 100_000) : 1 }
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCapability(request, 'customers:manage')
  const companyId = user.company?.id
  // Customers page access is tied to the profile's company (SPEC §6, §8).
  if (!companyId) return data({ kind: 'no-company' as const, message: NO_COMPANY_PAGE })
  const { timezone } = user

  const { q, status, page } = readListParams(new URL(request.url))
  const firstTry = await listCustomerDirectory({ companyId, query: q, status, page, pageSize: PAGE_SIZE })
  // A page past the end (an old link after customers were archived) shows the last page instead.
  let list = firstTry
  const pageCount = Math.max(1, Math.ceil(list.total / PAGE_SIZE))
  if (list.rows.length === 0 && list.total > 0 && page > pageCount) {
    list = await listCustomerDirectory({ companyId, query: q, status, page: pageCount, pageSize: PAGE_SIZE })
  }

  return data({
    kind: 'customers' as const,
    q,
    status,
    page: list.page,
    pageSize: PAGE_SIZE,
    total: list.total,
    customers: list.rows.map((row) => ({
      id: row.id,
      customerName: row.customerName,
      address: row.address,
      email: row.email,
      phone: row.phone ? formatPhone(row.phone) : null,
      phoneHref: row.phone,
      nextVisit: row.nextVisitAt ? formatDateTime(row.nextVisitAt, timezone) : null,
      balanceDue: formatCents(row.balanceDue),
      owes: row.balanceDue > 0,
      portalStatus: row.portalStatus,
      archived: row.status === 'archived',
    })),
  })
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCapability(request, 'customers:manage')
  const companyId = user.profile?.companyId ?? null
  const formData = await readForm(request)
  const customerId = String(formData.get('customerId') ?? '')
  if (formData.get('intent') !== 'invite') {
    return data({ intent: 'invite' as const, customerId, ok: false, message: 'Unknown action.' }, 400)
  }
  if (!companyId) {
    return data({ intent: 'invite' as const, customerId, ok: false, message: 'No company context.' }, 400)
  }
  const customer = await getCustomer({ companyId, customerId })
  if (!customer) notFound()
  if (!customer.email) {
    return data(
      { intent: 'invite' as const, customerId, ok: false, message: 'Add an email address for this customer first.' },
      400,
    )
  }
  const { status, ...result } = await sendPortalInvite(companyId, customer.id)
  return data({ intent: 'invite' as const, customerId, ...result }, status)
}

export function meta() {
  return [{ title: 'Customers · Pool Bud' }]
}

type PageData = Extract<Route.ComponentProps['loaderData'], { kind: 'customers' }>
type CustomerRowData = PageData['customers'][number]

export default function CustomersPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'no-company') {
    return (
      <Card className="mx-auto max-w-lg space-y-3">
        <h1 className="text-2xl font-bold">Customers</h1>
        <Alert tone="error">{loaderData.message}</Alert>
      </Card>
    )
  }
  return <CustomersScreen data={loaderData} />
}

function CustomersScreen({ data }: { data: PageData }) {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Customers</h1>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to="/app/customers/new">Add customer</ButtonLink>
          <ButtonLink to="/app/customers/import" variant="secondary">
            Import customers
          </ButtonLink>
          {/* A file download, not a page: the browser fetches it directly. */}
          <a
            href="/app/customers/export.csv"
            className="inline-flex min-h-11 items-center px-2 text-sm font-medium text-brand-700 hover:underline"
            download
          >
            Export customers (CSV)
          </a>
        </div>
      </div>
      <Card className="space-y-4">
        <ListSearchForm
          path="/app/customers"
          id="customer-search"
          label="Search customers"
          placeholder="Name, address, email or phone"
          q={data.q}
          editingId={null}
          hidden={data.status === 'archived' ? { status: 'archived' } : undefined}
        />
        <StatusFilter data={data} />
        <CustomerList data={data} />
      </Card>
    </div>
  )
}

/** "Active" / "Archived": links (the filter is part of the address, so back and reload keep it). */
function StatusFilter({ data }: { data: PageData }) {
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

function CustomerList({ data }: { data: PageData }) {
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
    <span
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-medium ring-1',
        status === 'active'
          ? 'bg-emerald-50 text-emerald-800 ring-emerald-200'
          : 'bg-amber-50 text-amber-800 ring-amber-200',
      )}
    >
      {status === 'active' ? 'Portal active' : 'Invited'}
    </span>
  )
}

function CustomerRow({ customer }: { customer: CustomerRowData }) {
  // Each row invites on its own, with its own pending state and result.
  const fetcher = useFetcher<typeof action>()
  const sending = fetcher.state !== 'idle'
  const reply = fetcher.data && 'ok' in fetcher.data ? fetcher.data : null
  const canInvite = !customer.archived && Boolean(customer.email) && customer.portalStatus !== 'active'
  return (
    <li className="space-y-2 py-3">
      <div className="grid gap-2 md:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,1.2fr)_minmax(0,0.8fr)] md:gap-4">
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
          <span className="font-medium text-slate-500 md:sr-only">Address: </span>
          <span>{customer.address ?? 'No service location'}</span>
        </p>
        <p className="text-sm text-slate-700">
          <span className="font-medium text-slate-500 md:sr-only">Next visit: </span>
          <span>{customer.nextVisit ?? 'None booked'}</span>
        </p>
        <p className={cn('text-sm md:text-right', customer.owes ? 'font-semibold text-slate-900' : 'text-slate-600')}>
          <span className="font-medium text-slate-500 md:sr-only">Balance: </span>
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

export function ErrorBoundary() {
  return <RouteError />
}
