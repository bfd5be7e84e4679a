// The server: Express in front of React Router. `node server.mjs` (and `npm start`) serves the production build;
// `npm run dev` (NODE_ENV=development) serves the sources through Vite in middleware mode, behind the very same
// Express app (server/app.mjs), so the request guards, body cap and caching rules are the same in both.
// It owns the process's single database handle (PGlite allows one process per data folder) and shuts down
// gracefully (server/shutdown.mjs).
import http from 'node:http'
import { register } from 'node:module'

const dev = process.env.NODE_ENV === 'development'
if (!dev) process.env.NODE_ENV ??= 'production'
// Before anything imports react-router: its production build (server/production-react-router.mjs).
if (process.env.NODE_ENV === 'production') register('./server/production-react-router.mjs', import.meta.url)
const { createApp } = await import('./server/app.mjs')
const { createShutdown } = await import('./server/shutdown.mjs')

// An idle keep-alive connection stays open longer than the proxies in front of it keep theirs (60 s is the common
// default): with Node's 5 s, a proxy or client could send on a connection at the moment the server closed it, and
// get a reset instead of an answer (seen as ECONNRESET, or a proxy's 502). The headers timeout must exceed it.
const httpServer = http.createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000 })
/** @type {import('vite').ViteDevServer | undefined} */
let vite
/** @type {() => Promise<import('react-router').ServerBuild>} */
let getBuild
if (dev) {
  const { createServer } = await import('vite')
  // Hot reload runs over this server's own port.
  vite = await createServer({ server: { middlewareMode: true, hmr: { server: httpServer } } })
  const devServer = vite
  getBuild = () => devServer.ssrLoadModule('virtual:react-router/server-build')
} else {
  const build = import('./build/server/index.js')
  getBuild = () => build
}

let build
try {
  // Loading the app runs start-up: environment check, database lock, migrations, demo seed, email worker.
  build = await getBuild()
} catch (error) {
  if (error?.name === 'EnvError' || error?.name === 'DataFolderInUseError') {
    console.error(
      `\n${error.message}\n${error.name === 'EnvError' ? '\nSee the environment table in README.md.\n' : ''}`,
    )
    process.exit(1)
  }
  throw error
}
const { startApp, env, DEMO_LOGINS, DEMO_PASSWORD } = build.entry.module
const config = env()
const info = await startApp()

const shutdown = createShutdown({
  log: (message) => console.log(message),
  endStreams: () => build.entry.module.closeLiveStreams(),
  stopApp: async () => {
    await vite?.close()
    await build.entry.module.stopApp()
  },
})
const app = createApp({
  appOrigin: new URL(config.APP_URL).origin,
  proxyHops: Number.parseInt(process.env.TRUST_PROXY ?? '0', 10),
  getBuild,
  vite,
  shutdown,
  compress: config.COMPRESSION === 'on',
})
httpServer.on('request', app)
// React Router's helper Vite servers (its config loader and child compiler) exit the process on SIGTERM (code 143)
// before the database is closed; our graceful shutdown handles the signal instead, in development too.
if (dev) process.removeAllListeners('SIGTERM')
shutdown.attach(httpServer)

httpServer.listen(config.PORT, () => {
  const email = info.mailboxPage
    ? `built-in mailbox at ${config.APP_URL}/dev/mailbox`
    : info.mailbox
      ? 'built-in mailbox (links are printed here; DEV_MAILBOX=1 lists them at /dev/mailbox)'
      : 'SMTP'
  const lines = [
    '',
    `Pool Bud is running at ${config.APP_URL}${dev ? ' (development)' : ''}`,
    `  database: ${info.database === 'pglite' ? `embedded PGlite in ${config.DATA_DIR}/db` : 'PostgreSQL'}`,
    `  email: ${email}`,
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
