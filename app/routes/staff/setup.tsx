// /staff/setup — Company & Owner Setup (SPEC §2, §4, §5): invite owners for an existing or a new
// company, search and page through companies, rename them, and transfer ownership. Platform admins
// only, checked in the loader and the action. A company's card-provider account id is shown here,
// read-only: only its owner sets payment settings, in /app/settings (security review F12).
import { useEffect, useRef, useState } from 'react'
import { data, Form, Link, useFetcher } from 'react-router'
import { requireCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Field, inputClass } from '~/components/ui/field'
import {
  assignOwner,
  COMPANIES_PAGE_SIZE,
  listCompanies,
  listCompanyOptions,
  updateCompany,
} from '~/models/company.server'
import { inviteOwner } from '~/models/owner-invitation.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { formatDate } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import { logger } from '~/utils/logger.server'
import { ROLE_LABELS, type Role } from '~/utils/permissions'
import { failureStatus } from '~/utils/result'
import { InviteOwnerSchema, shortId, UpdateCompanySchema } from '~/utils/staff'
import type { Route } from './+types/setup'

export async function loader({ request }: Route.LoaderArgs) {
  await requireCapability(request, 'staff:tools')
  const url = new URL(request.url)
  const q = (url.searchParams.get('q') ?? '').slice(0, 100)
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1)
  try {
    const [list, options] = await Promise.all([listCompanies({ query: q, page }), listCompanyOptions()])
    return {
      q,
      page,
      pageCount: Math.max(1, Math.ceil(list.total / COMPANIES_PAGE_SIZE)),
      total: list.total,
      options,
      companies: list.companies.map((company) => ({
        ...company,
        created: formatDate(company.createdAt, 'UTC'),
        createdAt: company.createdAt.toISOString(),
      })),
      loadError: null,
    }
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error }, 'could not load companies')
    return { q, page, pageCount: 1, total: 0, options: [], companies: [], loadError: 'Unable to load companies.' }
  }
}

type Reply = { intent: string; companyId?: string; ok: boolean; message: string }

function reply(body: Reply, status = 200) {
  return data<Reply>(body, status)
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireCapability(request, 'staff:tools')
  const formData = await readForm(request)
  const intent = String(formData.get('intent') ?? '')

  if (intent === 'invite-owner') {
    const parsed = InviteOwnerSchema.safeParse(Object.fromEntries(formData))
    if (!parsed.success) return reply({ intent, ok: false, message: parsed.error.issues[0]?.message ?? '' }, 400)
    const v = parsed.data
    const owner = { fullName: v.fullName, email: v.email, phone: v.phone }
    const result = await inviteOwner(
      v.mode === 'existing'
        ? { mode: 'existing', companyId: v.companyId ?? '', owner, invitedBy: admin.id }
        : { mode: 'new', companyName: v.companyName ?? '', owner, invitedBy: admin.id },
    )
    if (!result.ok) return reply({ intent, ok: false, message: result.message }, failureStatus(result))
    return reply({ intent, companyId: result.companyId, ok: true, message: result.message })
  }

  if (intent === 'update-company') {
    const parsed = UpdateCompanySchema.safeParse(Object.fromEntries(formData))
    const companyId = String(formData.get('companyId') ?? '')
    if (!parsed.success) {
      return reply({ intent, companyId, ok: false, message: parsed.error.issues[0]?.message ?? '' }, 400)
    }
    const saved = await updateCompany(parsed.data).catch((error: unknown) => {
      throwIfDatabaseUnavailable(error)
      logger.error({ err: error, companyId }, 'company update failed')
      return null
    })
    if (saved === false) throw data({ reason: 'not-found' }, { status: 404 })
    if (saved === null) return reply({ intent, companyId, ok: false, message: 'Unable to update company.' }, 500)
    return reply({ intent, companyId, ok: true, message: 'Company saved.' })
  }

  if (intent === 'assign-owner') {
    const companyId = String(formData.get('companyId') ?? '')
    const profileId = String(formData.get('profileId') ?? '')
    if (!profileId) return reply({ intent, companyId, ok: false, message: 'Choose who should own this company.' }, 400)
    const outcome = await assignOwner({ companyId, profileId }).catch((error: unknown) => {
      throwIfDatabaseUnavailable(error)
      logger.error({ err: error, companyId }, 'ownership transfer failed')
      return null
    })
    if (outcome === 'not-found') throw data({ reason: 'not-found' }, { status: 404 })
    if (outcome === null) return reply({ intent, companyId, ok: false, message: 'Unable to assign owner.' }, 500)
    return reply({ intent, companyId, ok: true, message: 'Owner assigned. Previous owners are now admins.' })
  }

  return reply({ intent, ok: false, message: 'Unknown action.' }, 400)
}

export function meta() {
  return [{ title: 'Company Setup · Pool Bud staff' }]
}

type LoaderData = Route.ComponentProps['loaderData']

export default function CompanySetup({ loaderData }: Route.ComponentProps) {
  const { q, page, pageCount, total, companies, options, loadError } = loaderData
  const pageLink = (n: number) => `?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Company & Owner Setup</h1>
        <p className="text-sm text-slate-600">Invite company owners, keep company details right, and move ownership.</p>
      </div>
      <InviteOwnerCard options={options} />
      <section aria-labelledby="companies-heading" className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="companies-heading" className="text-lg font-semibold">
            Companies <span className="text-sm font-normal text-slate-500">({total})</span>
          </h2>
          <Form method="get" role="search" className="flex w-full gap-2 sm:w-auto">
            <label htmlFor="company-search" className="sr-only">
              Search companies by name or id
            </label>
            <input
              id="company-search"
              name="q"
              type="search"
              defaultValue={q}
              placeholder="Name or id"
              className={inputClass.replace('w-full', 'w-full sm:w-64')}
            />
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </Form>
        </div>
        {loadError ? <Alert tone="error">{loadError}</Alert> : null}
        {!loadError && companies.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
            {q ? `No companies match “${q}”.` : 'No companies yet.'}
          </p>
        ) : null}
        <ul className="space-y-4">
          {companies.map((company) => (
            <CompanyCard key={company.id} company={company} />
          ))}
        </ul>
        {pageCount > 1 ? (
          <nav aria-label="Pages" className="flex items-center justify-between text-sm">
            {page > 1 ? <Link to={pageLink(page - 1)}>← Previous</Link> : <span />}
            <span className="text-slate-600">
              Page {page} of {pageCount}
            </span>
            {page < pageCount ? <Link to={pageLink(page + 1)}>Next →</Link> : <span />}
          </nav>
        ) : null}
      </section>
    </div>
  )
}

function useReply(fetcher: { state: string; data?: Reply }) {
  // The reply shows until the form is edited again (SPEC §4: editing resets to idle).
  const [shown, setShown] = useState<Reply | undefined>(undefined)
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data) setShown(fetcher.data)
  }, [fetcher.state, fetcher.data])
  return [shown, () => setShown(undefined)] as const
}

function InviteOwnerCard({ options }: { options: LoaderData['options'] }) {
  const fetcher = useFetcher<Reply>({ key: 'invite-owner' })
  const [mode, setMode] = useState<'existing' | 'new'>(options.length ? 'existing' : 'new')
  const [shown, clear] = useReply(fetcher)
  const formRef = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.ok) formRef.current?.reset()
  }, [fetcher.state, fetcher.data])
  return (
    <Card aria-labelledby="invite-owner-heading">
      <fetcher.Form ref={formRef} method="post" className="space-y-4" onChange={clear}>
        <h2 id="invite-owner-heading" className="text-lg font-semibold">
          Invite an owner
        </h2>
        <input type="hidden" name="intent" value="invite-owner" />
        <fieldset className="flex flex-wrap gap-4">
          <legend className="sr-only">Company</legend>
          {(['existing', 'new'] as const).map((value) => (
            <label key={value} className="flex min-h-11 items-center gap-2 text-sm font-medium">
              <input
                type="radio"
                name="mode"
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
                className="size-4"
              />
              {value === 'existing' ? 'Existing company' : 'New company'}
            </label>
          ))}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          {mode === 'existing' ? (
            <div className="space-y-1 sm:col-span-2">
              <label htmlFor="owner-company" className="block text-sm font-medium text-slate-800">
                Company
              </label>
              <select id="owner-company" name="companyId" defaultValue="" className={inputClass}>
                <option value="">Select a company…</option>
                {options.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.name} · {shortId(option.id, 8)}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <Field label="Company name" inputProps={{ name: 'companyName', autoComplete: 'organization' }} />
          )}
          <Field label="Owner name" inputProps={{ name: 'fullName', autoComplete: 'off' }} />
          <Field label="Owner email" inputProps={{ name: 'email', type: 'email', autoComplete: 'off' }} />
          <Field label="Owner phone (optional)" inputProps={{ name: 'phone', type: 'tel', autoComplete: 'off' }} />
        </div>
        {shown ? <Alert tone={shown.ok ? 'success' : 'error'}>{shown.message}</Alert> : null}
        <Button type="submit" pending={fetcher.state !== 'idle'} pendingLabel="Sending…">
          Send owner invite
        </Button>
      </fetcher.Form>
    </Card>
  )
}

function CompanyCard({ company }: { company: LoaderData['companies'][number] }) {
  const edit = useFetcher<Reply>({ key: `company-${company.id}` })
  const assign = useFetcher<Reply>({ key: `assign-${company.id}` })
  const [editReply, clearEdit] = useReply(edit)
  const [assignReply, clearAssign] = useReply(assign)
  return (
    <li>
      <Card className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-base font-semibold">{company.name}</h3>
          <p className="text-xs text-slate-500">
            <span className="font-mono">{company.id}</span> · since {company.created}
          </p>
        </div>
        <edit.Form method="post" className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end" onChange={clearEdit}>
          <input type="hidden" name="intent" value="update-company" />
          <input type="hidden" name="companyId" value={company.id} />
          <Field
            label="Company name"
            inputProps={{ id: `name-${company.id}`, name: 'name', defaultValue: company.name, required: true }}
          />
          <Button type="submit" variant="secondary" pending={edit.state !== 'idle'} pendingLabel="Saving…">
            Save
          </Button>
        </edit.Form>
        <p className="text-sm text-slate-700">
          <span className="font-medium text-slate-800">Card-provider account id:</span>{' '}
          <span className="break-all font-mono">{company.stripeAccountId ?? 'None'}</span>
          <span className="block text-xs text-slate-500">Set by the company's owner in Settings.</span>
        </p>
        {editReply ? <Alert tone={editReply.ok ? 'success' : 'error'}>{editReply.message}</Alert> : null}
        <div className="grid gap-4 border-t border-slate-100 pt-4 sm:grid-cols-2">
          <div className="space-y-1 text-sm">
            <h4 className="font-medium text-slate-800">Owner</h4>
            {company.owners.length === 0 ? (
              <p className="text-slate-600">No owner assigned.</p>
            ) : (
              company.owners.map((owner) => (
                <div key={owner.id} className="text-slate-700">
                  <p className="font-medium">{owner.fullName ?? owner.email}</p>
                  <p className="break-all">{owner.email}</p>
                  {owner.phone ? <p>{owner.phone}</p> : null}
                  {owner.address ? <p>{owner.address}</p> : null}
                </div>
              ))
            )}
          </div>
          <assign.Form method="post" className="space-y-2" onChange={clearAssign}>
            <input type="hidden" name="intent" value="assign-owner" />
            <input type="hidden" name="companyId" value={company.id} />
            <label htmlFor={`assign-${company.id}`} className="block text-sm font-medium text-slate-800">
              Assign owner
            </label>
            <div className="flex flex-wrap gap-2">
              <select
                id={`assign-${company.id}`}
                name="profileId"
                defaultValue=""
                className={inputClass.replace('w-full', 'w-full sm:flex-1')}
                disabled={company.eligibleOwners.length === 0}
              >
                <option value="">
                  {company.eligibleOwners.length ? 'Choose a teammate…' : 'No teammates to choose from'}
                </option>
                {company.eligibleOwners.map((person) => (
                  <option key={person.id} value={person.id}>
                    {person.fullName ?? person.email} ({ROLE_LABELS[person.role as Role]}) · {shortId(person.id, 4)}
                  </option>
                ))}
              </select>
              <Button
                type="submit"
                variant="secondary"
                pending={assign.state !== 'idle'}
                pendingLabel="Assigning…"
                disabled={company.eligibleOwners.length === 0}
              >
                Assign
              </Button>
            </div>
            {assignReply ? <Alert tone={assignReply.ok ? 'success' : 'error'}>{assignReply.message}</Alert> : null}
          </assign.Form>
        </div>
      </Card>
    </li>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
