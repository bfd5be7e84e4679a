import {
  getTechCounts,
  type JobStatus,
  jobStatus,
  listTechHistory,
  listTechOpenJobs,
  type SiteAccess,
} from '~/models/job.server'
import { formatDate, formatDateTime, formatTime, zonedDayRange } from '~/utils/dates'
import { type ReadingSummary, summariseReading } from '~/water/summary'

/** SPEC §9: a technician's job query is capped at 100 rows. */
export const TECH_ROUTE_LIMIT = 100

export type TechRouteJob = {
  id: string
  customerName: string
  address: string
  /** ISO instant, for `<time dateTime>`. */
  scheduledAt: string
  /** "Today, 9:30 AM" or "Tue, Nov 24, 9:30 AM" on the company's wall clock. */
  when: string
  status: Exclude<JobStatus, 'Completed' | 'Skipped' | 'Cancelled'>
  /** Gate code, access notes, dog, minutes on site: the technician is staff of the company. */
  access: SiteAccess
}

export type TechHistoryJob = {
  id: string
  customerName: string
  address: string
  completedAt: string
  completed: string
  readings: number
  /** Status and balance of the visit's latest reading; null without one. */
  water: ReadingSummary | null
}

export type TechDashboardData = {
  /** "Nov 25, 2026": today's date in the company's timezone. */
  today: string
  counts: { today: number; overdue: number; upcoming: number; completedThisWeek: number }
  next: TechRouteJob | null
  route: TechRouteJob[]
  /** All open jobs (counted in SQL), so the page can say when the route list was cut at the limit. */
  openTotal: number
  history: TechHistoryJob[]
}

/**
 * Everything the technician's dashboard shows, limited to jobs assigned to `technicianId`
 * (SPEC §2). Dates are pre-formatted in the company's timezone so the server and the
 * browser render the same text whatever the device's clock says.
 */
export async function loadTechDashboard({
  companyId,
  technicianId,
  timezone,
  now = new Date(),
}: {
  companyId: string
  technicianId: string
  timezone: string
  now?: Date
}): Promise<TechDashboardData> {
  const [counts, openJobs, [nextOnTime], history] = await Promise.all([
    getTechCounts({ companyId, technicianId, timezone, now }),
    listTechOpenJobs({ companyId, technicianId, limit: TECH_ROUTE_LIMIT }),
    // Asked for on its own: the route list is cut at the limit, and a backlog of late visits could fill it.
    listTechOpenJobs({ companyId, technicianId, limit: 1, from: now }),
    listTechHistory({ companyId, technicianId }),
  ])

  const { start, end } = zonedDayRange(now, timezone)
  const when = (at: Date) =>
    at >= start && at < end ? `Today, ${formatTime(at, timezone)}` : formatDateTime(at, timezone)

  const toRouteJob = (job: (typeof openJobs)[number]): TechRouteJob => ({
    id: job.id,
    customerName: job.customerName,
    address: job.address,
    scheduledAt: job.scheduledAt.toISOString(),
    when: when(job.scheduledAt),
    status: jobStatus(job, now) === 'Overdue' ? 'Overdue' : 'Scheduled',
    access: {
      gateCode: job.gateCode,
      accessNotes: job.accessNotes,
      dogOnSite: job.dogOnSite,
      minutesOnSite: job.minutesOnSite,
    },
  })
  // Open jobs come from the earliest, so overdue ones (scheduled before now) lead the route.
  const route = openJobs.map(toRouteJob)

  return {
    today: formatDate(now, timezone),
    counts,
    // Where to drive next is the first visit still on time; if everything left is late,
    // the oldest late one is the one to catch up on.
    next: nextOnTime ? toRouteJob(nextOnTime) : (route[0] ?? null),
    route,
    openTotal: counts.overdue + counts.upcoming,
    history: history.map((job) => ({
      id: job.id,
      customerName: job.customerName,
      address: job.address,
      // listTechHistory only returns completed jobs; the fallback keeps the type honest.
      completedAt: (job.completedAt ?? job.scheduledAt).toISOString(),
      completed: formatDateTime(job.completedAt ?? job.scheduledAt, timezone),
      readings: job.readings,
      water: job.latest ? summariseReading(job.latest, job.pool ?? {}) : null,
    })),
  }
}
