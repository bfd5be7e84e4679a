// A customer's own fields as every reader of customers selects them: the record page, the customer file (export and
// import) and the API. One list, so a field added to customers reaches all three alike; the same for a location's
// address and access and a pool's fields. A leaf module (schema only), so any model can use it without a cycle.
import { bodiesOfWater, customers, serviceLocations } from '~/db/schema'

export const customerContactColumns = {
  id: customers.id,
  customerName: customers.customerName,
  email: customers.email,
  phone: customers.phone,
  billingAddress: customers.billingAddress,
  notes: customers.notes,
  status: customers.status,
}

/** A pool as the record page and the customer file show it. */
export const bodyOfWaterColumns = {
  id: bodiesOfWater.id,
  locationId: bodiesOfWater.locationId,
  name: bodiesOfWater.name,
  gallons: bodiesOfWater.gallons,
  surface: bodiesOfWater.surface,
  sanitizer: bodiesOfWater.sanitizer,
  indoor: bodiesOfWater.indoor,
}

/** A location's address columns, for `formatAddress`. */
export const addressColumns = {
  street: serviceLocations.street,
  city: serviceLocations.city,
  state: serviceLocations.state,
  postalCode: serviceLocations.postalCode,
}

/** What the technician needs at the property. Staff of the company only: never in a portal read model. */
export const accessColumns = {
  gateCode: serviceLocations.gateCode,
  accessNotes: serviceLocations.accessNotes,
  dogOnSite: serviceLocations.dogOnSite,
  minutesOnSite: serviceLocations.minutesOnSite,
}
