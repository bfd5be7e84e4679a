// The production server: Express in front of the React Router build. It owns the process's
// single database handle (PGlite allows one process per data folder) and shuts it down cleanly.

import { createRequestHandler } from '@react-router/express'
import compression from 'compression'
import express from 'express'
import { requestGuards } from './server/request-guards.mjs'

let build
try {
  // Importing the build runs start-up: environment check, database lock, migrations, demo seed, email worker.
  build = await import('./build/server/index.js')
} catch (error) {
  if (error?.name === 'EnvError') {
    console.error(`\n${error.message}\n\nSee the environment table in README.md.`)
    process.exit(1)
  }
  if (error?.name === 'DataFolderInUseError') {
    console.error(`\n${error.message}\n`)
    process.exit(1)
  }
  throw error
}
const { startApp, stopApp, env, runInRequestScope, DEMO_LOGINS, DEMO_PASSWORD } = build.entry.module
const config = env()
const info = await startApp()
const appOrigin = new URL(config.APP_URL).origin
// TRUST_PROXY is the number of proxies in front of the app. Express then takes the client
// address that the nearest trusted proxy saw; never `true`, which would believe whatever
// X-Forwarded-For a client sends (and let it pick its own rate-limit bucket).
const proxyHops = Number.parseInt(process.env.TRUST_PROXY ?? '0', 10)

const app = express()
app.disable('x-powered-by')
if (proxyHops > 0) app.set('trust proxy', proxyHops)
// Server-Sent Events must flush each message, so they are never compressed.
app.use(
  compression({
    filter: (req, res) =>
      !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
  }),
)

// Security headers, the trusted client address, cross-origin and oversized requests.
app.use(requestGuards({ appOrigin, clientIp: (req) => req.ip }))

app.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', index: false }))
// Marketing images are linked with their content hash (?v=…, see scripts/build-marketing-images.ts).
app.use('/marketing', express.static('build/client/marketing', { immutable: true, maxAge: '1y', index: false }))
app.use(express.static('build/client', { maxAge: '1h', index: false }))
const handleRequest = createRequestHandler({ build })
// Each request's loaders share one scope (who is signed in and their company are read once per page, not per loader).
app.all('/{*splat}', (req, res, next) => runInRequestScope(req.method, () => handleRequest(req, res, next)))

const server = app.listen(config.PORT, () => {
  const lines = [
    '',
    `Pool Bud is running at ${config.APP_URL}`,
    `  database: ${info.database === 'pglite' ? `embedded PGlite in ${config.DATA_DIR}/db` : 'PostgreSQL'}`,
    `  email: ${info.mailbox ? `built-in mailbox at ${config.APP_URL}/dev/mailbox` : 'SMTP'}`,
  ]
  if (info.database === 'pglite' || info.seeded) {
    lines.push('', `Demo logins (password ${DEMO_PASSWORD} — public: keep this demo server private):`)
    for (const login of DEMO_LOGINS) {
      const who = [login.role, login.company, login.note].filter(Boolean).join(', ')
      lines.push(`  ${login.email.padEnd(28)} ${who}`)
    }
  }
  console.log(`${lines.join('\n')}\n`)
})

let stopping = false
async function shutdown(signal) {
  if (stopping) return
  stopping = true
  console.log(`${signal} received: shutting down`)
  server.close()
  server.closeAllConnections?.()
  await stopApp().catch((error) => console.error(error))
  process.exit(0)
}
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))
