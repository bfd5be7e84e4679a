// /staff/setup — Company & Owner Setup (docs/product.md "Screens", "Visit states", "Forms"): invite owners for an
// existing or a new company, search and page through companies, rename them, and transfer ownership. Platform admins
// only, checked in the loader and the action. A company's card-provider account id is shown here,
// read-only: only its owner sets payment settings, in /app/settings (security review F12).
import { requireCapability } from '~/auth/guards.server'
import { ListSearchForm } from '~/components/list-search-form'
import { Pager } from '~/components/pager'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { CompanyCard } from '~/features/staff/company-card'
import {
  assignOwnerForm,
  inviteOwnerForm,
  loadCompanySetup,
  updateCompanyForm,
} from '~/features/staff/company-setup.server'
import { InviteOwnerCard } from '~/features/staff/invite-owner-card'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import type { Route } from './+types/setup'

export async function loader({ request }: Route.LoaderArgs) {
  await requireCapability(request, 'staff:tools')
  return loadCompanySetup(new URL(request.url))
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireCapability(request, 'staff:tools')
  const formData = await readForm(request)
  switch (formData.get('intent')) {
    case 'invite-owner':
      return inviteOwnerForm(admin.id, formData)
    case 'update-company':
      return updateCompanyForm(formData)
    case 'assign-owner':
      return assignOwnerForm(formData)
  }
  unknownIntent()
}

export function meta() {
  return [{ title: 'Company Setup · Pool Bud staff' }]
}

export default function CompanySetup({ loaderData }: Route.ComponentProps) {
  const { q, page, pageCount, total, companies, options, loadError } = loaderData
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
          <div className="w-full sm:w-96">
            <ListSearchForm
              path="/staff/setup"
              id="company-search"
              label="Search companies by name or id"
              placeholder="Name or id"
              q={q}
              editingId={null}
            />
          </div>
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
        <Pager page={page} pageCount={pageCount} label="Pages" />
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
