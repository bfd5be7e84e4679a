// The public API's customers (docs/decisions/050-public-api.md): by the key's company, a page reading its customers'
// service locations and bodies of water in one query each (a fixed number of queries per page).
import { and, asc, eq, inArray } from 'drizzle-orm'
import { bodiesOfWater, customers, serviceLocations } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { after, changedSince, keysetOrder, type Page, paged } from './api-paging.server'
import { customerContactColumns } from './customer-columns.server'
import { customerFilter } from './customer-search.server'

async function locationsOf(companyId: string, customerIds: string[], ex: Database = db()) {
  if (customerIds.length === 0) return new Map<string, ReturnType<typeof shapeLocation>[]>()
  const places = await ex
    .select()
    .from(serviceLocations)
    .where(and(eq(serviceLocations.companyId, companyId), inArray(serviceLocations.customerId, customerIds)))
    .orderBy(asc(serviceLocations.position), asc(serviceLocations.createdAt))
  const bodies = places.length
    ? await ex
        .select()
        .from(bodiesOfWater)
        .where(
          and(
            eq(bodiesOfWater.companyId, companyId),
            inArray(
              bodiesOfWater.locationId,
              places.map((place) => place.id),
            ),
          ),
        )
        .orderBy(asc(bodiesOfWater.position), asc(bodiesOfWater.createdAt))
    : []
  const byCustomer = new Map<string, ReturnType<typeof shapeLocation>[]>()
  for (const place of places) {
    const list = byCustomer.get(place.customerId) ?? []
    list.push(
      shapeLocation(
        place,
        bodies.filter((body) => body.locationId === place.id),
      ),
    )
    byCustomer.set(place.customerId, list)
  }
  return byCustomer
}

function shapeLocation(place: typeof serviceLocations.$inferSelect, bodies: (typeof bodiesOfWater.$inferSelect)[]) {
  return {
    id: place.id,
    label: place.label,
    street: place.street,
    city: place.city,
    state: place.state,
    postalCode: place.postalCode,
    lat: place.lat,
    lng: place.lng,
    gateCode: place.gateCode,
    accessNotes: place.accessNotes,
    dogOnSite: place.dogOnSite,
    minutesOnSite: place.minutesOnSite,
    archived: place.archivedAt !== null,
    bodiesOfWater: bodies.map((body) => ({
      id: body.id,
      name: body.name,
      gallons: body.gallons,
      surface: body.surface,
      sanitizer: body.sanitizer,
      indoor: body.indoor,
    })),
  }
}

const customerColumns = {
  ...customerContactColumns,
  createdAt: customers.createdAt,
}

async function withLocations<T extends { id: string; createdAt: Date }>(
  companyId: string,
  rows: T[],
  ex: Database = db(),
) {
  const places = await locationsOf(
    companyId,
    rows.map((row) => row.id),
    ex,
  )
  return (row: T) => ({ ...row, serviceLocations: places.get(row.id) ?? [] })
}

export async function apiListCustomers(
  companyId: string,
  { limit, cursor, q, status, updated_since }: Page & { q?: string; status?: 'active' | 'archived' },
) {
  const rows = await db()
    .select(customerColumns)
    .from(customers)
    .where(
      and(
        customerFilter(companyId, q, status),
        changedSince(customers.updatedAt, updated_since),
        after(customers.createdAt, customers.id, cursor),
      ),
    )
    .orderBy(...keysetOrder(customers.createdAt, customers.id))
    .limit(limit + 1)
  const page = paged(rows, limit)
  const shape = await withLocations(companyId, page.data)
  return {
    data: page.data.map((row) => toCustomer(shape(row))),
    nextCursor: page.nextCursor,
  }
}

function toCustomer<T extends { createdAt: Date }>(row: T) {
  return { ...row, createdAt: row.createdAt.toISOString() }
}

export async function apiGetCustomer(companyId: string, customerId: string, ex: Database = db()) {
  if (!isUuid(customerId)) return null
  const [row] = await ex
    .select(customerColumns)
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
  if (!row) return null
  const shape = await withLocations(companyId, [row], ex)
  return toCustomer(shape(row))
}
