// `npx tsx bench/explain.ts <database url>`: EXPLAIN (ANALYZE, BUFFERS) of every statement the hot
// pages run, on a benchmark database (`npm run bench -- --small --keep` leaves one behind). The
// statements are recorded from the app's own loaders, so the plans are of the SQL that really runs.
// Lines with sequential scans or sorts are marked `<<`; docs/performance.md keeps the results.
import { loadAdminDashboard, loadOwnerDashboard } from '~/dashboards/business-dashboard.server'
import { loadDispatchBoard } from '~/dashboards/dispatcher-dashboard.server'
import { loadTechDashboard } from '~/dashboards/tech-dashboard.server'
import { listChemLogsForVisit } from '~/models/chem-log.server'
import { listCustomerDirectory } from '~/models/customer-list.server'
import { searchInventory } from '~/models/inventory.server'
import { getPortal } from '~/models/portal.server'
import { getVisitForViewer } from '~/models/visit-record.server'
import { installDatabase, openDatabase, recordQueries } from '~/utils/db.server'
import { LARGE_COMPANY, PORTAL_CUSTOMER } from './dataset'

const databaseUrl = process.argv[2] ?? process.env.DATABASE_URL
if (!databaseUrl) {
  console.error('usage: npx tsx bench/explain.ts postgres://…/pool_bud_bench_…')
  process.exit(2)
}
const handle = await openDatabase({ databaseUrl })
if (handle.kind !== 'postgres') throw new Error('PostgreSQL only')
const pool = handle.client
installDatabase(handle)
const one = async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows[0] as T

const company = await one<{ id: string; timezone: string }>(`select id, timezone from companies where name = $1`, [
  LARGE_COMPANY,
])
const companyId = company.id
const timezone = company.timezone
const tech = await one<{ id: string }>(`select id from profiles where email = 'tech@bluelagoon.test'`)
const portal = await one<{ id: string }>(
  `select c.id from customers c join "user" u on u.id = c.portal_user_id where u.email = $1`,
  [PORTAL_CUSTOMER],
)
const visit = await one<{ id: string }>(
  `select id from visits where company_id = $1 and technician_id = $2 and completed_at is null order by scheduled_at limit 1`,
  [companyId, tech.id],
)
const search = await one<{ q: string }>(
  `select split_part(customer_name, ' ', 2) as q from customers where company_id = $1 order by id limit 1`,
  [companyId],
)

const pages: Array<[string, () => Promise<unknown>]> = [
  ['owner dashboard', () => loadOwnerDashboard({ companyId, timezone })],
  ['admin dashboard', () => loadAdminDashboard({ companyId, timezone })],
  ['dispatcher dashboard', () => loadDispatchBoard(new Request('http://bench.test/app'), companyId, timezone)],
  ['tech dashboard', () => loadTechDashboard({ companyId, technicianId: tech.id, timezone })],
  [`customers ?q=${search.q}`, () => listCustomerDirectory({ companyId, query: search.q })],
  ['inventory', () => searchInventory({ companyId })],
  [
    'visit page',
    async () => {
      await getVisitForViewer({ id: tech.id, role: 'tech', companyId }, visit.id)
      await listChemLogsForVisit({ companyId, visitId: visit.id })
    },
  ],
  ['portal', () => getPortal({ companyId, customerId: portal.id })],
]

const onlyPage = process.argv[3]
for (const [name, load] of pages) {
  if (onlyPage && !name.includes(onlyPage)) continue
  const { recorded: queries } = await recordQueries(handle, load)
  console.log(`\n######## ${name}: ${queries.length} statements`)
  for (const query of queries) {
    const plan = await pool.query(`explain (analyze, buffers, costs off) ${query.sql}`, query.params as unknown[])
    const lines = plan.rows.map((row) => row['QUERY PLAN'] as string)
    const time = lines.find((line) => line.startsWith('Execution Time')) ?? ''
    console.log(`\n-- ${time}\n${query.sql.replace(/\s+/g, ' ').slice(0, 600)}`)
    for (const line of lines) {
      if (line.startsWith('Planning') || line.startsWith('Execution')) continue
      const hot = /Seq Scan|Sort(?! Key)|Sort Method/.test(line) ? '   <<' : ''
      console.log(`  ${line}${hot}`)
    }
  }
}
await handle.close()
