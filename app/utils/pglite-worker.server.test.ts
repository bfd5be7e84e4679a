// The server's embedded database runs in a worker thread (decision 068): what a request sees through it must be what
// an in-process PGlite gives — results, PostgreSQL's error fields, isolated transactions — and a long statement must
// no longer stop the request thread. Its own in-memory database, whichever the run uses.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase, queryRows } from './db.server'
import { openPgliteWorker } from './pglite-worker.server'
import { withPreparedStatements } from './prepared-statements.server'

let handle: DatabaseHandle

beforeAll(async () => {
  handle = await openDatabase({ worker: true })
  await handle.db.execute(sql`create table probe (id int primary key, label text not null, at timestamptz)`)
})

afterAll(async () => {
  await handle?.close()
})

/** The labels every other caller sees now. */
async function labels() {
  return (await queryRows<{ label: string }>(sql`select label from probe order by id`, handle.db)).map((r) => r.label)
}

describe('PGlite in a worker thread', () => {
  it('answers a query with its rows, and a unique violation with its code and constraint', async () => {
    await handle.db.execute(sql`insert into probe values (1, 'first', '2026-11-29 12:00:00+00')`)
    // Drizzle's parsers keep a timestamp's text as PostgreSQL wrote it, across the thread too.
    expect(await queryRows(sql`select id, label, at, ${'param'}::text as echoed from probe`, handle.db)).toEqual([
      { id: 1, label: 'first', at: '2026-11-29 12:00:00+00', echoed: 'param' },
    ])
    const failure = await handle.db.execute(sql`insert into probe values (1, 'again', null)`).catch((e: Error) => e)
    expect((failure as Error).cause).toMatchObject({
      code: '23505',
      constraint: 'probe_pkey',
      table: 'probe',
      detail: 'Key (id)=(1) already exists.',
    })
  })

  it("keeps a transaction's statements from other callers until it commits", async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let inserted = () => {}
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve
    })
    const transaction = handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe values (2, 'second', null)`)
      expect((await queryRows<{ n: number }>(sql`select count(*)::int as n from probe`, tx))[0]?.n).toBe(2)
      inserted()
      await held
    })
    await insertedYet
    // Another caller's statement waits for the single connection, as on an in-process PGlite.
    let read: string[] | undefined
    const reading = labels().then((rows) => {
      read = rows
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(read).toBeUndefined()
    release()
    await transaction
    await reading
    expect(read).toEqual(['first', 'second'])
  })

  it('leaves nothing of a transaction that rolled back, nested savepoints included', async () => {
    const failure = await handle.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into probe values (3, 'third', null)`)
        await tx.transaction(async (inner) => {
          await inner.execute(sql`insert into probe values (4, 'fourth', null)`)
        })
        await tx.execute(sql`insert into probe values (1, 'clash', null)`)
      })
      .catch((e: Error) => e)
    expect((failure as Error).cause).toMatchObject({ code: '23505' })
    expect(await labels()).toEqual(['first', 'second'])
    // The connection is free again: the next transaction commits.
    await handle.db.transaction((tx) => tx.execute(sql`insert into probe values (5, 'fifth', null)`))
    expect(await labels()).toEqual(['first', 'second', 'fifth'])
  })

  it('keeps the request thread running while a statement runs in the worker', async () => {
    let ticks = 0
    const timer = setInterval(() => {
      ticks += 1
    }, 20)
    // Over 0.3 s in the database. In this thread (an in-process PGlite) no timer could fire until it ended.
    const ticksWhenDone = await handle.db
      .execute(sql`select count(*) from generate_series(1, 1000000) s, pg_sleep(0.3)`)
      .then(() => ticks)
    clearInterval(timer)
    expect(ticksWhenDone).toBeGreaterThanOrEqual(3)
  })

  it('delivers notifications to a listener', async () => {
    const heard: string[] = []
    if (handle.kind !== 'pglite') throw new Error('expected PGlite')
    const unlisten = await handle.client.listen('probe_channel', (payload) => heard.push(payload))
    await handle.db.execute(sql`select pg_notify('probe_channel', 'hello')`)
    await expect.poll(() => heard).toEqual(['hello'])
    await unlisten()
  })
})

// The worker runs a statement in one call into PostgreSQL, and a page's statements as prepared ones when it opted in
// (server/pglite-statements.mjs, decision 075): the answers must be PGlite's own `query`'s.
describe("the worker's statements", () => {
  const client = () => {
    if (handle.kind !== 'pglite') throw new Error('expected PGlite')
    return handle.client
  }
  const preparedNames = async () =>
    (
      await client().query<{ statement: string }>('select statement from pg_prepared_statements order by name')
    ).rows.map((row) => row.statement)
  const parameterized = `select $1::int + 1 as next, $2::text[] as words, $3::jsonb as doc, $4::timestamptz as at,
    $5::numeric as amount, $6::bool as flag, $7::date as day, $8::text as maybe, $9::bigint as big, $10::text as plain
    from probe limit 1`

  it("answers every kind of parameter as PGlite's own query does, once and again, prepared or not", async () => {
    const own = await PGlite.create()
    await own.exec(`create table probe (id int primary key); insert into probe values (1)`)
    const text = fc.string({ maxLength: 12 }).filter((word) => !word.includes('\0'))
    const values = fc.tuple(
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.array(text, { maxLength: 4 }),
      fc.oneof(
        fc.constant(null),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), text, fc.boolean())),
      ),
      fc.date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }),
      fc.integer({ min: -10_000_000, max: 10_000_000 }).map((cents) => (cents / 100).toFixed(2)),
      fc.boolean(),
      fc.constantFrom('2026-02-28', '2024-02-29', '1999-12-31'),
      fc.option(text, { nil: null }),
      fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }),
      fc.oneof(text, fc.integer().map(String)),
    )
    try {
      await fc.assert(
        fc.asyncProperty(values, fc.boolean(), async (params, prepared) => {
          const expected = await own.query(parameterized, [...params])
          const run = () => client().query(parameterized, [...params])
          const answered = await (prepared ? withPreparedStatements(run) : run())
          expect(answered.rows).toEqual(expected.rows)
          expect(answered.fields).toEqual(expected.fields)
        }),
        { numRuns: 60 },
      )
    } finally {
      await own.close()
    }
  })

  it('prepares a statement once, by name, only for a caller that asked', async () => {
    const text = 'select label from probe where id = $1'
    await client().query(text, [1])
    expect(await preparedNames()).not.toContain(text)
    for (const id of [1, 2, 5, 1, 2, 5, 1]) {
      const rows = await withPreparedStatements(() => client().query<{ label: string }>(text, [id]))
      expect(rows.rows).toEqual([{ label: { 1: 'first', 2: 'second', 5: 'fifth' }[id] }])
    }
    expect((await preparedNames()).filter((statement) => statement === text)).toHaveLength(1)
  })

  it('prepares the statement again when PostgreSQL has forgotten it, and recovers after errors', async () => {
    const text = 'select label from probe where id = $1 and label <> $2'
    const run = (id: number) => withPreparedStatements(() => client().query<{ label: string }>(text, [id, '']))
    expect((await run(1)).rows).toEqual([{ label: 'first' }])
    await client().exec('deallocate all')
    expect((await run(2)).rows).toEqual([{ label: 'second' }])
    // A value PostgreSQL refuses, then the same statement with a good one.
    await expect(withPreparedStatements(() => client().query(text, ['not a number', '']))).rejects.toMatchObject({
      code: '22P02',
    })
    expect((await run(5)).rows).toEqual([{ label: 'fifth' }])
    // A statement PostgreSQL cannot parse is remembered by nobody: it fails the same way each time.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(client().query('select nope from probe where id = $1', [1])).rejects.toMatchObject({
        code: '42703',
      })
    }
  })

  it('ends a transaction whose prepared statement failed, and leaves the next one whole', async () => {
    const failure = await handle.db
      .transaction(async (tx) => {
        await withPreparedStatements(async () => {
          await tx.execute(sql`insert into probe values (${6}, ${'sixth'}, null)`)
          await tx.execute(sql`insert into probe values (${1}, ${'clash'}, null)`)
        })
      })
      .catch((e: Error) => e)
    expect((failure as Error).cause).toMatchObject({ code: '23505', constraint: 'probe_pkey' })
    expect(await labels()).not.toContain('sixth')
    await handle.db.transaction((tx) =>
      withPreparedStatements(() => tx.execute(sql`insert into probe values (${6}, ${'sixth'}, null)`)),
    )
    expect(await labels()).toContain('sixth')
    // And outside a transaction, the same text (prepared above) again.
    await withPreparedStatements(() => handle.db.execute(sql`insert into probe values (${7}, ${'seventh'}, null)`))
    expect(await labels()).toContain('seventh')
  })
})

describe('a worker that stops while the database is open', () => {
  it('tells its owner once, and every statement after fails instead of waiting for ever', async () => {
    // A stand-in for server/pglite-worker.mjs that opens, then dies as a crashed PGlite would.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-dying-worker-'))
    const script = path.join(folder, 'dying-worker.mjs')
    fs.writeFileSync(
      script,
      "import { parentPort } from 'node:worker_threads'\nparentPort.postMessage({ id: 0, result: null })\nsetTimeout(() => process.exit(3), 50)\n",
    )
    try {
      const stops: Error[] = []
      const client = await openPgliteWorker(script, undefined, (error) => stops.push(error))
      await expect.poll(() => stops.length).toBe(1)
      expect(stops[0]?.message).toMatch(/exit code 3/)
      await expect(client.query('select 1')).rejects.toThrow(/exit code 3/)
      expect(stops).toHaveLength(1)
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })
})
