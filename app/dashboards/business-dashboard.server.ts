// The owner's and the admin's dashboards (docs/product.md "Screens", docs/billing.md): the business at a glance. Every
// figure is counted in SQL over the whole company — money from the invoices, payments and plan rates themselves
// (app/models/billing-figures.server.ts), never an estimate per visit; the owner's labor cost this month is "Profit per
// pool"'s total (approved time where a week is approved, else the estimate: docs/profit.md); lists are the spec's
// slices. Queries run in parallel.
import { monthOf } from '~/billing/invoice-draft'
import { laborBasisText } from '~/features/reports/labor-basis'
import { getBillingFigures } from '~/models/billing-figures.server'
import { getBusinessCounts } from '~/models/dashboard-counts.server'
import { listOpenVisits, listRecentCompletions } from '~/models/dashboard-lists.server'
import { getInventorySummary, listLowStockItems } from '~/models/inventory.server'
import { laborTotals } from '~/models/profit-report.server'
import { countTeamByRole, listTeamPreview, STAFF_ROLES } from '~/models/team.server'
import { visitState } from '~/models/visit-state'
import { listUndeliveredEmails } from '~/outbox/email.server'
import { localDateAt } from '~/schedule/local-date'
import { formatDateTime } from '~/utils/dates'
import { formatCents } from '~/utils/money'

/** docs/product.md "Limits" list sizes. */
export const OWNER_PIPELINE_SIZE = 5
export const ADMIN_UPCOMING_SIZE = 6
export const RECENT_COMPLETIONS_SIZE = 5

type VisitRow = Awaited<ReturnType<typeof listOpenVisits>>[number]

function visitItem(visit: VisitRow, timezone: string, now: Date) {
  return {
    id: visit.id,
    customerName: visit.customerName,
    address: visit.address,
    scheduled: formatDateTime(visit.scheduledAt, timezone),
    completed: visit.completedAt ? formatDateTime(visit.completedAt, timezone) : null,
    status: visitState(visit, { now, timezone }),
    technicianName: visit.technicianName,
  }
}

export type DashboardVisit = ReturnType<typeof visitItem>

type Args = { companyId: string; timezone: string; now?: Date }

/** Members a dashboard's team section lists; the rest are on the team page ("Manage team"). */
export const DASHBOARD_TEAM_SIZE = 8

export async function loadOwnerDashboard({ companyId, timezone, now = new Date() }: Args) {
  const today = localDateAt(now, timezone)
  const month = monthOf(today)
  const [counts, money, pipeline, recent, inventory, team, members, undeliveredEmails, labor] = await Promise.all([
    getBusinessCounts({ companyId, timezone, now }),
    getBillingFigures({ companyId, today }),
    listOpenVisits({ companyId, limit: OWNER_PIPELINE_SIZE }),
    listRecentCompletions({ companyId, limit: RECENT_COMPLETIONS_SIZE }),
    getInventorySummary(companyId),
    countTeamByRole(companyId),
    listTeamPreview(companyId, STAFF_ROLES, DASHBOARD_TEAM_SIZE),
    listUndeliveredEmails({ companyId, now }),
    // This month's completed visits so far, as "Profit per pool" counts labor (docs/profit.md).
    laborTotals({ companyId, timezone, from: month.start, to: today }),
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
    labor: {
      thisMonth: formatCents(labor.laborCostCents),
      basis: laborBasisText(labor),
      visits: labor.visits,
    },
    inventoryValue: formatCents(inventory.valueCents),
    lowStock: inventory.lowStock,
    team,
    members,
    pipeline: pipeline.map((visit) => visitItem(visit, timezone, now)),
    recent: recent.map((visit) => visitItem(visit, timezone, now)),
  }
}

export async function loadAdminDashboard({ companyId, timezone, now = new Date() }: Args) {
  const today = localDateAt(now, timezone)
  const [counts, money, upcoming, recent, team, roster, lowStock, undeliveredEmails] = await Promise.all([
    getBusinessCounts({ companyId, timezone, now }),
    getBillingFigures({ companyId, today }),
    listOpenVisits({ companyId, limit: ADMIN_UPCOMING_SIZE }),
    listRecentCompletions({ companyId, limit: RECENT_COMPLETIONS_SIZE }),
    countTeamByRole(companyId),
    // docs/product.md "Roles": the admin's roster shows dispatchers and technicians only.
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
    // docs/product.md "Screens"'s "invoiced figure", from the invoices themselves (admins run billing with the owner).
    invoicedThisMonth: formatCents(money.invoicedThisMonthCents),
    outstanding: formatCents(money.outstandingCents),
    activeTechnicians: team.tech,
    roster,
    upcoming: upcoming.map((visit) => visitItem(visit, timezone, now)),
    recent: recent.map((visit) => visitItem(visit, timezone, now)),
    // One row per item and location (decision 060): "Low at Truck — Tyler Brooks".
    lowStock: lowStock.map((item) => ({
      id: item.id,
      key: `${item.id}:${item.locationId}`,
      name: item.name,
      sku: item.sku,
      qty: item.qty,
      where: `Low at ${item.location}`,
      price: formatCents(item.priceCents),
    })),
  }
}

export type UndeliveredEmails = OwnerDashboardData['undeliveredEmails']

export type OwnerDashboardData = Awaited<ReturnType<typeof loadOwnerDashboard>>
export type AdminDashboardData = Awaited<ReturnType<typeof loadAdminDashboard>>
