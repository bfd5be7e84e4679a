// The joins the models make again and again, each written once. Every one matches the company as well as the id: a
// row meets only rows of its own company (docs/architecture.md "Shared rules").
import { and, eq } from 'drizzle-orm'
import { bodiesOfWater, customers, equipment, serviceLocations, servicePlans } from '~/db/schema'

/** A piece of equipment's body of water. */
export const bodyOfEquipment = and(
  eq(bodiesOfWater.companyId, equipment.companyId),
  eq(bodiesOfWater.id, equipment.bodyOfWaterId),
)

/** A body of water's service location. */
export const locationOfBody = and(
  eq(serviceLocations.companyId, bodiesOfWater.companyId),
  eq(serviceLocations.id, bodiesOfWater.locationId),
)

/** A service location's customer. */
export const customerOfLocation = and(
  eq(customers.companyId, serviceLocations.companyId),
  eq(customers.id, serviceLocations.customerId),
)

/** A service plan's service location. */
export const locationOfPlan = and(
  eq(serviceLocations.companyId, servicePlans.companyId),
  eq(serviceLocations.id, servicePlans.locationId),
)
