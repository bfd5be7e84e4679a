// A month's invoices against a database (issue #21: "creating a month's invoices for 5,000 customers under 10 s"):
// a new company with 5,000 customers, each with a location and a plan (every rate type, frequency and weekday), the
// month's visits completed (a quarter of them with a chemical from stock), then "Create invoices": the preview (reads
// and arithmetic, nothing written), the creation (writes every invoice and line in one transaction), and the same
// creation again (finds every invoice made; writes nothing). Best and median of `runs` runs, each its own company.
// On PostgreSQL with DATABASE_URL (a scratch database, dropped after), else an in-memory PGlite.
// Run: `npx tsx bench/invoices-db.ts [customers] [runs]`.
import { randomUUID } from 'node:crypto'
import { monthOf } from '../app/billing/invoice-draft'
import {
  companies,
  customers,
  inventoryItems,
  serviceLocations,
  servicePlans,
  visitChemicalAdditions,
  visits,
} from '../app/db/schema'
import type { IsoWeekday } from '../app/schedule/local-date'
import { type FrequencyWeeks, occurrences } from '../app/schedule/recurrence'
import { RATE_TYPES } from '../app/utils/customer-fields'
import { installDatabase, migrateDatabase, openDatabase } from '../app/utils/db.server'
import { createScratchDatabase, dropDatabase } from '../scripts/lib/app-server'

const TARGET_MS = 10_000
const BATCH = 1_000
const PERIOD = monthOf('2026-10-01')

export type InvoicesDbBenchRow = { step: string; bestMs: number; medianMs: number; invoices: number }

async function companyWithMonth(count: number, run: number) {
  const { db } = await import('../app/utils/db.server')
  const [company] = await db()
    .insert(companies)
    .values({
      name: `Invoice bench ${run} ${randomUUID().slice(0, 8)}`,
      timezone: 'America/New_York',
      taxRateMilliPercent: 7250,
    })
    .returning({ id: companies.id })
  const companyId = company?.id as string
  const [item] = await db()
    .insert(inventoryItems)
    .values({ companyId, name: 'Liquid chlorine', sku: 'BENCH-CL', qty: 0, priceCents: 650, costCents: 300 })
    .returning({ id: inventoryItems.id })
  for (let start = 0; start < count; start += BATCH) {
    const size = Math.min(BATCH, count - start)
    const people = await db()
      .insert(customers)
      .values(Array.from({ length: size }, (_, i) => ({ companyId, customerName: `Bench Customer ${start + i}` })))
      .returning({ id: customers.id, name: customers.customerName })
    const places = await db()
      .insert(serviceLocations)
      .values(
        people.map((person, i) => ({
          companyId,
          customerId: person.id,
          street: `${start + i} Bench St`,
          city: 'Tampa',
          state: 'FL',
        })),
      )
      .returning({ id: serviceLocations.id })
    const plans = await db()
      .insert(servicePlans)
      .values(
        places.map((place, i) => ({
          companyId,
          locationId: place.id,
          frequencyWeeks: 1 + ((start + i) % 2),
          weekday: 1 + ((start + i) % 6),
          startsOn: `2026-0${1 + ((start + i) % 9)}-01`,
          rateType: RATE_TYPES[(start + i) % RATE_TYPES.length],
          rateCents: 3500 + ((start + i) % 7) * 500,
        })),
      )
      .returning()
    const visitList = plans.flatMap((plan, i) =>
      occurrences(
        {
          frequencyWeeks: plan.frequencyWeeks as FrequencyWeeks,
          weekday: plan.weekday as IsoWeekday,
          startsOn: plan.startsOn,
          endsOn: null,
        },
        PERIOD.start,
        PERIOD.end,
      ).map((date) => ({
        companyId,
        customerId: people[i]?.id as string,
        locationId: plan.locationId,
        customerName: people[i]?.name as string,
        address: `${start + i} Bench St, Tampa, FL`,
        planId: plan.id,
        occurrenceDate: date,
        scheduledAt: new Date(`${date}T14:00:00Z`),
        completedAt: new Date(`${date}T15:00:00Z`),
      })),
    )
    const inserted = await db().insert(visits).values(visitList).returning({ id: visits.id })
    await db()
      .insert(visitChemicalAdditions)
      .values(
        inserted
          .filter((_, i) => i % 4 === 0)
          .map((visit) => ({
            companyId,
            visitId: visit.id,
            inventoryItemId: item?.id,
            product: 'Liquid chlorine',
            quantity: 1.5,
            unit: 'gal' as const,
          })),
      )
  }
  return companyId
}

export async function benchInvoicesDb({ customers: count = 5_000, runs = 3 } = {}) {
  const adminUrl = process.env.DATABASE_URL
  const scratch = adminUrl ? await createScratchDatabase(adminUrl, 'pool_bud_invoices_bench') : null
  const handle = await openDatabase({ databaseUrl: scratch?.url })
  try {
    await migrateDatabase(handle)
    installDatabase(handle)
    const { createInvoices, previewInvoices } = await import('../app/models/invoice-create.server')
    const times: Record<string, { ms: number[]; invoices: number }> = {
      preview: { ms: [], invoices: 0 },
      create: { ms: [], invoices: 0 },
      're-run (nothing to create)': { ms: [], invoices: 0 },
    }
    for (let run = 0; run < runs; run++) {
      const companyId = await companyWithMonth(count, run)
      for (const step of Object.keys(times)) {
        const started = performance.now()
        const invoices =
          step === 'preview'
            ? (await previewInvoices({ companyId, period: PERIOD })).count
            : (await createInvoices({ companyId, period: PERIOD })).created
        const entry = times[step] as { ms: number[]; invoices: number }
        entry.ms.push(performance.now() - started)
        entry.invoices = invoices
      }
    }
    const steps: InvoicesDbBenchRow[] = Object.entries(times).map(([step, { ms, invoices }]) => {
      const sorted = [...ms].sort((a, b) => a - b)
      return {
        step,
        bestMs: Math.round(sorted[0] ?? 0),
        medianMs: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
        invoices,
      }
    })
    return {
      database: handle.kind,
      customers: count,
      steps,
      meetsTarget: steps.every((step) => step.medianMs < TARGET_MS),
    }
  } finally {
    installDatabase(undefined)
    await handle.close()
    if (adminUrl && scratch) await dropDatabase(adminUrl, scratch.name)
  }
}

if (process.argv[1]?.endsWith('bench/invoices-db.ts')) {
  const result = await benchInvoicesDb({
    customers: Number(process.argv[2] ?? 5_000),
    runs: Number(process.argv[3] ?? 3),
  })
  console.log(`[invoices-db] ${result.database}, ${result.customers} customers`)
  console.table(result.steps)
  console.log(`[invoices-db] under ${TARGET_MS / 1000} s: ${result.meetsTarget ? 'yes' : 'NO'}`)
}
