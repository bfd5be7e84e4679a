// Visit generation against a database (issue #18: "generating 8 weeks for 5,000 plans under 5 s"): a new company
// with 5,000 customers, each with a location and a plan (every frequency and weekday, started in the past year),
// then `generateVisits` for the company (the first run writes the 8 weeks) and again (the rolling run a few hours
// later: finds every visit there and writes nothing). Best and median of `runs` runs, each into its own company.
// On PostgreSQL with DATABASE_URL (a scratch database, dropped after), else an in-memory PGlite.
// Run: `npx tsx bench/generate-db.ts [plans] [runs]`.
import { randomUUID } from 'node:crypto'
import { companies, customers, serviceLocations, servicePlans } from '../app/db/schema'
import { generateVisits } from '../app/models/visit-generation.server'
import { addDays, localDateAt } from '../app/schedule/local-date'
import { installDatabase, migrateDatabase, openDatabase } from '../app/utils/db.server'
import { createScratchDatabase, dropDatabase } from '../scripts/lib/app-server'

const TARGET_MS = 5_000
const BATCH = 1_000

export type GenerateDbBenchRow = { step: string; bestMs: number; medianMs: number; visits: number }

async function companyWithPlans(plans: number, run: number) {
  const { db } = await import('../app/utils/db.server')
  const [company] = await db()
    .insert(companies)
    .values({ name: `Generation bench ${run} ${randomUUID().slice(0, 8)}`, timezone: 'America/New_York' })
    .returning({ id: companies.id })
  const companyId = company?.id as string
  const today = localDateAt(new Date(), 'America/New_York')
  for (let start = 0; start < plans; start += BATCH) {
    const size = Math.min(BATCH, plans - start)
    const people = await db()
      .insert(customers)
      .values(Array.from({ length: size }, (_, i) => ({ companyId, customerName: `Bench Customer ${start + i}` })))
      .returning({ id: customers.id })
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
    await db()
      .insert(servicePlans)
      .values(
        places.map((place, i) => ({
          companyId,
          locationId: place.id,
          frequencyWeeks: 1 + ((start + i) % 4),
          weekday: 1 + ((start + i) % 7),
          startsOn: addDays(today, -((start + i) % 365)),
        })),
      )
  }
  return companyId
}

export async function benchGenerateDb({ plans = 5_000, runs = 3 } = {}) {
  const adminUrl = process.env.DATABASE_URL
  const scratch = adminUrl ? await createScratchDatabase(adminUrl, 'pool_bud_generate_bench') : null
  const handle = await openDatabase({ databaseUrl: scratch?.url })
  try {
    await migrateDatabase(handle)
    installDatabase(handle)
    const times: Record<string, { ms: number[]; visits: number }> = {
      'first 8 weeks': { ms: [], visits: 0 },
      'rolling re-run': { ms: [], visits: 0 },
    }
    for (let run = 0; run < runs; run++) {
      const companyId = await companyWithPlans(plans, run)
      for (const step of Object.keys(times)) {
        const started = performance.now()
        const { created } = await generateVisits({ companyId })
        const entry = times[step] as { ms: number[]; visits: number }
        entry.ms.push(performance.now() - started)
        entry.visits = created
      }
    }
    const steps: GenerateDbBenchRow[] = Object.entries(times).map(([step, { ms, visits }]) => {
      const sorted = [...ms].sort((a, b) => a - b)
      return {
        step,
        bestMs: Math.round(sorted[0] ?? 0),
        medianMs: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
        visits,
      }
    })
    return {
      database: handle.kind,
      plans,
      steps,
      meetsTarget: steps.every((step) => step.medianMs < TARGET_MS),
    }
  } finally {
    installDatabase(undefined)
    await handle.close()
    if (adminUrl && scratch) await dropDatabase(adminUrl, scratch.name)
  }
}

if (process.argv[1]?.endsWith('bench/generate-db.ts')) {
  const result = await benchGenerateDb({ plans: Number(process.argv[2] ?? 5_000), runs: Number(process.argv[3] ?? 3) })
  console.log(`[generate-db] ${result.database}, ${result.plans} plans`)
  console.table(result.steps)
  console.log(`[generate-db] under ${TARGET_MS / 1000} s: ${result.meetsTarget ? 'yes' : 'NO'}`)
}
