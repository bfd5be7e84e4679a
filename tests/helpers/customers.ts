// Customers for tests that need one of their own: the customer, one service location at `address` (its parts split
// as the customer form splits them) and a "Pool" there, as a pool company's customer has. Visits need the location.
import { and, asc, eq } from 'drizzle-orm'
import { bodiesOfWater, customers, serviceLocations } from '~/db/schema'
import { locationOrder } from '~/models/service-location.server'
import { formatAddress, parseAddress } from '~/utils/address'
import { type Database, db } from '~/utils/db.server'

export type TestCustomer = { id: string; locationId: string; customerName: string; address: string }

export async function addTestCustomer(
  companyId: string,
  fields: { customerName: string; address: string; email?: string | null; phone?: string | null },
  executor: Database = db(),
): Promise<TestCustomer> {
  const [customer] = await executor
    .insert(customers)
    .values({ companyId, customerName: fields.customerName, email: fields.email ?? null, phone: fields.phone ?? null })
    .returning({ id: customers.id })
  if (!customer) throw new Error('no customer')
  const parts = parseAddress(fields.address)
  const [location] = await executor
    .insert(serviceLocations)
    .values({ companyId, customerId: customer.id, ...parts })
    .returning({ id: serviceLocations.id })
  if (!location) throw new Error('no location')
  await executor.insert(bodiesOfWater).values({ companyId, locationId: location.id, name: 'Pool' })
  return { id: customer.id, locationId: location.id, customerName: fields.customerName, address: formatAddress(parts) }
}

/** A customer of the demo (or any) by name, with their first location and its address. */
export async function findTestCustomer(customerName: string, companyId?: string): Promise<TestCustomer> {
  const [row] = await db()
    .select({
      id: customers.id,
      customerName: customers.customerName,
      locationId: serviceLocations.id,
      street: serviceLocations.street,
      city: serviceLocations.city,
      state: serviceLocations.state,
      postalCode: serviceLocations.postalCode,
    })
    .from(customers)
    .innerJoin(
      serviceLocations,
      and(eq(serviceLocations.companyId, customers.companyId), eq(serviceLocations.customerId, customers.id)),
    )
    .where(and(eq(customers.customerName, customerName), companyId ? eq(customers.companyId, companyId) : undefined))
    .orderBy(...locationOrder)
    .limit(1)
  if (!row) throw new Error(`no customer ${customerName}`)
  const { street, city, state, postalCode, ...customer } = row
  return { ...customer, address: formatAddress({ street, city, state, postalCode }) }
}

/** The pool profile today's customer form edits: the first body of water at the customer's first location. */
export async function firstPoolOf(customerId: string) {
  const [row] = await db()
    .select({
      volume: bodiesOfWater.gallons,
      surface: bodiesOfWater.surface,
      sanitizer: bodiesOfWater.sanitizer,
      indoor: bodiesOfWater.indoor,
    })
    .from(bodiesOfWater)
    .innerJoin(
      serviceLocations,
      and(eq(serviceLocations.companyId, bodiesOfWater.companyId), eq(serviceLocations.id, bodiesOfWater.locationId)),
    )
    .where(eq(serviceLocations.customerId, customerId))
    .orderBy(...locationOrder, asc(bodiesOfWater.position))
    .limit(1)
  return row ?? null
}
