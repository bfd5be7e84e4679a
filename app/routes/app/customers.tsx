import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { createCookie, data, Link, redirect, useFetcher } from 'react-router'
import { CustomerForm, CustomerSchema } from '~/components/customer-form'
import { ListSearchForm } from '~/components/list-search-form'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { getCompanySummary } from '~/models/company.server'
import { createCustomer, getCustomer, listCustomers, type PortalStatus, updateCustomer } from '~/models/customer.server'
import { oncePerKey, readIdempotencyKey } from '~/models/idempotency.server'
import { inviteCustomer } from '~/models/invitation.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { DEFAULT_TIMEZONE, formatDate } from '~/utils/dates'
import { env } from '~/utils/env.server'
import { readForm } from '~/utils/forms'
import { logger } from '~/utils/logger.server'
import { formatCents } from '~/utils/money'
import { notFound, requireCapability } from '~/utils/permissions.server'
import { formatPhone } from '~/utils/phone'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/customers'

const PAGE_SIZE = 50
const NO_COMPANY_PAGE = "Your profile isn't linked to a company. Contact an owner for access."

type InviteOutcome = { ok: boolean; message: string }

/** What a save leaves for the page it redirects to: the spec's message and, on creation, the invite's result. */
type Flash = { id: string; notice: string; invite: InviteOutcome | null }

// A save redirects (so a reload never re-submits and the form is back in add mode, SPEC §4);
// its messages travel in a short-lived signed cookie that the next page load reads and clears.
function flashCookie() {
  return createCookie('pb-customers-flash', {
    // Not '/app/customers': client-side loads fetch '/app/customers.data', which that path would not cover.
    path: '/app',
    httpOnly: true,
    sameSite: 'lax',
    secure: env().APP_URL.startsWith('https://'),
    secrets: [env().AUTH_SECRET],
    maxAge: 60,
  })
}

async function readFlash(request: Request): Promise<Flash | null> {
  const value = await flashCookie().parse(request.headers.get('Cookie'))
  if (!value || typeof value !== 'object' || typeof value.id !== 'string' || typeof value.notice !== 'string') {
    return null
  }
  const invite = value.invite
  return {
    id: value.id,
    notice: value.notice,
    invite: invite && typeof invite.message === 'string' ? { ok: invite.ok === true, message: invite.message } : null,
  }
}

/** The list's query string (search and page) without the edit parameter. */
function listSearch(q: string, page = 1) {
  const params = new URLSearchParams()
  if (q) params.set('q', q)
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return search ? `?${search}` : ''
}

function readListParams(url: URL) {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100)
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10)
  return { q, page: Number.isFinite(page) && page > 0 ? Math.min(page, 100_000) : 1 }
}

/** The inviter never throws at us: a failure is a message for the staff member, and a log line. */
async function sendInvite(companyId: string, customerId: string): Promise<InviteOutcome & { status: number }> {
  try {
    const result = await inviteCustomer({ companyId, customerId })
    if (result.ok) return { ok: true, message: result.message, status: 200 }
    logger.warn({ customerId, message: result.message }, 'customer invite refused')
    return { ok: false, message: result.message, status: failureStatus(result) }
  } catch (error) {
    logger.error({ err: error, customerId }, 'customer invite failed')
    return { ok: false, message: 'Unable to send invite.', status: 500 }
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCapability(request, 'customers:manage')
  const companyId = user.profile?.companyId
  // Customers page access is tied to the profile's company (SPEC §6, §8).
  if (!companyId) return data({ kind: 'no-company' as const, message: NO_COMPANY_PAGE })

  const url = new URL(request.url)
  const { q, page } = readListParams(url)
  const editId = url.searchParams.get('edit') ?? ''
  const [company, editing, firstTry, flash] = await Promise.all([
    getCompanySummary(companyId),
    editId ? getCustomer({ companyId, customerId: editId }) : null,
    listCustomers({ companyId, query: q, page, pageSize: PAGE_SIZE }),
    readFlash(request),
  ])
  // Another company's customer (or a made-up id) does not exist for this user.
  if (editId && !editing) notFound()

  // A page past the end (an old link after customers were removed) shows the last page instead.
  let list = firstTry
  let currentPage = page
  const pageCount = Math.max(1, Math.ceil(list.total / PAGE_SIZE))
  if (list.rows.length === 0 && list.total > 0 && page > pageCount) {
    currentPage = pageCount
    list = await listCustomers({ companyId, query: q, page: currentPage, pageSize: PAGE_SIZE })
  }

  const timezone = company?.timezone ?? DEFAULT_TIMEZONE
  return data(
    {
      kind: 'customers' as const,
      q,
      page: currentPage,
      pageSize: PAGE_SIZE,
      total: list.total,
      flash,
      // The add form's idempotency key: a new one for every page load (a save redirects here).
      addFormKey: crypto.randomUUID(),
      editing: editing
        ? {
            id: editing.id,
            customerName: editing.customerName,
            address: editing.address,
            email: editing.email ?? '',
            phone: editing.phone ? formatPhone(editing.phone) : '',
            poolVolumeGallons: editing.poolVolumeGallons?.toString() ?? '',
            poolSurface: editing.poolSurface ?? '',
            poolSanitiser: editing.poolSanitiser ?? '',
            poolSetting: editing.poolIndoor == null ? '' : editing.poolIndoor ? 'indoor' : 'outdoor',
          }
        : null,
      customers: list.rows.map((row) => ({
        id: row.id,
        customerName: row.customerName,
        address: row.address,
        email: row.email,
        phone: row.phone ? formatPhone(row.phone) : null,
        phoneHref: row.phone,
        balanceDue: formatCents(row.balanceDue),
        owes: row.balanceDue > 0,
        created: formatDate(row.createdAt, timezone),
        portalStatus: row.portalStatus,
      })),
    },
    flash ? { headers: { 'Set-Cookie': await flashCookie().serialize('', { maxAge: 0 }) } } : undefined,
  )
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCapability(request, 'customers:manage')
  const companyId = user.profile?.companyId ?? null
  const formData = await readForm(request)
  if (formData.get('intent') === 'invite') return inviteFromRow(companyId, formData)
  return saveCustomer(companyId, formData, new URL(request.url))
}

/** Creates or updates (by the hidden customerId) from the form; creation with an email also invites. */
async function saveCustomer(companyId: string | null, formData: FormData, url: URL) {
  const customerId = String(formData.get('customerId') ?? '').trim()
  // Someone else's customer is answered before anything is validated, exactly as a missing one.
  if (customerId && companyId && !(await getCustomer({ companyId, customerId }))) notFound()

  const submission = parseWithZod(formData, { schema: CustomerSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'save' as const, result: submission.reply() }, 400)
  }
  if (!companyId) {
    return data({ intent: 'save' as const, result: submission.reply({ formErrors: ['No company context.'] }) }, 400)
  }

  const idempotency = readIdempotencyKey(formData)
  if (!idempotency.ok) {
    return data({ intent: 'save' as const, result: submission.reply({ formErrors: [idempotency.message] }) }, 400)
  }

  const { customerId: _id, poolSetting, ...rest } = submission.value
  const fields = { ...rest, poolIndoor: poolSetting === null ? null : poolSetting === 'indoor' }
  // A new customer sent again (same key) is created once, and invited once.
  const create = () =>
    oncePerKey({ companyId, key: idempotency.key, action: 'customer.create' }, async (tx) => {
      const row = await createCustomer({ companyId, ...fields }, tx)
      return { ok: true as const, customerId: row.id }
    }).then((created) => (created.ok ? { id: created.customerId, replayed: 'replayed' in created } : null))
  const saved: { id: string; replayed: boolean } | false | null = await (customerId
    ? updateCustomer({ companyId, customerId, ...fields }).then((ok) =>
        ok ? { id: customerId, replayed: false } : false,
      )
    : create()
  ).catch((error: unknown) => {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, customerId }, 'customer save failed')
    return null
  })
  if (saved === false) notFound()
  if (saved === null) {
    return data(
      { intent: 'save' as const, result: submission.reply({ formErrors: ['Unable to save customer.'] }) },
      500,
    )
  }

  // SPEC §5: an email given on creation triggers the portal invitation. The customer is
  // already saved; the invite's outcome, good or bad, is shown beside "Customer saved.".
  const sent = !customerId && !saved.replayed && fields.email ? await sendInvite(companyId, saved.id) : null
  const invite = sent ? { ok: sent.ok, message: sent.message } : null
  const flash: Flash = { id: crypto.randomUUID(), notice: 'Customer saved.', invite }
  const { q, page } = readListParams(url)
  // An edit returns to the page it came from; a new customer to the start of the (filtered) list.
  return redirect(`/app/customers${listSearch(q, customerId ? page : 1)}`, {
    headers: { 'Set-Cookie': await flashCookie().serialize(flash) },
  })
}

/** 'Send portal invite' from a row; the row shows the result. */
async function inviteFromRow(companyId: string | null, formData: FormData) {
  const customerId = String(formData.get('customerId') ?? '')
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
  const { status, ...result } = await sendInvite(companyId, customer.id)
  return data({ intent: 'invite' as const, customerId, ...result }, status)
}

export function meta() {
  return [{ title: 'Customers · Pool Bud' }]
}

type PageData = Extract<Route.ComponentProps['loaderData'], { kind: 'customers' }>
type CustomerRowData = PageData['customers'][number]

export default function CustomersPage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.kind === 'no-company') {
    return (
      <Card className="mx-auto max-w-lg space-y-3">
        <h1 className="text-2xl font-bold">Customers</h1>
        <Alert tone="error">{loaderData.message}</Alert>
      </Card>
    )
  }
  return <CustomersScreen data={loaderData} actionData={actionData} />
}

function CustomersScreen({ data, actionData }: { data: PageData; actionData: Route.ComponentProps['actionData'] }) {
  const editingId = data.editing?.id ?? null

  // The save's messages stay until the user moves on (edits the form, opens another customer),
  // not just until the next background revalidation, which no longer carries the flash.
  const [flash, setFlash] = useState(data.flash)
  const [formVersion, setFormVersion] = useState(data.flash?.id ?? '')
  const [shownEditingId, setShownEditingId] = useState(editingId)
  if (shownEditingId !== editingId) {
    setShownEditingId(editingId)
    setFlash(null)
  }
  if (data.flash && data.flash.id !== formVersion) {
    // A new save: show its messages and remount the form blank, in add mode.
    setFlash(data.flash)
    setFormVersion(data.flash.id)
  }

  const saveResult = actionData?.intent === 'save' ? actionData.result : undefined
  const cancelTo = `/app/customers${listSearch(data.q, data.page)}`

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Customers</h1>
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">
          {data.editing ? `Edit ${data.editing.customerName}` : 'Add a customer'}
        </h2>
        <div aria-live="polite" className="space-y-2">
          {flash ? <Alert tone="success">{flash.notice}</Alert> : null}
          {flash?.invite ? (
            <Alert tone={flash.invite.ok ? 'success' : 'error'}>
              {flash.invite.ok ? flash.invite.message : `Portal invite not sent: ${flash.invite.message}`}
            </Alert>
          ) : null}
        </div>
        <CustomerForm
          key={`${editingId ?? 'new'}:${formVersion}`}
          idempotencyKey={data.addFormKey}
          editing={data.editing}
          lastResult={saveResult}
          cancelTo={cancelTo}
          onInput={flash ? () => setFlash(null) : undefined}
        />
      </Card>
      <Card className="space-y-4">
        <ListSearchForm
          path="/app/customers"
          id="customer-search"
          label="Search customers"
          placeholder="Name, address or email"
          q={data.q}
          editingId={editingId}
        />
        <CustomerList data={data} editingId={editingId} />
      </Card>
    </div>
  )
}

function CustomerList({ data, editingId }: { data: PageData; editingId: string | null }) {
  if (data.customers.length === 0) {
    return <p className="text-sm text-slate-600">No customers found. Try adding one above.</p>
  }
  const from = (data.page - 1) * data.pageSize + 1
  const to = from + data.customers.length - 1
  const pageCount = Math.ceil(data.total / data.pageSize)
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600" aria-live="polite">
        Showing {from}–{to} of {data.total}
      </p>
      <ul className="divide-y divide-slate-100">
        {data.customers.map((customer) => (
          <CustomerRow
            key={customer.id}
            customer={customer}
            editing={customer.id === editingId}
            editTo={`/app/customers?${new URLSearchParams({
              ...(data.q ? { q: data.q } : {}),
              ...(data.page > 1 ? { page: String(data.page) } : {}),
              edit: customer.id,
            })}`}
          />
        ))}
      </ul>
      {pageCount > 1 ? (
        <nav aria-label="Customer pages" className="flex flex-wrap items-center justify-between gap-2">
          {data.page > 1 ? (
            <Link to={`/app/customers${listSearch(data.q, data.page - 1)}`} className={buttonClass('secondary')}>
              Previous
            </Link>
          ) : (
            <span />
          )}
          <span className="text-sm text-slate-600">
            Page {data.page} of {pageCount}
          </span>
          {data.page < pageCount ? (
            <Link to={`/app/customers${listSearch(data.q, data.page + 1)}`} className={buttonClass('secondary')}>
              Next
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
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

const linkClass = 'inline-flex min-h-11 items-center rounded-lg px-2 text-sm font-medium text-brand-700 hover:underline'

function CustomerRow({ customer, editing, editTo }: { customer: CustomerRowData; editing: boolean; editTo: string }) {
  // Each row invites on its own, with its own pending state and result.
  const fetcher = useFetcher<typeof action>()
  const sending = fetcher.state !== 'idle'
  const reply = fetcher.data && 'ok' in fetcher.data ? fetcher.data : null
  const canInvite = Boolean(customer.email) && customer.portalStatus !== 'active'
  return (
    <li className={cn('space-y-2 py-3', editing && '-mx-2 rounded-lg bg-brand-50 px-2')}>
      <div className="grid gap-2 md:grid-cols-[minmax(0,1fr)_auto] md:items-start">
        <div className="min-w-0 space-y-0.5">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-slate-900">{customer.customerName}</span>
            <PortalBadge status={customer.portalStatus} />
          </div>
          <p className="text-sm text-slate-700">{customer.address}</p>
          <p className="text-sm text-slate-600">
            {customer.email ? (
              <a href={`mailto:${customer.email}`} className="break-all hover:underline">
                {customer.email}
              </a>
            ) : (
              'No email'
            )}
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
        <dl className="flex gap-6 text-sm md:text-right">
          <div>
            <dt className="text-slate-500">Balance due</dt>
            <dd className={cn('font-semibold', customer.owes ? 'text-slate-900' : 'text-slate-500')}>
              {customer.balanceDue}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Added</dt>
            <dd className="text-slate-700">{customer.created}</dd>
          </div>
        </dl>
      </div>
      <div className="flex flex-wrap items-center gap-1">
        <Link to={editTo} className={linkClass}>
          Edit<span className="sr-only"> {customer.customerName}</span>
        </Link>
        <Link to={`/customer/${customer.id}`} className={linkClass}>
          Portal preview<span className="sr-only"> for {customer.customerName}</span>
        </Link>
        {/* The portal lists the customer's visits, completed and scheduled. */}
        <Link to={`/customer/${customer.id}`} className={linkClass}>
          Job history<span className="sr-only"> for {customer.customerName}</span>
        </Link>
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
      </div>
      <div aria-live="polite">
        {reply && !sending ? <Alert tone={reply.ok ? 'success' : 'error'}>{reply.message}</Alert> : null}
      </div>
    </li>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
