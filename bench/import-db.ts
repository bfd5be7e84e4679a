// The customer import against a database (issue #17: "an import of 2,000 rows previews in under 5 s and imports in
// under 10 s"): a generated 2,000-row export with real-looking headers, previewed (read, map, plan, diff against the
// company) and imported (one transaction) into a new company with the fixtures' technicians, then previewed and
// imported again (the re-import finds everything there). Best and median of `runs` runs, each into its own company.
// On PostgreSQL with DATABASE_URL (a scratch database, dropped after), else an in-memory PGlite.
// Run: `npx tsx bench/import-db.ts [rows] [runs]`.
import { randomUUID } from 'node:crypto'
import { hashPassword } from 'better-auth/crypto'
import { account, companies, profiles, user } from '../app/db/schema'
import { applyImport } from '../app/models/customer-import.server'
import { previewImport } from '../app/models/customer-import-preview.server'
import { installDatabase, migrateDatabase, openDatabase } from '../app/utils/db.server'
import { createScratchDatabase, dropDatabase } from '../scripts/lib/app-server'
import { FIXTURE_TECHNICIANS, generateRows } from '../tests/fixtures/customer-import/generate'

const PREVIEW_TARGET_MS = 5_000
const IMPORT_TARGET_MS = 10_000

export type ImportDbBenchRow = { step: string; bestMs: number; medianMs: number }

async function companyWithTechnicians(run: number) {
  const { db } = await import('../app/utils/db.server')
  const [company] = await db()
    .insert(companies)
    .values({ name: `Import bench ${run} ${randomUUID().slice(0, 8)}` })
    .returning({ id: companies.id })
  const companyId = company?.id as string
  const password = await hashPassword(randomUUID())
  for (const technician of FIXTURE_TECHNICIANS) {
    const id = randomUUID()
    const email = `${id}@import-bench.test`
    await db().insert(user).values({ id, email, name: technician.name, emailVerified: true })
    await db()
      .insert(account)
      .values({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password })
    await db()
      .insert(profiles)
      .values({ id, companyId, role: 'tech', fullName: technician.name, email, hasCompletedSetup: true })
  }
  return companyId
}

export async function benchImportDb({ rows = 2_000, runs = 3 } = {}) {
  const adminUrl = process.env.DATABASE_URL
  const scratch = adminUrl ? await createScratchDatabase(adminUrl, 'pool_bud_import_bench') : null
  const handle = await openDatabase({ databaseUrl: scratch?.url })
  try {
    await migrateDatabase(handle)
    installDatabase(handle)
    const bytes = new TextEncoder().encode(generateRows({ style: 'skimmer', rows }))
    const times: Record<string, number[]> = { preview: [], import: [], 're-import preview': [], 're-import': [] }
    let summary = ''
    for (let run = 0; run < runs; run++) {
      const companyId = await companyWithTechnicians(run)
      const timed = async <T>(step: string, work: () => Promise<T>) => {
        const started = performance.now()
        const result = await work()
        times[step]?.push(performance.now() - started)
        return result
      }
      const preview = await timed('preview', () => previewImport(companyId, bytes))
      if (!preview.ok) throw new Error(preview.message)
      const applied = await timed('import', () => applyImport(companyId, preview.plan))
      if (!applied.ok) throw new Error(applied.message)
      const again = await timed('re-import preview', () => previewImport(companyId, bytes))
      if (!again.ok) throw new Error(again.message)
      const reapplied = await timed('re-import', () => applyImport(companyId, again.plan))
      if (!reapplied.ok) throw new Error(reapplied.message)
      summary = `${preview.summary.counts}; re-import: ${again.summary.customers}`
    }
    const round = (ms: number) => Math.round(ms)
    const steps: ImportDbBenchRow[] = Object.entries(times).map(([step, list]) => {
      const sorted = [...list].sort((a, b) => a - b)
      return { step, bestMs: round(sorted[0] ?? 0), medianMs: round(sorted[Math.floor(sorted.length / 2)] ?? 0) }
    })
    const median = (step: string) => steps.find((row) => row.step === step)?.medianMs ?? Number.POSITIVE_INFINITY
    return {
      database: handle.kind,
      rows,
      bytes: bytes.byteLength,
      summary,
      steps,
      meetsTargets: median('preview') < PREVIEW_TARGET_MS && median('import') < IMPORT_TARGET_MS,
    }
  } finally {
    installDatabase(undefined)
    await handle.close()
    if (adminUrl && scratch) await dropDatabase(adminUrl, scratch.name)
  }
}

if (process.argv[1]?.endsWith('bench/import-db.ts')) {
  const result = await benchImportDb({ rows: Number(process.argv[2] ?? 2_000), runs: Number(process.argv[3] ?? 3) })
  console.log(
    `[import-db] ${result.database}, ${result.rows} rows, ${(result.bytes / 1024).toFixed(0)} kB: ${result.summary}`,
  )
  console.table(result.steps)
  console.log(
    `[import-db] preview under ${PREVIEW_TARGET_MS / 1000} s and import under ${IMPORT_TARGET_MS / 1000} s: ${result.meetsTargets ? 'yes' : 'NO'}`,
  )
}
