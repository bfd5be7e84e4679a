// The technician's /app (docs/product.md "The visit"): "Today" is the day's stops in route order with "Up next" on top,
// "This week" is Monday to Sunday grouped by day. Never a flat list of every visit ever assigned.
import { getTechCounts } from '~/models/dashboard-counts.server'
import { listTechHistory, listTechOpenVisits } from '~/models/dashboard-lists.server'
import { getDayRoute } from '~/models/day-route.server'
import { listTechnicianWeek, type RouteStop } from '~/models/day-stops.server'
import { listNoticeSubjects } from '~/models/notice.server'
import { type ClockDay, clockDayOf } from '~/models/time-clock.server'
import type { SiteAccess } from '~/models/visit-record.server'
import type { VisitState } from '~/models/visit-state'
import { mondayOf } from '~/models/week-board.server'
import { instantAt, type LocalDate, localDateAt } from '~/schedule/local-date'
import { formatDate, formatDateTime, formatFullDate, zonedDayRange } from '~/utils/dates'
import { type ReadingSummary, summarizeReading } from '~/water/summary'

/** The overdue list shows the oldest visits first, this many at most; the count above it is exact. */
export const OVERDUE_LIST_LIMIT = 50

export type TechTab = 'today' | 'week' | 'overdue'

/** `?tab=week` and `?tab=overdue`; anything else is "Today". */
export function techTabOf(url: URL): TechTab {
  const tab = url.searchParams.get('tab')
  return tab === 'week' || tab === 'overdue' ? tab : 'today'
}

/** A Google Maps route to the address from wherever the phone is. */
export function directionsUrl(address: string) {
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(address)}`
}

export type TechStop = {
  id: string
  customerName: string
  address: string
  /** "9:30 AM" on the company's wall clock. */
  time: string
  /** Today: the route's estimated arrival, "10:40 AM" (docs/routing.md); null when it has none. */
  eta: string | null
  state: VisitState
  skipReason: string | null
  /** Its place among all the day's stops, from 1 ("Stop k of n"). */
  number: number
  directions: string
  /** Gate code, access notes, dog, minutes on site: the technician is staff of the company. */
  access: SiteAccess
  /** The customer was already told "On my way" about this visit (Today only). */
  toldOnMyWay: boolean
}

export type TechDay = {
  date: LocalDate
  /** "Wednesday, November 25, 2026". */
  heading: string
  isToday: boolean
  stops: TechStop[]
}

export type TechOverdueVisit = { id: string; customerName: string; address: string; scheduledAt: string; when: string }

export type TechHistoryVisit = {
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
  tab: TechTab
  /** "Nov 25, 2026": today's date in the company's timezone. */
  today: string
  /** Open visits today, open visits from earlier days, completions since Monday. */
  counts: { today: number; overdue: number; completedThisWeek: number }
  /** Today's stops in route order (the "Today" tab; empty on the others). */
  stops: TechStop[]
  /** Monday to Sunday (the "This week" tab; empty on the others). */
  week: TechDay[]
  /** The oldest open visits from earlier days (the overdue list; empty on the other tabs). */
  overdue: TechOverdueVisit[]
  history: TechHistoryVisit[]
  /** "Your day" on the clock (the "Today" tab; null on the others), with the company's zone for its times. */
  clock: (ClockDay & { timezone: string }) | null
}

function toTechStop(stop: RouteStop & { eta?: string | null }, index: number): TechStop {
  return {
    id: stop.id,
    eta: stop.eta ?? null,
    customerName: stop.customerName,
    address: stop.address,
    time: stop.time,
    state: stop.state,
    skipReason: stop.skipReason,
    number: index + 1,
    directions: directionsUrl(stop.address),
    toldOnMyWay: false,
    access: {
      gateCode: stop.gateCode,
      accessNotes: stop.accessNotes,
      dogOnSite: stop.dogOnSite,
      minutesOnSite: stop.minutesOnSite,
    },
  }
}

/** A local date's heading: the date at noon, which every zone's day contains whatever its clock changes. */
function dayHeading(date: LocalDate, timezone: string) {
  return formatFullDate(instantAt(date, '12:00', timezone), timezone)
}

/**
 * What the technician's dashboard shows, limited to visits assigned to `technicianId` and to what the tab needs. Dates
 * are pre-formatted in the company's timezone so the server and the browser render the same text.
 */
export async function loadTechDashboard({
  companyId,
  technicianId,
  timezone,
  tab = 'today',
  now = new Date(),
}: {
  companyId: string
  technicianId: string
  timezone: string
  tab?: TechTab
  now?: Date
}): Promise<TechDashboardData> {
  const todayDate = localDateAt(now, timezone)
  const todayStart = zonedDayRange(now, timezone).start
  const [counts, stops, week, overdue, history, clock] = await Promise.all([
    getTechCounts({ companyId, technicianId, timezone, now }),
    // Today's stops with the route's ETAs (the same model as the office's route page).
    tab === 'today' ? getDayRoute({ companyId, timezone, technicianId, date: todayDate }).then((day) => day.stops) : [],
    tab === 'week' ? listTechnicianWeek({ companyId, timezone, technicianId, weekStart: mondayOf(todayDate) }) : [],
    tab === 'overdue'
      ? listTechOpenVisits({ companyId, technicianId, before: todayStart, limit: OVERDUE_LIST_LIMIT })
      : [],
    tab === 'today' ? listTechHistory({ companyId, technicianId }) : [],
    tab === 'today' ? clockDayOf({ companyId, technicianId, timezone, now }) : null,
  ])

  // Which of today's stops the customer was already told "On my way" about (the notice's outbox row).
  const told = new Set(
    await listNoticeSubjects({ companyId, event: 'on-my-way', subjects: stops.map((stop) => stop.id) }),
  )
  return {
    tab,
    clock: clock ? { ...clock, timezone } : null,
    today: formatDate(now, timezone),
    counts,
    stops: stops.map((stop, index) => ({ ...toTechStop(stop, index), toldOnMyWay: told.has(stop.id) })),
    week: week.map((day) => ({
      date: day.date,
      heading: dayHeading(day.date, timezone),
      isToday: day.date === todayDate,
      stops: day.stops.map(toTechStop),
    })),
    overdue: overdue.map((visit) => ({
      id: visit.id,
      customerName: visit.customerName,
      address: visit.address,
      scheduledAt: visit.scheduledAt.toISOString(),
      when: formatDateTime(visit.scheduledAt, timezone),
    })),
    history: history.map((visit) => ({
      id: visit.id,
      customerName: visit.customerName,
      address: visit.address,
      // listTechHistory only returns completed visits; the fallback keeps the type honest.
      completedAt: (visit.completedAt ?? visit.scheduledAt).toISOString(),
      completed: formatDateTime(visit.completedAt ?? visit.scheduledAt, timezone),
      readings: visit.readings,
      water: visit.latest ? summarizeReading(visit.latest, visit.pool ?? {}) : null,
    })),
  }
}
