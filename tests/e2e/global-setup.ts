// Starts everything the end-to-end tests talk to: a real SMTP sink, a fresh database (PGlite in a
// temp folder, or a new PostgreSQL database when DATABASE_URL is set) and the built production server.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FullConfig } from '@playwright/test'
import { SMTPServer } from 'smtp-server'
import { buildIfNeeded, createScratchDatabase, startServer, waitForHealthy } from '../../scripts/lib/app-server'
import { freePort } from '../../scripts/lib/free-port'
import { startFakeTwilio } from '../helpers/fake-twilio'
import globalTeardown from './global-teardown'
import { announceSeededDemo } from './seeded-copy'
import { type E2eState, STATE_FILE_ENV, setE2eState } from './state'
import { E2E_TWILIO_ENV, E2E_TWILIO_FROM } from './texts'

const AUTH_SECRET = 'e2e-secret-0123456789-abcdefghij-0123456'
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
  const saveState = () =>
    fs.writeFileSync(stateFile, JSON.stringify({ ...state, server: undefined, smtp: undefined, twilio: undefined }))
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

    // Texts go to a local server that speaks Twilio's API (the real adapter, its auth and its errors); the specs read
    // what it accepted through that API, and sign inbound webhooks with its auth token.
    const twilio = await startFakeTwilio()
    state.twilio = twilio
    const texting = {
      url: twilio.url,
      accountSid: twilio.accountSid,
      authToken: twilio.authToken,
      from: E2E_TWILIO_FROM,
    }
    process.env[E2E_TWILIO_ENV] = JSON.stringify(texting)

    buildIfNeeded(root, 'e2e')
    // The demo for the specs' own servers (seeded-copy.ts) is seeded while the shared server starts.
    const seeding = seedDemoForCopies()
    seeding.catch(() => {}) // Awaited below, after the shared server's start: failing first must not go unheard.

    const serverEnv: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: port,
      APP_URL: baseURL,
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SEED_DEMO: '1',
      TRUST_PROXY: '1',
      // The webhooks spec's receiver listens on 127.0.0.1 (docs/api.md, "Webhooks").
      WEBHOOKS_ALLOW_PRIVATE: '1',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: E2E_TWILIO_FROM,
      TWILIO_API_BASE: twilio.url,
      AUTH_SECRET,
    }
    if (process.env.DATABASE_URL) {
      const database = await createScratchDatabase(process.env.DATABASE_URL, 'pool_bud_e2e')
      state.database = { adminUrl: process.env.DATABASE_URL, name: database.name }
      saveState()
      serverEnv.DATABASE_URL = database.url
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
    } finally {
      // Its server stopped either way before the setup ends (a failed setup's teardown does not know it).
      await seeding.catch(() => {})
    }
    await seeding
  }

  /** Starts a server once on a folder (and database) of its own, which seeds the demo there, and stops it. */
  async function seedDemoForCopies() {
    const seededDir = path.join(runDir, 'seeded-demo')
    let databaseUrl: string | undefined
    if (process.env.DATABASE_URL) {
      const database = await createScratchDatabase(process.env.DATABASE_URL, 'pool_bud_e2e_seeded')
      state.seededDatabase = { adminUrl: process.env.DATABASE_URL, name: database.name }
      saveState()
      databaseUrl = database.url
    }
    const seeder = await startServer(root, {
      port: String(await freePort()),
      databaseUrl,
      dataDir: seededDir,
      logPath: path.join(runDir, 'seeded-demo.log'),
      env: { SEED_DEMO: '1' },
    })
    await seeder.stop()
    announceSeededDemo({ dataDir: seededDir, database: state.seededDatabase?.name })
  }

  console.log(`[e2e] server ready at ${baseURL} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`)
}
