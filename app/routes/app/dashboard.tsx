import { JobCard } from '~/components/job-card'
import { getCompanySummary } from '~/models/company.server'
import { jobStatus, listTodaysJobs, listTodaysJobsAllCompanies } from '~/models/job.server'
import { DEFAULT_TIMEZONE, formatDate } from '~/utils/dates'
import { requireCapability } from '~/utils/permissions.server'
import type { Route } from './+types/dashboard'

// Until the role dashboards land, every role sees "Today's Jobs" (SPEC §2 fallback):
// platform admins across all companies, technicians only their own jobs.
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCapability(request, 'app:dashboard')
  const now = new Date()
  const companyId = user.profile?.companyId
  const company = companyId ? await getCompanySummary(companyId) : null
  const rows =
    user.role === 'platform_admin' || !company
      ? await listTodaysJobsAllCompanies(now)
      : await listTodaysJobs({
          companyId: company.id,
          timezone: company.timezone,
          technicianId: user.role === 'tech' ? user.id : undefined,
          now,
        })
  return {
    allCompanies: user.role === 'platform_admin',
    today: formatDate(now, company?.timezone ?? DEFAULT_TIMEZONE),
    jobs: rows.map((row) => ({
      id: row.id,
      customerName: row.customerName,
      address: row.address,
      scheduledAt: row.scheduledAt.toISOString(),
      status: jobStatus(row, now),
      technicianName: row.technicianName,
      timezone: row.timezone,
      companyName: user.role === 'platform_admin' ? row.companyName : undefined,
    })),
  }
}

export function meta() {
  return [{ title: 'Dashboard · Pool Bud' }]
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { jobs, today, allCompanies } = loaderData
  return (
    <section aria-labelledby="todays-jobs" className="space-y-4">
      <div>
        <h1 id="todays-jobs" className="text-2xl font-bold">
          Today's Jobs
        </h1>
        <p className="text-sm text-slate-600">
          {today}
          {allCompanies ? ' · all companies, read-only' : ''}
        </p>
      </div>
      {jobs.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          No jobs scheduled for today.
        </p>
      ) : (
        <ul className="space-y-3">
          {jobs.map((job) => (
            <JobCard key={job.id} job={job} />
          ))}
        </ul>
      )}
    </section>
  )
}
