import { type Company, requireCapability, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { VisitCard } from '~/components/visit-card'
import { AdminDashboard, OwnerDashboard } from '~/dashboards/business-dashboard'
import { loadAdminDashboard, loadOwnerDashboard } from '~/dashboards/business-dashboard.server'
import { DispatcherDashboard } from '~/dashboards/dispatcher-dashboard'
import { dispatchBoardAction, loadDispatchBoard } from '~/dashboards/dispatcher-dashboard.server'
import { TechDashboard } from '~/dashboards/tech-dashboard'
import { loadTechDashboard, techTabOf } from '~/dashboards/tech-dashboard.server'
import { listTodaysVisits, listTodaysVisitsAllCompanies } from '~/models/dashboard-lists.server'
import { visitState } from '~/models/visit-state'
import { formatDate } from '~/utils/dates'
import { can, type Role } from '~/utils/permissions'
import { preparedLoader } from '~/utils/prepared-statements.server'
import type { Route } from './+types/dashboard'

/** docs/product.md "Forms": what each role sees when their profile has no company. */
const MISSING_COMPANY: Partial<Record<Role, string>> = {
  owner: "Your profile isn't linked to a company. Contact support to finish onboarding.",
  admin: "Your profile isn't tied to a company yet. Contact the owner for access.",
  dispatcher: "Your profile isn't tied to a company. Contact an owner for access.",
  tech: "Your account isn't linked to a technician profile yet. Contact your admin.",
}

async function loadFallback(role: Role, company: Company | null, timezone: string, userId: string, now: Date) {
  const rows =
    role === 'platform_admin' || !company
      ? await listTodaysVisitsAllCompanies(now)
      : await listTodaysVisits({
          companyId: company.id,
          timezone,
          technicianId: role === 'tech' ? userId : undefined,
          now,
        })
  return {
    kind: 'fallback' as const,
    allCompanies: role === 'platform_admin',
    today: formatDate(now, timezone),
    visits: rows.map((row) => ({
      id: row.id,
      customerName: row.customerName,
      address: row.address,
      scheduledAt: row.scheduledAt.toISOString(),
      status: visitState(row, { now, timezone: row.timezone }),
      technicianName: row.technicianName,
      timezone: row.timezone,
      companyName: role === 'platform_admin' ? row.companyName : undefined,
    })),
  }
}

// /app picks the dashboard by role (docs/product.md "Screens"): owners the business overview, admins operations,
// dispatchers the dispatch board (owners and admins reach it at /app/dispatch), technicians their
// own route; platform admins see the read-only "Today's Visits" fallback across companies.
export const loader = preparedLoader(async ({ request }: Route.LoaderArgs) => {
  const user = await requireCapability(request, 'app:dashboard')
  const { timezone } = user
  const now = new Date()
  // The company (and its timezone) came with the session.
  const companyId = user.company?.id ?? null
  if (user.role !== 'platform_admin' && !companyId) {
    return { kind: 'no-company' as const, message: MISSING_COMPANY[user.role] ?? 'No company context' }
  }
  if (companyId && user.role === 'owner') {
    return { kind: 'owner' as const, ...(await loadOwnerDashboard({ companyId, timezone, now })) }
  }
  if (companyId && user.role === 'admin') {
    return { kind: 'admin' as const, ...(await loadAdminDashboard({ companyId, timezone, now })) }
  }
  if (companyId && can(user.role, 'visits:manage')) {
    return { kind: 'dispatcher' as const, ...(await loadDispatchBoard(request, companyId, timezone, now)) }
  }
  if (companyId && user.role === 'tech') {
    return {
      kind: 'tech' as const,
      ...(await loadTechDashboard({
        companyId,
        technicianId: user.id,
        timezone,
        tab: techTabOf(new URL(request.url)),
        now,
      })),
    }
  }
  return loadFallback(user.role, user.company, timezone, user.id, now)
})

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'visits:manage')
  return dispatchBoardAction(request, member.companyId, member.timezone, member.id)
}

export function meta() {
  return [{ title: 'Dashboard · Pool Bud' }]
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'no-company') return <Alert tone="error">{loaderData.message}</Alert>
  if (loaderData.kind === 'owner') return <OwnerDashboard data={loaderData} />
  if (loaderData.kind === 'admin') return <AdminDashboard data={loaderData} />
  if (loaderData.kind === 'dispatcher') return <DispatcherDashboard data={loaderData} />
  if (loaderData.kind === 'tech') return <TechDashboard data={loaderData} />
  const { visits, today, allCompanies } = loaderData
  return (
    <section aria-labelledby="todays-visits" className="space-y-4">
      <div>
        <h1 id="todays-visits" className="text-2xl font-bold">
          Today's Visits
        </h1>
        <p className="text-sm text-slate-600">
          {today}
          {allCompanies ? ' · all companies, read-only' : ''}
        </p>
      </div>
      {visits.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          No visits scheduled for today.
        </p>
      ) : (
        <ul className="space-y-3">
          {visits.map((visit) => (
            <VisitCard key={visit.id} visit={visit} />
          ))}
        </ul>
      )}
    </section>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
