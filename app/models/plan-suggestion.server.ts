// "Suggest a day and technician" on "Add service plan" (docs/routing.md "Suggesting a day", decision 053): for a
// location, the (weekday, technician) pairs whose routes the new pool adds the fewest minutes of driving to, on the
// plan's next occurrences. The routes are the ones "Balance the day" reads (each technician's start, end and route
// order; the same distances); the ranking is app/routing/suggest.ts. A fixed number of queries, whatever the number
// of technicians: the location, the technicians, and one for every looked-at day's visits.
import { and, asc, eq, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import { customers, serviceLocations, visits } from '~/db/schema'
import type { LatLng } from '~/routing/distance'
import { rankSuggestions, type SuggestionCandidate } from '~/routing/suggest'
import {
  addDays,
  addWeeks,
  type IsoWeekday,
  instantAt,
  isoWeekday,
  type LocalDate,
  localDateAt,
  maxDate,
} from '~/schedule/local-date'
import { type FrequencyWeeks, firstOccurrence } from '~/schedule/recurrence'
import { formatAddress } from '~/utils/address'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { addressColumns } from './customer-columns.server'
import { stopColumns, toRouteStop } from './day-stops.server'
import { fleetOf, technicianDays } from './fleet.server'
import { customerOfLocation } from './joins.server'
import { visitLocation } from './service-location.server'
import { WEEKDAY_LABELS } from './service-plan-schemas'

/** Each pair is looked at on this many of the plan's next occurrences (weekly: two weeks; every 2 weeks: 1 and 3). */
export const OCCURRENCES = 2
/** The company's working days: Monday to Friday, and a weekend day only when someone already has visits on it. */
const WORKING_DAYS: readonly IsoWeekday[] = [1, 2, 3, 4, 5]

export type DaySuggestion = {
  weekday: IsoWeekday
  weekdayLabel: string
  technicianId: string
  technicianName: string
  /** Whole minutes of driving added (the average over the occurrences, rounded). */
  extraMinutes: number
  /** Visits on the technician's next such day. */
  stops: number
  /** That next day. */
  nextDate: LocalDate
}

export type PlanSuggestions = {
  address: string
  /** 'no-position': the location has no latitude and longitude; 'no-technicians': the company has none active. */
  state: 'ready' | 'no-position' | 'no-technicians'
  suggestions: DaySuggestion[]
  /** The first day looked at (the plan's start, or today if later). */
  from: LocalDate
}

/**
 * The suggestions for `locationId` (a location of `customerId` in the company; otherwise not found), for a plan every
 * `frequencyWeeks` weeks starting `startsOn` (today when absent or past).
 */
export async function suggestPlanDays(args: {
  companyId: string
  timezone: string
  customerId: string
  locationId: string
  frequencyWeeks: FrequencyWeeks
  startsOn?: LocalDate | null
  now?: Date
}): Promise<Result<{ result: PlanSuggestions }>> {
  const { companyId, timezone } = args
  if (!isUuid(args.customerId) || !isUuid(args.locationId)) return failure('not-found', 'Service location not found.')
  const today = localDateAt(args.now ?? new Date(), timezone)
  const from = args.startsOn ? maxDate(args.startsOn, today) : today
  const [[location], technicians] = await Promise.all([
    db()
      .select({
        ...addressColumns,
        lat: serviceLocations.lat,
        lng: serviceLocations.lng,
      })
      .from(serviceLocations)
      .innerJoin(customers, customerOfLocation)
      .where(
        and(
          eq(serviceLocations.companyId, companyId),
          eq(serviceLocations.id, args.locationId),
          eq(serviceLocations.customerId, args.customerId),
        ),
      )
      .limit(1),
    technicianDays(companyId),
  ])
  if (!location) return failure('not-found', 'Service location not found.')
  const address = formatAddress(location)
  const empty = (state: PlanSuggestions['state']) => success({ result: { address, state, suggestions: [], from } })
  if (location.lat === null || location.lng === null) return empty('no-position')
  if (technicians.length === 0) return empty('no-technicians')
  const point: LatLng = { lat: location.lat, lng: location.lng }

  // Every weekday's next occurrences from `from`.
  const datesOf = new Map<IsoWeekday, LocalDate[]>()
  for (let offset = 0; offset < 7; offset += 1) {
    const weekday = isoWeekday(addDays(from, offset))
    const first = firstOccurrence({ weekday, startsOn: from })
    datesOf.set(
      weekday,
      Array.from({ length: OCCURRENCES }, (_, index) => addWeeks(first, index * args.frequencyWeeks)),
    )
  }
  const allDates = [...datesOf.values()].flat().sort()
  const last = allDates[allDates.length - 1] as LocalDate
  const day = sql<string>`((${visits.scheduledAt} at time zone ${timezone})::date)::text`
  // One query: every assigned visit of the looked-at days, each technician's day in route order.
  const rows = await db()
    .select({ ...stopColumns, technicianId: visits.technicianId, day })
    .from(visits)
    .innerJoin(serviceLocations, visitLocation)
    .where(
      and(
        eq(visits.companyId, companyId),
        isNotNull(visits.technicianId),
        gte(visits.scheduledAt, instantAt(from, '00:00', timezone)),
        lt(visits.scheduledAt, instantAt(addDays(last, 1), '00:00', timezone)),
        isNull(visits.canceledAt),
        sql`${day} = any(${sql.param(allDates)}::text[])`,
      ),
    )
    .orderBy(
      asc(visits.technicianId),
      asc(day),
      sql`${visits.routePosition} asc nulls last`,
      asc(visits.scheduledAt),
      asc(visits.id),
    )
  const visitList = rows.map((row) => ({
    ...toRouteStop(row, timezone),
    technicianId: row.technicianId as string,
    day: row.day as LocalDate,
  }))
  // The new pool is one more point, keyed by the location's id (never a visit's).
  const built = await fleetOf(technicians, [...visitList, { id: args.locationId, point, window: {}, minutesOnSite: 0 }])
  if (!built.ok) return built
  const { fleet, pointOf } = built
  const onDay = new Map<string, typeof visitList>()
  for (const visit of visitList) {
    const key = `${visit.technicianId} ${visit.day}`
    onDay.set(key, [...(onDay.get(key) ?? []), visit])
  }
  const busyDays = new Set(visitList.map((visit) => isoWeekday(visit.day)))
  const weekdays = ([1, 2, 3, 4, 5, 6, 7] as const).filter(
    (weekday) => WORKING_DAYS.includes(weekday) || busyDays.has(weekday),
  )
  type Key = { weekday: IsoWeekday; technician: number; nextDate: LocalDate }
  const candidates: SuggestionCandidate<Key>[] = weekdays.flatMap((weekday) => {
    const dates = datesOf.get(weekday) as LocalDate[]
    return technicians.map((technician, index) => {
      const days = dates.map((date) => onDay.get(`${technician.id} ${date}`) ?? [])
      return {
        key: { weekday, technician: index, nextDate: dates[0] as LocalDate },
        vehicle: index,
        routes: days.map((stops) => stops.flatMap((visit) => pointOf.get(visit.id) ?? [])),
        stops: days[0]?.length ?? 0,
      }
    })
  })
  const ranked = rankSuggestions(fleet, pointOf.get(args.locationId) as number, candidates)
  return success({
    result: {
      address,
      state: 'ready',
      from,
      suggestions: ranked.map(({ key, extraMinutes, stops }) => {
        const technician = technicians[key.technician] as (typeof technicians)[number]
        return {
          weekday: key.weekday,
          weekdayLabel: WEEKDAY_LABELS[key.weekday - 1] as string,
          technicianId: technician.id,
          technicianName: technician.name,
          extraMinutes: Math.round(extraMinutes),
          stops,
          nextDate: key.nextDate,
        }
      }),
    },
  })
}
