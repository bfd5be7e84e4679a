// What an import plan would do to the customers a company already has: each customer, location, body of water
// and plan is new, changed (with the fields that change) or unchanged. Plain objects in and out, so the same code
// reports "0 new, 12 unchanged" for a re-import in the preview and tells the import step what to write.
//
// Matching: a customer by email, or — for a row without an email — by name when exactly one customer has it; a
// location by its address key (match-keys.ts); a body of water by name; a plan by weekday (then, when one plan is
// left on each side, those two, so moving Monday to Tuesday updates the plan rather than adding a second one).
// A value the file leaves blank is not a change: blank means "keep what is there". Existing records the file does
// not mention are left alone and not reported.
import type { Sanitizer, Surface } from '~/water/targets'
import type { ImportPlan, PlannedBody, PlannedCustomer, PlannedLocation, PlannedPlan } from './import-plan.server'
import { addressKey, nameKey, streetKey } from './match-keys'
import type { CustomerStatus, RateType, ServiceWindow } from './values'

export type ExistingBody = {
  id: string
  name: string
  gallons: number | null
  surface: Surface | null
  sanitizer: Sanitizer | null
  indoor: boolean | null
}

export type ExistingPlan = {
  id: string
  weekday: number
  frequencyWeeks: number
  technicianId: string | null
  serviceWindow: ServiceWindow
  rateCents: number
  rateType: RateType
  startsOn: string
  endsOn: string | null
}

export type ExistingLocation = {
  id: string
  label: string | null
  street: string
  city: string | null
  state: string | null
  postalCode: string | null
  lat: number | null
  lng: number | null
  gateCode: string | null
  accessNotes: string | null
  dogOnSite: boolean
  minutesOnSite: number
  bodiesOfWater: readonly ExistingBody[]
  plans: readonly ExistingPlan[]
}

export type ExistingCustomer = {
  id: string
  customerName: string
  email: string | null
  phone: string | null
  billingAddress: string | null
  notes: string | null
  status: CustomerStatus
  locations: readonly ExistingLocation[]
}

export type DiffStatus = 'new' | 'changed' | 'unchanged'
export type FieldChange = { field: string; from: unknown; to: unknown }
type Entry<P> = { status: DiffStatus; existingId: string | null; changes: FieldChange[]; planned: P }

export type BodyDiff = Entry<PlannedBody>
export type PlanDiff = Entry<PlannedPlan>
export type LocationDiff = Entry<PlannedLocation> & { bodiesOfWater: BodyDiff[]; plans: PlanDiff[] }
export type CustomerDiff = Entry<PlannedCustomer> & { locations: LocationDiff[] }

export type Tally = Record<DiffStatus, number>
export type ImportDiff = {
  customers: CustomerDiff[]
  totals: { customers: Tally; locations: Tally; bodiesOfWater: Tally; plans: Tally }
}

/**
 * Values compared as the match keys compare them: "bob jones" is Bob Jones and "1 Palm Avenue" is 1 Palm Ave, so
 * another spelling of what matched is not an update; every other value must be equal.
 */
function same(field: string, from: unknown, to: unknown) {
  if (typeof from !== 'string' || typeof to !== 'string') return from === to
  if (field === 'customerName' || field === 'name') return nameKey(from) === nameKey(to)
  if (field === 'street') return streetKey(from) === streetKey(to)
  return from === to
}

/** The fields of `planned` the file gave (not null) that differ from `existing`. */
function changesOf<P extends object, E extends object>(planned: P, existing: E, fields: Array<keyof P & keyof E>) {
  const changes: FieldChange[] = []
  for (const field of fields) {
    const to = planned[field] as unknown
    const from = existing[field] as unknown
    if (to !== null && to !== undefined && !same(String(field), from, to)) {
      changes.push({ field: String(field), from, to })
    }
  }
  return changes
}

function statusOf(changes: FieldChange[], children: Array<{ status: DiffStatus }>): DiffStatus {
  return changes.length > 0 || children.some((child) => child.status !== 'unchanged') ? 'changed' : 'unchanged'
}

const CUSTOMER_FIELDS = ['customerName', 'email', 'phone', 'billingAddress', 'notes', 'status'] as const
const LOCATION_FIELDS = [
  'label',
  'street',
  'city',
  'state',
  'postalCode',
  'lat',
  'lng',
  'gateCode',
  'accessNotes',
  'dogOnSite',
  'minutesOnSite',
] as const
const BODY_FIELDS = ['name', 'gallons', 'surface', 'sanitizer', 'indoor'] as const
const PLAN_FIELDS = [
  'weekday',
  'frequencyWeeks',
  'technicianId',
  'serviceWindow',
  'rateCents',
  'rateType',
  'startsOn',
  'endsOn',
] as const

function fresh<P>(planned: P): Entry<P> {
  return { status: 'new', existingId: null, changes: [], planned }
}

function diffBodies(planned: readonly PlannedBody[], existing: readonly ExistingBody[]): BodyDiff[] {
  const used = new Set<string>()
  return planned.map((body) => {
    const match = existing.find((e) => !used.has(e.id) && e.name.toLowerCase() === body.name.toLowerCase())
    if (!match) return fresh(body)
    used.add(match.id)
    const changes = changesOf(body, match, [...BODY_FIELDS])
    return { status: statusOf(changes, []), existingId: match.id, changes, planned: body }
  })
}

function diffPlans(planned: readonly PlannedPlan[], existing: readonly ExistingPlan[]): PlanDiff[] {
  const pairs = new Map<PlannedPlan, ExistingPlan>()
  const used = new Set<string>()
  for (const plan of planned) {
    const sameDay = existing.filter((e) => !used.has(e.id) && e.weekday === plan.weekday)
    const match = sameDay.find((e) => e.frequencyWeeks === plan.frequencyWeeks) ?? sameDay[0]
    if (!match) continue
    pairs.set(plan, match)
    used.add(match.id)
  }
  const unpaired = planned.filter((plan) => !pairs.has(plan))
  const leftover = existing.filter((e) => !used.has(e.id))
  if (unpaired.length === 1 && leftover.length === 1) pairs.set(unpaired[0] as PlannedPlan, leftover[0] as ExistingPlan)
  return planned.map((plan) => {
    const match = pairs.get(plan)
    if (!match) return fresh(plan)
    const changes = changesOf(plan, match, [...PLAN_FIELDS])
    return { status: statusOf(changes, []), existingId: match.id, changes, planned: plan }
  })
}

function diffLocation(planned: PlannedLocation, existing: ExistingLocation | undefined): LocationDiff {
  const bodiesOfWater = diffBodies(planned.bodiesOfWater, existing?.bodiesOfWater ?? [])
  const plans = diffPlans(planned.plans, existing?.plans ?? [])
  if (!existing) return { ...fresh(planned), bodiesOfWater, plans }
  const changes = changesOf(planned, existing, [...LOCATION_FIELDS])
  const status = statusOf(changes, [...bodiesOfWater, ...plans])
  return { status, existingId: existing.id, changes, planned, bodiesOfWater, plans }
}

export function diffImport(plan: Pick<ImportPlan, 'customers'>, existing: readonly ExistingCustomer[]): ImportDiff {
  const byEmail = new Map<string, ExistingCustomer>()
  const byName = new Map<string, ExistingCustomer[]>()
  for (const customer of existing) {
    if (customer.email) byEmail.set(customer.email.toLowerCase(), customer)
    const key = nameKey(customer.customerName)
    byName.set(key, [...(byName.get(key) ?? []), customer])
  }
  const used = new Set<string>()
  const find = (planned: PlannedCustomer) => {
    const found = planned.email ? byEmail.get(planned.email) : undefined
    if (found) return found
    const namesakes = (byName.get(nameKey(planned.customerName)) ?? []).filter(
      (candidate) => !used.has(candidate.id) && (!candidate.email || !planned.email),
    )
    return namesakes.length === 1 ? namesakes[0] : undefined
  }

  const customers = plan.customers.map((planned): CustomerDiff => {
    const match = find(planned)
    if (match) used.add(match.id)
    const usedLocations = new Set<string>()
    const locations = planned.locations.map((location) => {
      const key = addressKey(location)
      const same = match?.locations.find((e) => !usedLocations.has(e.id) && addressKey(e) === key)
      if (same) usedLocations.add(same.id)
      return diffLocation(location, same)
    })
    if (!match) return { ...fresh(planned), locations }
    const changes = changesOf(planned, match, [...CUSTOMER_FIELDS])
    return { status: statusOf(changes, locations), existingId: match.id, changes, planned, locations }
  })

  const tally = (): Tally => ({ new: 0, changed: 0, unchanged: 0 })
  const totals = { customers: tally(), locations: tally(), bodiesOfWater: tally(), plans: tally() }
  for (const customer of customers) {
    totals.customers[customer.status]++
    for (const location of customer.locations) {
      totals.locations[location.status]++
      for (const body of location.bodiesOfWater) totals.bodiesOfWater[body.status]++
      for (const plan of location.plans) totals.plans[plan.status]++
    }
  }
  return { customers, totals }
}

/** The preview's words for a re-import: "0 new, 12 unchanged", "2 new, 1 updated, 9 unchanged". */
export function describeDiff(tally: Tally) {
  const parts = [`${tally.new.toLocaleString('en-US')} new`]
  if (tally.changed > 0) parts.push(`${tally.changed.toLocaleString('en-US')} updated`)
  parts.push(`${tally.unchanged.toLocaleString('en-US')} unchanged`)
  return parts.join(', ')
}
