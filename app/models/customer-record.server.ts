// A customer's record page as one read (docs/product.md "Records", "Customers"): contact, locations, bodies of
// water, equipment, plans and visits, in a fixed number of queries keyed by the customer.
import { and, asc, desc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm'
import { bodiesOfWater, customers, equipment, profiles, serviceLocations, servicePlans, visits } from '~/db/schema'
import { formatAddress } from '~/utils/address'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { balanceCentsOf } from './balance.server'
import { bodyOrder } from './body-of-water.server'
import { addressColumns, bodyOfWaterColumns, customerContactColumns } from './customer-columns.server'
import { pageNumber, portalStatus } from './customer-list.server'
import { equipmentColumns } from './equipment.server'
import { bodyOfEquipment, locationOfBody, locationOfPlan } from './joins.server'
import { locationOrder } from './service-location.server'

/** Visits per page of a record's "Visit history". */
export const VISIT_HISTORY_PAGE_SIZE = 20
/** Open visits listed under "Upcoming visits". */
export const UPCOMING_VISITS_LIMIT = 20

/**
 * A customer's record page (docs/product.md "Customers"): contact details, the service locations (each with its bodies
 * of water, each with its equipment, and its service plans), the open visits from the earliest and a page of the visit
 * history (completed and canceled visits, newest first). Seven queries run at once, each keyed by the customer,
 * whatever the number of locations. Null for a customer of another company.
 */
export type CompanyTaxRate = { id: string; name: string; milliPercent: number; isDefault: boolean }

export async function getCustomerRecord({
  companyId,
  customerId,
  historyPage = 1,
}: {
  companyId: string
  customerId: string
  historyPage?: number
}) {
  if (!isUuid(customerId)) return null
  const page = pageNumber(historyPage)
  const ofCustomer = and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.customerId, customerId))
  const visitsOfCustomer = and(eq(visits.companyId, companyId), eq(visits.customerId, customerId))
  const technician = and(eq(profiles.id, visits.technicianId), eq(profiles.companyId, visits.companyId))
  const visitColumns = {
    id: visits.id,
    locationId: visits.locationId,
    address: visits.address,
    scheduledAt: visits.scheduledAt,
    completedAt: visits.completedAt,
    canceledAt: visits.canceledAt,
    skipReason: visits.skipReason,
    technicianName: profiles.fullName,
  }
  const [header, locationRows, bodyRows, equipmentRows, planRows, upcoming, history] = await Promise.all([
    db()
      .select({
        ...customerContactColumns,
        archivedAt: customers.archivedAt,
        balanceDue: balanceCentsOf(customers.companyId, customers.id),
        portalStatus,
        createdAt: customers.createdAt,
        // "Visa ending 4242" when the customer saved a card for autopay; the page shows it to billing roles only.
        autopayCardLabel: customers.autopayCardLabel,
        // The company's tax rates, for the locations' "Tax rate" (docs/billing.md "Tax"): read with the header, so
        // the page's statement count stays fixed. The default first.
        companyTaxRates: sql<
          CompanyTaxRate[]
        >`coalesce((select json_agg(json_build_object('id', "tax_rates"."id", 'name', "tax_rates"."name", 'milliPercent', "tax_rates"."milli_percent", 'isDefault', "tax_rates"."is_default") order by "tax_rates"."is_default" desc, "tax_rates"."created_at", "tax_rates"."name") from "tax_rates" where "tax_rates"."company_id" = ${companyId}), '[]'::json)`,
      })
      .from(customers)
      .leftJoin(profiles, eq(profiles.id, customers.portalUserId))
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
      .limit(1),
    db()
      .select({
        id: serviceLocations.id,
        label: serviceLocations.label,
        ...addressColumns,
        lat: serviceLocations.lat,
        lng: serviceLocations.lng,
        positionSource: serviceLocations.positionSource,
        gateCode: serviceLocations.gateCode,
        accessNotes: serviceLocations.accessNotes,
        dogOnSite: serviceLocations.dogOnSite,
        minutesOnSite: serviceLocations.minutesOnSite,
        arriveFrom: serviceLocations.arriveFrom,
        arriveUntil: serviceLocations.arriveUntil,
        archivedAt: serviceLocations.archivedAt,
        taxRateId: serviceLocations.taxRateId,
      })
      .from(serviceLocations)
      .where(ofCustomer)
      .orderBy(...locationOrder),
    db()
      .select(bodyOfWaterColumns)
      .from(bodiesOfWater)
      .innerJoin(serviceLocations, locationOfBody)
      .where(ofCustomer)
      .orderBy(...bodyOrder),
    db()
      .select({
        ...equipmentColumns,
        bodyOfWaterId: equipment.bodyOfWaterId,
      })
      .from(equipment)
      .innerJoin(bodiesOfWater, bodyOfEquipment)
      .innerJoin(serviceLocations, locationOfBody)
      .where(ofCustomer)
      .orderBy(asc(equipment.createdAt), asc(equipment.id)),
    db()
      .select({
        id: servicePlans.id,
        locationId: servicePlans.locationId,
        frequencyWeeks: servicePlans.frequencyWeeks,
        weekday: servicePlans.weekday,
        technicianId: servicePlans.technicianId,
        technicianName: profiles.fullName,
        startsOn: servicePlans.startsOn,
        endsOn: servicePlans.endsOn,
        pausedFrom: servicePlans.pausedFrom,
        serviceWindow: servicePlans.serviceWindow,
        rateCents: servicePlans.rateCents,
        rateType: servicePlans.rateType,
      })
      .from(servicePlans)
      .innerJoin(serviceLocations, locationOfPlan)
      .leftJoin(
        profiles,
        and(eq(profiles.id, servicePlans.technicianId), eq(profiles.companyId, servicePlans.companyId)),
      )
      .where(ofCustomer)
      .orderBy(asc(servicePlans.weekday), asc(servicePlans.startsOn), asc(servicePlans.id)),
    db()
      .select(visitColumns)
      .from(visits)
      .leftJoin(profiles, technician)
      .where(and(visitsOfCustomer, isNull(visits.completedAt), isNull(visits.canceledAt)))
      .orderBy(asc(visits.scheduledAt), asc(visits.id))
      .limit(UPCOMING_VISITS_LIMIT),
    db()
      .select({ ...visitColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(visits)
      .leftJoin(profiles, technician)
      .where(and(visitsOfCustomer, or(isNotNull(visits.completedAt), isNotNull(visits.canceledAt))))
      .orderBy(desc(visits.scheduledAt), desc(visits.id))
      .limit(VISIT_HISTORY_PAGE_SIZE)
      .offset((page - 1) * VISIT_HISTORY_PAGE_SIZE),
  ])
  const customer = header[0]
  if (!customer) return null

  const equipmentByBody = groupBy(equipmentRows, (row) => row.bodyOfWaterId)
  const bodiesByLocation = groupBy(bodyRows, (row) => row.locationId)
  const plansByLocation = groupBy(planRows, (row) => row.locationId)
  const total = history[0]?.total ?? 0
  return {
    customer,
    locations: locationRows.map((location) => ({
      ...location,
      address: formatAddress(location),
      bodiesOfWater: (bodiesByLocation.get(location.id) ?? []).map(({ locationId: _, ...body }) => ({
        ...body,
        equipment: (equipmentByBody.get(body.id) ?? []).map(({ bodyOfWaterId: __, ...item }) => item),
      })),
      plans: (plansByLocation.get(location.id) ?? []).map(({ locationId: _, ...plan }) => plan),
    })),
    upcomingVisits: upcoming,
    visitHistory: {
      page,
      pageSize: VISIT_HISTORY_PAGE_SIZE,
      // A page past the end has no rows to count with; the record page then links back to the first.
      total,
      rows: history.map(({ total: _, ...visit }) => visit),
    },
  }
}

export type CustomerRecord = NonNullable<Awaited<ReturnType<typeof getCustomerRecord>>>

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K) {
  const groups = new Map<K, T[]>()
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row])
  return groups
}
