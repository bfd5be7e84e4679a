// Faults (issue #8 §4): when PostgreSQL drops every connection — what a restart or a failover
// looks like from the app — pages keep being served and live updates resume, without restarting
// the app. Only PostgreSQL has connections to lose; the embedded PGlite runs in-process.
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { seedDemoData } from '~/demo/seed.server'
import { loader as customersLoader } from '~/routes/app/customers'
import { db } from '~/utils/db.server'
import { type CompanyEvent, publishCompanyEvent, subscribeToCompany } from '~/utils/events.server'
import { TEST_ORIGIN } from '../helpers/requests'
import { signInAs } from '../helpers/session'

const database = inject('testDatabase')

/** Ends every connection to this test's database, from outside (as a server restart would). */
async function dropAllConnections() {
  if (database.kind !== 'postgres') throw new Error('PostgreSQL only')
  const result = (await db().execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }
  const name = result.rows[0]?.name
  const admin = new pg.Client({ connectionString: database.adminUrl })
  await admin.connect()
  const { rowCount } = await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [name],
  )
  await admin.end()
  return rowCount ?? 0
}

async function eventually<T>(attempt: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await attempt()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

describe.runIf(database.kind === 'postgres')('PostgreSQL drops every connection', () => {
  const unsubscribe: Array<() => void> = []
  afterAll(() => {
    for (const stop of unsubscribe) stop()
  })

  it('pages are served again at once, without restarting the app', async () => {
    await seedDemoData(db())
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const page = () =>
      customersLoader({
        request: new Request(`${TEST_ORIGIN}/app/customers`, { headers: { cookie } }),
        params: {},
        context: {},
      } as never)
    await page()

    expect(await dropAllConnections()).toBeGreaterThan(0)
    // Give the dropped sockets a moment to be noticed, as any real outage would.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const result = (await page()) as { total: number }
    expect(result.total).toBeGreaterThan(0)
  })

  it('live updates resume: an event published after the drop still reaches subscribers', async () => {
    const companyId = '00000000-0000-4000-8000-000000000001'
    const received: CompanyEvent[] = []
    unsubscribe.push(await subscribeToCompany(companyId, (event) => received.push(event)))
    await publishCompanyEvent({ companyId, type: 'visit.created', visitId: 'before' })
    await eventually(async () => expect(received.map((e) => e.visitId)).toContain('before'))

    await dropAllConnections()
    // Subscribers are told to refresh once listening resumes (changes meanwhile went unannounced).
    await eventually(async () => expect(received.filter((e) => e.visitId === undefined).length).toBeGreaterThan(0))
    await eventually(async () => {
      await publishCompanyEvent({ companyId, type: 'visit.created', visitId: 'after' })
      expect(received.map((e) => e.visitId)).toContain('after')
    })
  })
})
