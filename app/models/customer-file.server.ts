// The company's customers as the customer file sees them (docs/product.md "Import", decision 014): every customer
// with its locations, bodies of water and plans, as the import's diff and the export read them, and the technicians
// the file's Technician column is matched against.
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Technician } from '~/customer-import/import-plan.server'
import { bodiesOfWater, customers, profiles, serviceLocations, servicePlans } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { balanceCentsOf } from './balance.server'
import { bodyOrder } from './body-of-water.server'
import { addressColumns, bodyOfWaterColumns, customerContactColumns } from './customer-columns.server'
import { locationOrder } from './service-location.server'

/** The company's technicians as the import matches the Technician column against them. */
export async function importTechnicians(companyId: string, executor: Database = db()): Promise<Technician[]> {
  const rows = await executor
    .select({ id: profiles.id, name: profiles.fullName, email: profiles.email })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'tech')))
    .orderBy(asc(profiles.fullName))
  return rows.map((row) => ({ id: row.id, name: row.name ?? row.email, email: row.email }))
}

/**
 * Every customer of the company with its locations, bodies of water and plans, as the diff and the export read
 * them: four queries for the whole company, one after the other (inside the import's transaction they share one
 * connection, which runs one query at a time).
 */
export async function loadCustomers(companyId: string, executor: Database = db(), only?: readonly string[]) {
  const customerRows = await executor
    .select({
      ...customerContactColumns,
      balanceCents: balanceCentsOf(customers.companyId, customers.id),
    })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), only ? inArray(customers.id, [...only]) : undefined))
    .orderBy(asc(customers.customerName), asc(customers.id))
  const locationRows = await executor
    .select({
      id: serviceLocations.id,
      customerId: serviceLocations.customerId,
      label: serviceLocations.label,
      ...addressColumns,
      lat: serviceLocations.lat,
      lng: serviceLocations.lng,
      gateCode: serviceLocations.gateCode,
      accessNotes: serviceLocations.accessNotes,
      dogOnSite: serviceLocations.dogOnSite,
      minutesOnSite: serviceLocations.minutesOnSite,
      position: serviceLocations.position,
    })
    .from(serviceLocations)
    .where(
      and(
        eq(serviceLocations.companyId, companyId),
        only ? inArray(serviceLocations.customerId, [...only]) : undefined,
      ),
    )
    .orderBy(...locationOrder)
  const locationIds = only ? locationRows.map((row) => row.id) : undefined
  const bodyRows = await executor
    .select({ ...bodyOfWaterColumns, position: bodiesOfWater.position })
    .from(bodiesOfWater)
    .where(
      and(
        eq(bodiesOfWater.companyId, companyId),
        locationIds ? inArray(bodiesOfWater.locationId, locationIds) : undefined,
      ),
    )
    .orderBy(...bodyOrder)
  const planRows = await executor
    .select({
      id: servicePlans.id,
      locationId: servicePlans.locationId,
      weekday: servicePlans.weekday,
      frequencyWeeks: servicePlans.frequencyWeeks,
      technicianId: servicePlans.technicianId,
      serviceWindow: servicePlans.serviceWindow,
      rateCents: servicePlans.rateCents,
      rateType: servicePlans.rateType,
      startsOn: servicePlans.startsOn,
      endsOn: servicePlans.endsOn,
    })
    .from(servicePlans)
    .where(
      and(
        eq(servicePlans.companyId, companyId),
        locationIds ? inArray(servicePlans.locationId, locationIds) : undefined,
      ),
    )
    .orderBy(asc(servicePlans.weekday), asc(servicePlans.startsOn), asc(servicePlans.id))
  const bodiesOf = group(bodyRows, (row) => row.locationId)
  const plansOf = group(planRows, (row) => row.locationId)
  const locationsOf = group(locationRows, (row) => row.customerId)
  return customerRows.map((customer) => ({
    ...customer,
    locations: (locationsOf.get(customer.id) ?? []).map(({ customerId: _, ...location }) => ({
      ...location,
      bodiesOfWater: (bodiesOf.get(location.id) ?? []).map(({ locationId: __, ...body }) => body),
      plans: (plansOf.get(location.id) ?? []).map(({ locationId: __, ...plan }) => plan),
    })),
  }))
}

function group<T, K>(rows: readonly T[], key: (row: T) => K) {
  const groups = new Map<K, T[]>()
  for (const row of rows) {
    const list = groups.get(key(row))
    if (list) list.push(row)
    else groups.set(key(row), [row])
  }
  return groups
}
