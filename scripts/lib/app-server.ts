// Starting the real production server from scripts and test harnesses (end-to-end tests, the
// load test, the benchmark): build when the sources changed, a scratch PostgreSQL database,
// and waiting until /healthz answers.
import { type ChildProcess, execSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'

const SOURCES = [
  'app',
  'public',
  'package.json',
  'vite.config.ts',
  'react-router.config.ts',
  'scripts/lib/service-worker.ts',
]

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)))
  return newest
}

/** Runs `react-router build` when any source is newer than the last build. */
export function buildIfNeeded(root: string, label = 'app') {
  const builtAt = fs.statSync(path.join(root, 'build/server/index.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0
  const newest = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))))
  if (newest <= builtAt) return
  console.log(`[${label}] building the app (npx react-router build)…`)
  execSync('npx react-router build', { cwd: root, stdio: 'inherit' })
}

/** `baseUrl` with its database name replaced. */
export function databaseUrl(baseUrl: string, database: string) {
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/** Creates a database with a unique name on the server of `adminUrl`: empty, or a copy of the `template` database. */
export async function createScratchDatabase(adminUrl: string, prefix: string, template?: string) {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`)
  } finally {
    await admin.end()
  }
  return { name, url: databaseUrl(adminUrl, name) }
}

export async function dropDatabase(adminUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`drop database if exists "${name}" with (force)`)
  } finally {
    await admin.end()
  }
}

/** Resolves once `url` answers 200; fails early if the process exits. */
export async function waitForHealthy(url: string, child: { exitCode: number | null }, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      if (response.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`GET ${url} did not return 200 within ${timeoutMs / 1000} s`)
}

/** The secret the scripted servers sign sessions with (bench/capture.ts must verify the same cookies). */
export const SERVER_AUTH_SECRET = 'load-test-secret-0123456789-abcdefghijkl'

export type RunningServer = { origin: string; child: ChildProcess; stop: () => Promise<void> }

/**
 * Spawns the production server (`server.mjs`) on `databaseUrl` with its output in `logPath`, and
 * resolves once /healthz answers. TRUST_PROXY=1 so each scripted client can be its own IP.
 */
export async function startServer(
  root: string,
  /** Without `databaseUrl` the server uses its embedded database (PGlite) in `dataDir`. */
  options: {
    port: string
    databaseUrl?: string
    dataDir: string
    logPath: string
    env?: Record<string, string>
    /**
     * Inherited variables the server must not see (matched by name), e.g. /^TWILIO_/ for a server that has to send
     * texts to its built-in mailbox even when the shell that runs the tests has a Twilio account set.
     */
    withoutEnv?: RegExp
  },
): Promise<RunningServer> {
  const origin = `http://localhost:${options.port}`
  const { DATABASE_URL: _inherited, ...everything } = process.env
  const withoutEnv = options.withoutEnv
  const inherited = withoutEnv
    ? Object.fromEntries(Object.entries(everything).filter(([name]) => !withoutEnv.test(name)))
    : everything
  const child = spawn(process.execPath, ['server.mjs'], {
    cwd: root,
    env: {
      ...inherited,
      NODE_ENV: 'production',
      PORT: options.port,
      APP_URL: origin,
      DATA_DIR: options.dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      TRUST_PROXY: '1',
      AUTH_SECRET: SERVER_AUTH_SECRET,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return superviseServer(child, {
    origin,
    healthUrl: `${origin}/healthz`,
    logPath: options.logPath,
    timeoutMs: 120_000,
  })
}

/**
 * Sends a spawned server's output to `logPath` and resolves once `healthUrl` answers 200; a server
 * that never does is stopped before the error is thrown.
 */
export async function superviseServer(
  child: ChildProcess,
  options: { origin: string; healthUrl: string; logPath: string; timeoutMs: number },
): Promise<RunningServer> {
  const log = fs.createWriteStream(options.logPath, { flags: 'a' })
  child.stdout?.pipe(log)
  child.stderr?.pipe(log)
  const stop = async () => {
    if (child.exitCode !== null) return
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
  try {
    await waitForHealthy(options.healthUrl, child, options.timeoutMs)
  } catch (error) {
    await stop()
    throw error
  }
  return { origin: options.origin, child, stop }
}

/** Signs in through the login form (POST /login) and returns the session cookie header. */
export async function signIn(origin: string, email: string, password: string, clientIp: string) {
  const response = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, 'x-forwarded-for': clientIp },
    body: new URLSearchParams({ intent: 'login', email, password }),
  })
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  if (response.status !== 302 || !cookie.includes('session_token')) {
    throw new Error(`could not sign in as ${email}: ${response.status}`)
  }
  return cookie
}
