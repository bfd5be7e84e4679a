// Fault drill #2b: the production server dies (SIGKILL) while an SMTP server has its message but has not answered
// yet. Started again, it delivers the email within about a minute (not after a 5-minute lease), and every copy the
// SMTP server ever saw carries the same Message-ID, so mail servers and clients show one message. PostgreSQL only:
// the embedded database allows one process per data folder, so there is no second process to take over there.
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { CLAIM_LEASE } from '~/outbox/worker.server'
import { projectRoot } from '~/utils/db.server'
import {
  buildIfNeeded,
  createScratchDatabase,
  dropDatabase,
  type RunningServer,
  startServer,
} from '../../scripts/lib/app-server'
import { freePort } from '../../scripts/lib/free-port'

const database = inject('testDatabase')
const root = projectRoot()

/** The old lease: a retry had to wait this long. The email must arrive well within it. */
const OLD_LEASE_MS = 5 * 60_000

type Copy = { messageId: string | undefined; receivedAt: number }

/**
 * An SMTP sink that takes the first message whole but holds its reply (the moment the drill's server died in);
 * later messages are answered at once.
 */
async function startHoldingSink() {
  const copies: Copy[] = []
  let held: ((error?: Error) => void) | undefined
  let onHeld: () => void = () => {}
  let onDelivered: () => void = () => {}
  const holding = new Promise<void>((resolve) => {
    onHeld = resolve
  })
  const delivered = new Promise<void>((resolve) => {
    onDelivered = resolve
  })
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const headers = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? ''
        copies.push({ messageId: /^Message-ID: *(.*)$/im.exec(headers)?.[1]?.trim(), receivedAt: Date.now() })
        if (!held) {
          held = callback
          onHeld()
          return
        }
        callback()
        onDelivered()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  return {
    port: (server.server.address() as AddressInfo).port,
    copies,
    holding,
    delivered,
    close: () =>
      new Promise<void>((resolve) => {
        held?.(new Error('test over'))
        server.close(() => resolve())
      }),
  }
}

/** Resolves with `promise`, or fails once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number, what: string) {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms),
    ),
  ])
}

describe.runIf(database.kind === 'postgres')('a server killed in the middle of sending an email', () => {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-outbox-crash-'))
  let scratch: { name: string; url: string } | undefined
  let sink: Awaited<ReturnType<typeof startHoldingSink>> | undefined
  let server: RunningServer | undefined

  beforeAll(() => {
    buildIfNeeded(root, 'outbox-crash')
  }, 600_000)

  afterAll(async () => {
    await server?.stop()
    await sink?.close()
    if (scratch && database.kind === 'postgres') await dropDatabase(database.adminUrl, scratch.name)
    fs.rmSync(runDir, { recursive: true, force: true })
  })

  it('is sent again after a restart within about a minute, every copy with the same Message-ID', async () => {
    if (database.kind !== 'postgres') throw new Error('PostgreSQL only')
    scratch = await createScratchDatabase(database.adminUrl, 'pool_bud_outbox_crash')
    sink = await startHoldingSink()
    const port = String(await freePort())
    const options = {
      port,
      databaseUrl: scratch.url,
      dataDir: path.join(runDir, 'data'),
      logPath: path.join(runDir, 'server.log'),
      env: { SMTP_URL: `smtp://127.0.0.1:${sink.port}` },
    }
    server = await startServer(root, options)

    // A service report queued by a completion, as the running app would have written it.
    const client = new pg.Client({ connectionString: scratch.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ id: string }>(
        `insert into email_outbox ("to", subject, html, text) values ($1, $2, $3, $4) returning id`,
        ['dana.whitfield@example.com', 'Your pool visit report', '<p>All clear.</p>', 'All clear.'],
      )
      const emailId = rows[0]?.id as string

      // The SMTP server has the whole message; the app waits for its answer. Then the app dies.
      await within(sink.holding, 60_000, 'the first send')
      const dying = server.child
      const exited = new Promise((resolve) => dying.once('exit', resolve))
      dying.kill('SIGKILL')
      await exited
      server = undefined
      const killedAt = Date.now()

      // What the dead process left: a claim that runs out at most one lease from now.
      const left = await client.query<{ status: string; next_attempt_at: Date }>(
        'select status, next_attempt_at from email_outbox where id = $1',
        [emailId],
      )
      expect(left.rows[0]?.status).toBe('pending')
      expect((left.rows[0]?.next_attempt_at.getTime() ?? 0) - killedAt).toBeLessThanOrEqual(CLAIM_LEASE.ms)

      // Started again, the app sends it once more, long before the old 5-minute lease would have let it.
      server = await startServer(root, options)
      await within(sink.delivered, OLD_LEASE_MS / 2, 'the retry after the restart')

      // The server marks it sent once the SMTP server has answered.
      const statusOf = async () =>
        (await client.query<{ status: string }>('select status from email_outbox where id = $1', [emailId])).rows[0]
          ?.status
      const deadline = Date.now() + 30_000
      while ((await statusOf()) !== 'sent' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(await statusOf()).toBe('sent')
      expect(sink.copies).toHaveLength(2)
      // Derived from the row and the APP_URL host (http://localhost:<port>).
      const messageId = `<${emailId}@localhost>`
      expect(sink.copies.map((copy) => copy.messageId)).toEqual([messageId, messageId])
    } finally {
      await client.end()
    }
  }, 300_000)
})
