// The owner's and the admin's dashboards (SPEC §2, OPERATIONS §7): the business at a glance. Every figure
// is counted in SQL over the whole company — money from the invoices, payments and plan rates themselves
// (app/models/billing-figures.server.ts), never an estimate per job; lists are the spec's slices. Queries run in
// parallel.
import { getBillingFigures } from '~/models/billing-figures.server'
import { getInventorySummary, listLowStockItems } from '~/models/inventory.server'
import { getBusinessCounts, jobStatus, listOpenJobs, listRecentCompletions } from '~/models/job.server'
import { countTeamByRole, listTeamPreview, STAFF_ROLES } from '~/models/team.server'
import { localDateAt } from '~/schedule/local-date'
import { formatDateTime } from '~/utils/dates'
import { listUndeliveredEmails } from '~/utils/email.server'
import { formatCents } from '~/utils/money'

/** SPEC §9 list sizes. */
export const OWNER_PIPELINE_SIZE = 5
export const ADMIN_UPCOMING_SIZE = 6
export const RECENT_COMPLETIONS_SIZE = 5

type JobRow = Awaited<ReturnType<typeof listOpenJobs>>[number]

function jobItem(job: JobRow, timezone: string, now: Date) {
  return {
    id: job.id,
    customerName: job.customerName,
    address: job.address,
    scheduled: formatDateTime(job.scheduledAt, timezone),
    completed: job.completedAt ? formatDateTime(job.completedAt, timezone) : null,
    status: jobStatus(job, now),
    technicianName: job.technicianName,
  }
}

export type DashboardJob = ReturnType<typeof jobItem>

type Args = { companyId: string; timezone: string; now?: Date }

/** Members a dashboard's team section lists; the rest are on the team page ("Manage team"). */
export const DASHBOARD_TEAM_SIZE = 8

export async function loadOwnerDashboard({ companyId, timezone, now = new Date() }: Args) {
  const today = localDateAt(now, timezone)
  const [counts, money, pipeline, recent, inventory, team, members, undeliveredEmails] = await Promise.all([
    getBusinessCounts({ companyId, timezone, now }),
    getBillingFigures({ companyId, today }),
    listOpenJobs({ companyId, limit: OWNER_PIPELINE_SIZE }),
    listRecentCompletions({ companyId, limit: RECENT_COMPLETIONS_SIZE }),
    getInventorySummary(companyId),
    countTeamByRole(companyId),
    listTeamPreview(companyId, STAFF_ROLES, DASHBOARD_TEAM_SIZE),
    listUndeliveredEmails({ companyId, now }),
  ])
  return {
    undeliveredEmails,
    open: counts.open,
    overdue: counts.overdue,
    skippedThisWeek: counts.skippedThisWeek,
    completedThisMonth: counts.completedThisMonth,
    money: {
      invoicedThisMonth: formatCents(money.invoicedThisMonthCents),
      collected: formatCents(money.collectedThisMonthCents),
      outstanding: formatCents(money.outstandingCents),
      pastDue: formatCents(money.pastDueCents),
      monthlyRecurring: formatCents(money.monthlyRecurringCents),
      activePlans: money.activePlans,
      forecast: formatCents(money.forecastThisMonthCents),
    },
    inventoryValue: formatCents(inventory.valueCents),
    lowStock: inventory.lowStock,
    team,
    members,
    pipeline: pipeline.map((job) => jobItem(job, timezone, now)),
    recent: recent.map((job) => jobItem(job, timezone, now)),
  }
}

export async function loadAdminDashboard({ companyId, timezone, now = new Date() }: Args) {
  const today = localDateAt(now, timezone)
  const [counts, money, upcoming, recent, team, roster, lowStock, undeliveredEmails] = await Promise.all([
    getBusinessCounts({ companyId, timezone, now }),
    getBillingFigures({ companyId, today }),
    listOpenJobs({ companyId, limit: ADMIN_UPCOMING_SIZE }),
    listRecentCompletions({ companyId, limit: RECENT_COMPLETIONS_SIZE }),
    countTeamByRole(companyId),
    // SPEC §6: the admin's roster shows dispatchers and technicians only.
    listTeamPreview(companyId, ['dispatcher', 'tech'], DASHBOARD_TEAM_SIZE),
    listLowStockItems({ companyId }),
    listUndeliveredEmails({ companyId, now }),
  ])
  return {
    undeliveredEmails,
    open: counts.open,
    today: counts.today,
    overdue: counts.overdue,
    skippedThisWeek: counts.skippedThisWeek,
    completedThisWeek: counts.completedThisWeek,
    // SPEC §2's "invoiced figure", from the invoices themselves (admins run billing with the owner).
    invoicedThisMonth: formatCents(money.invoicedThisMonthCents),
    outstanding: formatCents(money.outstandingCents),
    activeTechnicians: team.tech,
    roster,
    upcoming: upcoming.map((job) => jobItem(job, timezone, now)),
    recent: recent.map((job) => jobItem(job, timezone, now)),
    lowStock: lowStock.map((item) => ({
      id: item.id,
      name: item.name,
      sku: item.sku,
      qty: item.qty,
      price: formatCents(item.priceCents),
    })),
  }
}

export type UndeliveredEmails = OwnerDashboardData['undeliveredEmails']

export type OwnerDashboardData = Awaited<ReturnType<typeof loadOwnerDashboard>>
export type AdminDashboardData = Awaited<ReturnType<typeof loadAdminDashboard>>
