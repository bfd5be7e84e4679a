import { randomUUID } from 'node:crypto'
import { assignFormVisit, saveAssignmentForm } from '~/features/visits/assign-visit.server'
import { createVisitFromForm } from '~/features/visits/create-visit.server'
import { DispatchBoardIntentSchema } from '~/features/visits/dispatch-board-schema'
import { getDispatchCounts } from '~/models/dashboard-counts.server'
import { listUnassignedVisits } from '~/models/dashboard-lists.server'
import { listRecentActivity, listTodaysRoutes } from '~/models/dispatch-home.server'
import { listTechnicians } from '~/models/profile.server'
import { visitState } from '~/models/visit-state'
import { localDateAt } from '~/schedule/local-date'
import { formatDate, formatDateTime, toZonedInputValue } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { readPage } from '~/utils/paging'

/**
 * Unassigned visits per page of the board. Each row carries its own technician picker, so a long page would repeat
 * the whole team once per row (50 rows × 50 technicians was 2,500 options): pages keep the board light.
 */
export const UNASSIGNED_PAGE_SIZE = 10

/** Everything the dispatcher dashboard shows, loaded in parallel (no per-row queries). */
export async function loadDispatcherDashboard({
  companyId,
  timezone,
  unassignedPage = 1,
  now = new Date(),
}: {
  companyId: string
  timezone: string
  unassignedPage?: number
  now?: Date
}) {
  const today = localDateAt(now, timezone)
  const [counts, unassigned, routes, recent, technicians] = await Promise.all([
    getDispatchCounts({ companyId, timezone, now }),
    listUnassignedVisits({
      companyId,
      limit: UNASSIGNED_PAGE_SIZE,
      offset: (unassignedPage - 1) * UNASSIGNED_PAGE_SIZE,
    }),
    listTodaysRoutes({ companyId, timezone, now }),
    listRecentActivity({ companyId }),
    listTechnicians(companyId),
  ])
  return {
    counts,
    // The create form's idempotency key: a new one for every page load.
    createVisitKey: randomUUID(),
    defaultSchedule: toZonedInputValue(new Date(now.getTime() + 60 * 60_000), timezone)
      .slice(0, 14)
      .concat('00'),
    technicians: technicians.map((t) => ({ id: t.id, name: t.fullName ?? t.email })),
    unassignedPage: {
      page: unassignedPage,
      pageCount: Math.max(1, Math.ceil(counts.unassigned / UNASSIGNED_PAGE_SIZE)),
      first: (unassignedPage - 1) * UNASSIGNED_PAGE_SIZE + 1,
      last: (unassignedPage - 1) * UNASSIGNED_PAGE_SIZE + unassigned.length,
      total: counts.unassigned,
    },
    unassigned: unassigned.map((visit) => ({
      ...assignFormVisit(visit, timezone),
      status: visitState(visit, { now, timezone }),
    })),
    // Today's routes by technician: stops done of all, each linking to its route page.
    routes: routes.map((route) => ({
      key: route.technicianId ?? 'unassigned',
      name: route.technicianId ? (route.technicianName ?? 'Technician') : 'Unassigned',
      done: route.done,
      total: route.total,
      to: `/app/schedule/${route.technicianId ?? 'unassigned'}/${today}`,
    })),
    recent: recent.map((line) => ({
      key: `${line.visitId}`,
      customerName: line.customerName,
      // One visit opens its page; a folded run opens the customer, where the visits are listed.
      to: line.count === 1 ? `/app/visits/${line.visitId}` : `/app/customers/${line.customerId}`,
      summary: line.count === 1 ? '1 visit scheduled' : `${line.count} visits scheduled`,
      created: formatDateTime(line.createdAt, timezone),
      scheduled:
        line.count === 1
          ? formatDateTime(line.firstScheduledAt, timezone)
          : `${formatDate(line.firstScheduledAt, timezone)} – ${formatDate(line.lastScheduledAt, timezone)}`,
      technicianName: line.technicianName,
    })),
  }
}

export type DispatcherDashboardData = Awaited<ReturnType<typeof loadDispatcherDashboard>>

/** The dispatch board's data for a request (shared by /app for dispatchers and /app/dispatch). */
export async function loadDispatchBoard(request: Request, companyId: string, timezone: string, now = new Date()) {
  return loadDispatcherDashboard({
    companyId,
    timezone,
    unassignedPage: readPage(request, 'unassigned'),
    now,
  })
}

/** The dispatch board's forms: create a visit, assign or reschedule one (each unassigned row answers for its visit). */
export async function dispatchBoardAction(request: Request, companyId: string, timezone: string, userId: string) {
  const formData = await readForm(request)
  const parsed = DispatchBoardIntentSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) unknownIntent()
  const { intent } = parsed.data
  switch (intent) {
    case 'create-visit':
      return createVisitFromForm({ companyId, userId, timezone }, formData)
    case 'assign':
      return saveAssignmentForm({
        companyId,
        visitId: parsed.data.visitId,
        timezone,
        formData,
        saved: (technicianId) => (technicianId ? 'Assigned.' : 'Rescheduled.'),
      })
  }
}
