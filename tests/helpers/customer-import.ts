// Shared by the customer-import tests: a file through read → map → plan with the fixtures' technicians, and what
// importing a plan into an empty company stores (the import step's defaults for blank cells).

import { mapColumns } from '~/customer-import/column-mapping'
import type { ExistingCustomer } from '~/customer-import/diff'
import { buildImportPlan, type ImportPlan } from '~/customer-import/import-plan.server'
import { readCsv } from '~/customer-import/read-csv.server'
import { FIXTURE_TECHNICIANS } from '../fixtures/customer-import/generate'

export async function planOf(text: string | Uint8Array) {
  const read = await readCsv(typeof text === 'string' ? new TextEncoder().encode(text) : text)
  if (!read.ok) throw new Error(read.message)
  const built = buildImportPlan(read.table, mapColumns(read.table.headers), {
    defaultCountry: 'US',
    technicians: FIXTURE_TECHNICIANS,
  })
  if (!built.ok) throw new Error(built.message)
  return built.plan
}

/** What importing the plan into an empty company stores (the defaults the import step fills in for blanks). */
export function stored(plan: ImportPlan): ExistingCustomer[] {
  let id = 0
  const next = () => `id-${++id}`
  return plan.customers.map((customer) => ({
    id: next(),
    customerName: customer.customerName,
    email: customer.email,
    phone: customer.phone,
    billingAddress: customer.billingAddress,
    notes: customer.notes,
    status: customer.status ?? 'active',
    locations: customer.locations.map((location) => ({
      id: next(),
      label: location.label,
      street: location.street,
      city: location.city,
      state: location.state,
      postalCode: location.postalCode,
      lat: location.lat,
      lng: location.lng,
      gateCode: location.gateCode,
      accessNotes: location.accessNotes,
      dogOnSite: location.dogOnSite ?? false,
      minutesOnSite: location.minutesOnSite ?? 30,
      bodiesOfWater: location.bodiesOfWater.map((body) => ({
        id: next(),
        name: body.name,
        gallons: body.gallons,
        surface: body.surface,
        sanitizer: body.sanitizer,
        indoor: body.indoor,
      })),
      plans: location.plans.map((plan) => ({
        id: next(),
        weekday: plan.weekday,
        frequencyWeeks: plan.frequencyWeeks,
        technicianId: plan.technicianId,
        serviceWindow: plan.serviceWindow ?? 'flexible',
        rateCents: plan.rateCents ?? 0,
        rateType: plan.rateType ?? 'per-visit',
        startsOn: plan.startsOn ?? '2026-01-05',
        endsOn: plan.endsOn,
      })),
    })),
  }))
}
