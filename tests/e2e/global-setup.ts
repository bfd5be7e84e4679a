// Starts everything the end-to-end tests talk to: a real SMTP sink, a fresh database (PGlite in a
// temp folder, or a new PostgreSQL database when DATABASE_URL is set) and the built production server.
import { execSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FullConfig } from '@playwright/test'
import pg from 'pg'
import { SMTPServer } from 'smtp-server'
import globalTeardown from './global-teardown'
import { type E2eState, STATE_FILE_ENV, setE2eState } from './state'

const AUTH_SECRET = 'e2e-secret-0123456789-abcdefghij-0123456'
const SOURCES = ['app', 'public', 'package.json', 'vite.config.ts', 'react-router.config.ts']

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)))
  return newest
}

function buildIfNeeded(root: string) {
  const builtAt = fs.statSync(path.join(root, 'build/server/index.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0
  const newest = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))))
  if (newest <= builtAt) return
  console.log('[e2e] building the app (npx react-router build)…')
  execSync('npx react-router build', { cwd: root, stdio: 'inherit' })
}

/** An SMTP server that accepts everything and stores each raw message as a file in `dir`. */
async function startSmtpSink(dir: string) {
  let seq = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', callback)
      stream.on('end', () => {
        // The name starts with the receipt time; write then rename so readers never see half a message.
        const name = `${Date.now()}-${String(++seq).padStart(5, '0')}.eml`
        const tmp = path.join(dir, `.${name}.tmp`)
        fs.writeFileSync(tmp, Buffer.concat(chunks))
        fs.renameSync(tmp, path.join(dir, name))
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.server.address()
  if (!address || typeof address === 'string') throw new Error('SMTP sink has no port')
  return { server, port: address.port }
}

function databaseUrl(baseUrl: string, database: string) {
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  return url.toString()
}

async function waitForHealthy(url: string, child: { exitCode: number | null }, timeoutMs: number) {
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

export default async function globalSetup(config: FullConfig) {
  const root = path.dirname(config.configFile ?? path.resolve('playwright.config.ts'))
  const port = process.env.E2E_PORT
  if (!port) throw new Error('E2E_PORT is not set: playwright.config.ts chooses it')
  const baseURL = `http://localhost:${port}`

  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-e2e-'))
  const mailDir = path.join(runDir, 'mail')
  const dataDir = path.join(runDir, 'data')
  fs.mkdirSync(mailDir)
  fs.mkdirSync(dataDir)
  const state: E2eState = { runDir, mailDir }
  const stateFile = path.join(runDir, 'state.json')
  const saveState = () => fs.writeFileSync(stateFile, JSON.stringify({ ...state, server: undefined, smtp: undefined }))
  setE2eState(state)
  process.env[STATE_FILE_ENV] = stateFile
  saveState()

  try {
    await startEverything()
  } catch (error) {
    // Whatever was started before the failure is stopped here (running the teardown twice is harmless).
    await globalTeardown(config).catch((cleanupError) => console.error(cleanupError))
    throw error
  }

  async function startEverything() {
    const smtp = await startSmtpSink(mailDir)
    state.smtp = smtp.server
    // Inherited by the worker processes, which read the messages from this folder.
    process.env.E2E_MAIL_DIR = mailDir

    buildIfNeeded(root)

    const serverEnv: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: port,
      APP_URL: baseURL,
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SEED_DEMO: '1',
      TRUST_PROXY: '1',
      AUTH_SECRET,
    }
    if (process.env.DATABASE_URL) {
      const database = `pool_bud_e2e_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
      await admin.connect()
      try {
        await admin.query(`create database "${database}"`)
      } finally {
        await admin.end()
      }
      state.database = { adminUrl: process.env.DATABASE_URL, name: database }
      saveState()
      serverEnv.DATABASE_URL = databaseUrl(process.env.DATABASE_URL, database)
    } else {
      delete serverEnv.DATABASE_URL
    }

    const logFile = path.join(runDir, 'server.log')
    state.serverLog = logFile
    const log = fs.createWriteStream(logFile)
    const child = spawn(process.execPath, ['server.mjs'], {
      cwd: root,
      env: serverEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.pipe(log, { end: false })
    child.stderr.pipe(log, { end: false })
    child.once('exit', (code, signal) => {
      const line = `[e2e] server exited at ${new Date().toISOString()} (code ${code}, signal ${signal})`
      if (!state.stopping) console.error(`${line} before the tests finished: see test-results/e2e-server.log`)
      log.end(`${line}\n`)
    })
    state.server = child
    state.serverPid = child.pid
    saveState()

    try {
      await waitForHealthy(`${baseURL}/healthz`, child, 120_000)
    } catch (error) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      console.error(`[e2e] the server did not start:\n${fs.readFileSync(logFile, 'utf8')}`)
      throw error
    }
  }

  console.log(`[e2e] server ready at ${baseURL} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`)
}
