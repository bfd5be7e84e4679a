// Prepared statements for the pages that opt in (decision 073): inside `withPreparedStatements` a statement with
// parameters is prepared once on its connection and reused; outside it, nothing is prepared. Only PostgreSQL has
// prepared statements on connections (PGlite answers in the same process).
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { db } from '~/utils/db.server'
import { nameStatements, statementName, withPreparedStatements } from './prepared-statements.server'

const database = inject('testDatabase')

describe('statementName', () => {
  it('gives a text the same name every time, and two texts two names', () => {
    const first = statementName('select $1::int as one')
    expect(first).toMatch(/^pb_/)
    expect(statementName('select $1::int as one')).toBe(first)
    expect(statementName('select $1::int as two')).not.toBe(first)
  })
})

describe.runIf(database.kind === 'postgres')('a pool that names statements', () => {
  let pool: pg.Pool

  /** What the pool's one connection holds prepared (asked through that same connection, unnamed). */
  async function prepared() {
    const { rows } = await pool.query<{ name: string; statement: string }>(
      'select name, statement from pg_prepared_statements order by statement',
    )
    return rows
  }

  beforeAll(async () => {
    if (database.kind !== 'postgres') return
    const result = (await db().execute(sql`select current_database() as name`)) as unknown as {
      rows: { name: string }[]
    }
    const url = new URL(database.adminUrl)
    url.pathname = `/${result.rows[0]?.name}`
    // One connection, so every statement below meets the same prepared statements.
    pool = nameStatements(new pg.Pool({ connectionString: url.toString(), max: 1 }))
  })
  afterAll(async () => {
    await pool?.end()
  })

  it('prepares a statement with parameters once inside the scope, and nothing outside it', async () => {
    const outside = 'select $1::int + 1 as next_outside'
    const inside = 'select $1::int + 1 as next_inside'
    expect((await pool.query(outside, [1])).rows).toEqual([{ next_outside: 2 }])
    expect(await prepared()).toEqual([])

    const answers = await withPreparedStatements(async () => [
      (await pool.query(inside, [1])).rows[0],
      (await pool.query({ text: inside, values: [41] })).rows[0],
      // Without parameters: left unnamed (few, and often one-off texts).
      (await pool.query('select 7 as seven')).rows[0],
    ])
    expect(answers).toEqual([{ next_inside: 2 }, { next_inside: 42 }, { seven: 7 }])
    expect(await prepared()).toEqual([{ name: statementName(inside), statement: inside }])
  })

  it("follows the caller's scope when the statement waits for the connection", async () => {
    // The one connection is busy, so both statements wait in the pool and are handed the connection later, from
    // whichever call released it: the decision must be the caller's, made when it called.
    const busy = pool.query('select pg_sleep(0.2)')
    const waitingInside = withPreparedStatements(() => pool.query('select $1::text as waited_inside', ['a']))
    const waitingOutside = pool.query('select $1::text as waited_outside', ['b'])
    await Promise.all([busy, waitingInside, waitingOutside])
    const statements = (await prepared()).map((row) => row.statement)
    expect(statements).toContain('select $1::text as waited_inside')
    expect(statements).not.toContain('select $1::text as waited_outside')
  })

  it('keeps a name a statement already has', async () => {
    await withPreparedStatements(() => pool.query({ name: 'own_name', text: 'select $1::int as own', values: [1] }))
    expect(await prepared()).toContainEqual({ name: 'own_name', statement: 'select $1::int as own' })
  })
})
