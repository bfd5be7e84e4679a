// The benchmark's baseline: the least a server can do to answer the owner dashboard's data — a bare
// `node:http` server calling the app's own `loadOwnerDashboard` through the app's database module
// (same SQL, same driver, same pool size) and JSON.stringify. No routing, session or rendering.
// Env: DATABASE_URL, COMPANY_ID, TIMEZONE, PORT.
import http from 'node:http'
import { loadOwnerDashboard } from '~/dashboards/business-dashboard.server'
import { installDatabase, openDatabase } from '~/utils/db.server'

const { DATABASE_URL, COMPANY_ID, TIMEZONE = 'America/New_York', PORT = '3322' } = process.env
if (!DATABASE_URL || !COMPANY_ID) {
  console.error('bench/baseline.ts needs DATABASE_URL and COMPANY_ID')
  process.exit(2)
}
const handle = await openDatabase({ databaseUrl: DATABASE_URL })
installDatabase(handle)

const server = http.createServer(async (_request, response) => {
  try {
    const body = JSON.stringify(await loadOwnerDashboard({ companyId: COMPANY_ID, timezone: TIMEZONE }))
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(body)
  } catch (error) {
    console.error(error)
    response.writeHead(500)
    response.end()
  }
})
server.listen(Number(PORT), () => console.log(`baseline listening on ${PORT}`))
process.on('SIGTERM', () => {
  server.close()
  void handle.close().then(() => process.exit(0))
})
