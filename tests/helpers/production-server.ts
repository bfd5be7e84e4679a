// The built production server (`server.mjs`) as the fault tests drive it: spawned on a free port against a
// scratch PostgreSQL database (or its own embedded PGlite folder), signed into as the demo users would be, and
// talked to over plain HTTP or a raw socket.
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { DEMO_PASSWORD } from '~/demo/seed.server'
import { buildIfNeeded, createScratchDatabase, dropDatabase, signIn, startServer } from '../../scripts/lib/app-server'
import { freePort } from '../../scripts/lib/free-port'

export const ROOT = path.resolve(import.meta.dirname, '../..')

export type ProductionServer = Awaited<ReturnType<typeof startProductionServer>>

/** Starts `server.mjs` (building first if the sources changed); the caller stops it and calls `cleanup`. */
export async function startProductionServer(options: { databaseUrl?: string; env?: Record<string, string> }) {
  buildIfNeeded(ROOT, 'fault test')
  const port = await freePort()
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-server-'))
  const logPath = path.join(runDir, 'server.log')
  const server = await startServer(ROOT, {
    port: String(port),
    databaseUrl: options.databaseUrl,
    dataDir: path.join(runDir, 'data'),
    logPath,
    env: { SEED_DEMO: '1', LOG_LEVEL: 'info', ...options.env },
  })
  return {
    ...server,
    port,
    dataDir: path.join(runDir, 'data'),
    log: () => (fs.existsSync(logPath) ? fs.readFileSync(logPath, 'utf8') : ''),
    cleanup: async () => {
      await server.stop()
      fs.rmSync(runDir, { recursive: true, force: true })
    },
  }
}

/** A scratch database on the DATABASE_URL server, and a client of it for the test's own checks. */
export async function scratchDatabase(adminUrl: string) {
  const database = await createScratchDatabase(adminUrl, 'pool_bud_fault')
  return {
    ...database,
    /** A fresh connection per query: the test's own checks are not cut by the restarts it causes. */
    async query<T extends pg.QueryResultRow>(text: string, params: unknown[] = []) {
      const once = new pg.Client({ connectionString: database.url })
      once.on('error', () => {})
      await once.connect()
      try {
        return (await once.query<T>(text, params)).rows
      } finally {
        await once.end()
      }
    },
    drop: () => dropDatabase(adminUrl, database.name),
  }
}

/** Signs in a demo user from `clientIp` (the server trusts one proxy); returns the cookie header. */
export function signInAs(server: { origin: string }, email: string, clientIp: string) {
  return signIn(server.origin, email, DEMO_PASSWORD, clientIp)
}

/** A form post as a browser without JavaScript sends it. */
export function postForm(
  server: { origin: string },
  pathname: string,
  { cookie, clientIp, fields }: { cookie: string; clientIp: string; fields: Record<string, string> },
) {
  return fetch(`${server.origin}${pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie,
      origin: server.origin,
      'x-forwarded-for': clientIp,
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields),
  })
}

/** `YYYY-MM-DDTHH:mm` a few days ahead, as the schedule input sends it. */
export function scheduleInput(daysAhead: number, hour: number) {
  const date = new Date(Date.now() + daysAhead * 86_400_000)
  return `${date.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00`
}

/** Resolves with the socket once connected; rejects with the error (ECONNREFUSED…) otherwise. */
export function connect(port: number) {
  return new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Collects what arrives on `socket` until `done(received)` says so (or the socket closes). */
export function readUntil(socket: net.Socket, done: (received: string) => boolean) {
  return new Promise<string>((resolve) => {
    let received = ''
    const finish = () => {
      socket.off('data', onData)
      socket.off('close', finish)
      resolve(received)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1')
      if (done(received)) finish()
    }
    socket.on('data', onData)
    socket.on('close', finish)
  })
}
