// The customer import's benchmark, for `npm run bench` (issue #17: "an import of 2,000 rows previews in under 5 s"):
// a generated 2,000-row export with real-looking headers, timed through the preview's pure steps — read (decode,
// delimiter, csv-parse), map the columns, build the plan — and the re-import diff against the company those rows
// make. Best and median of `runs` runs in this process; no database (the writing step is measured with the page).
// Run alone: `npx tsx bench/import.ts [rows] [runs]`.

import { mapColumns } from '../app/customer-import/column-mapping'
import { diffImport } from '../app/customer-import/diff'
import { buildImportPlan, describeCounts } from '../app/customer-import/import-plan.server'
import { readCsv } from '../app/customer-import/read-csv.server'
import { FIXTURE_TECHNICIANS, generateRows } from '../tests/fixtures/customer-import/generate'
import { stored } from '../tests/helpers/customer-import'

export type ImportBenchRow = { step: string; bestMs: number; medianMs: number }
export type ImportBench = { rows: number; bytes: number; counts: string; steps: ImportBenchRow[]; meetsTarget: boolean }

const TARGET_MS = 5_000

export async function benchImport({ rows = 2_000, runs = 5 } = {}): Promise<ImportBench> {
  const bytes = new TextEncoder().encode(generateRows({ style: 'skimmer', rows }))
  const times: Record<string, number[]> = { read: [], map: [], plan: [], 'preview (read + map + plan)': [], diff: [] }
  let counts = ''
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const read = await readCsv(bytes)
    const readAt = performance.now()
    if (!read.ok) throw new Error(read.message)
    const mapping = mapColumns(read.table.headers)
    const mappedAt = performance.now()
    const built = buildImportPlan(read.table, mapping, { defaultCountry: 'US', technicians: FIXTURE_TECHNICIANS })
    const plannedAt = performance.now()
    if (!built.ok) throw new Error(built.message)
    const company = stored(built.plan)
    const diffStarted = performance.now()
    diffImport(built.plan, company)
    const diffedAt = performance.now()
    times.read?.push(readAt - started)
    times.map?.push(mappedAt - readAt)
    times.plan?.push(plannedAt - mappedAt)
    times['preview (read + map + plan)']?.push(plannedAt - started)
    times.diff?.push(diffedAt - diffStarted)
    counts = `${describeCounts(built.plan.counts)}; ${built.plan.problems.length} problems`
  }
  const round = (ms: number) => Math.round(ms * 10) / 10
  const steps = Object.entries(times).map(([step, list]) => {
    const sorted = [...list].sort((a, b) => a - b)
    return { step, bestMs: round(sorted[0] ?? 0), medianMs: round(sorted[Math.floor(sorted.length / 2)] ?? 0) }
  })
  const preview = steps.find((step) => step.step.startsWith('preview'))
  return { rows, bytes: bytes.byteLength, counts, steps, meetsTarget: (preview?.medianMs ?? Infinity) < TARGET_MS }
}

if (process.argv[1]?.endsWith('bench/import.ts')) {
  const result = await benchImport({ rows: Number(process.argv[2] ?? 2_000), runs: Number(process.argv[3] ?? 5) })
  console.log(`[import] ${result.rows} rows, ${(result.bytes / 1024).toFixed(0)} kB: ${result.counts}`)
  console.table(result.steps)
  console.log(`[import] preview under ${TARGET_MS / 1000} s: ${result.meetsTarget ? 'yes' : 'NO'}`)
}
