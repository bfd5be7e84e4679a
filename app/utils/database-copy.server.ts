// A whole database copied into another (docs/scaling.md "Moving to PostgreSQL", docs/decisions/071-database-copy.md):
// the embedded database into PostgreSQL when a company outgrows one process, or back (the benchmark measures the
// embedded server on the PostgreSQL dataset this way). Both sides are opened by `openDatabase`, so PGlite and
// PostgreSQL are alike here. The target is migrated, must be empty, and is written in one transaction with triggers
// and foreign-key checks off (`session_replication_role = replica`): the rows are copied as they are, so a trigger
// that makes a company's warehouse or touches `updated_at` must not run again. Rows travel as JSON
// (`json_agg` there, `json_populate_recordset` here), which carries every column type the schema uses exactly.
import { sql } from 'drizzle-orm'
import { type Database, type DatabaseHandle, migrateDatabase, queryRows } from './db.server'

/** Rows a statement carries: a few megabytes of JSON at the most on this schema. */
const CHUNK_ROWS = 2_000

export type CopiedTable = { table: string; rows: number }

export class DatabaseCopyError extends Error {}

/** The migrations a database has applied, oldest first (Drizzle's own table). */
async function appliedMigrations(database: Database) {
  try {
    const rows = await queryRows<{ hash: string }>(
      sql`select hash from drizzle.__drizzle_migrations order by created_at, id`,
      database,
    )
    return rows.map((row) => row.hash)
  } catch {
    return []
  }
}

async function tablesOf(database: Database) {
  const rows = await queryRows<{ name: string }>(
    sql`select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    database,
  )
  return rows.map((row) => row.name)
}

async function columnsOf(database: Database, table: string) {
  return queryRows<{ name: string; identity: boolean }>(
    sql`select column_name as name, is_identity = 'YES' as identity from information_schema.columns
      where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
      order by ordinal_position`,
    database,
  )
}

const list = (names: string[]) =>
  sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  )

async function count(database: Pick<Database, 'execute'>, table: string) {
  const [row] = await queryRows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`, database)
  return row?.n ?? 0
}

/**
 * Copies every row of `source` into `target`, which is migrated first and must hold no rows. Both must be at the
 * same migration (this version of Pool Bud's); the source is read in one snapshot. Returns each table's rows.
 */
export async function copyDatabase(
  source: DatabaseHandle,
  target: DatabaseHandle,
  { log = () => {} }: { log?: (line: string) => void } = {},
): Promise<CopiedTable[]> {
  await migrateDatabase(target)
  const [sourceMigrations, targetMigrations] = await Promise.all([
    appliedMigrations(source.db),
    appliedMigrations(target.db),
  ])
  if (sourceMigrations.join() !== targetMigrations.join()) {
    throw new DatabaseCopyError(
      sourceMigrations.length < targetMigrations.length
        ? `The source database has ${sourceMigrations.length} of this version's ${targetMigrations.length} migrations: start its server once on this version (or run npm run db:migrate with its settings), then copy.`
        : 'The source database was made by another version of Pool Bud: copy with the version that last ran on it.',
    )
  }
  const tables = await tablesOf(target.db)
  for (const table of tables) {
    const [row] = await queryRows<{ any: boolean }>(
      sql`select exists (select 1 from ${sql.identifier(table)}) as any`,
      target.db,
    )
    if (row?.any)
      throw new DatabaseCopyError(`The target database already holds data (${table}): copy into an empty one.`)
  }
  const read = async <T>(run: (tx: Database) => Promise<T>) =>
    source.kind === 'postgres'
      ? source.db.transaction(run, { isolationLevel: 'repeatable read', accessMode: 'read only' })
      : source.db.transaction(run)
  return read((from) =>
    target.db.transaction(async (to) => {
      try {
        await to.execute(sql`set local session_replication_role = replica`)
      } catch {
        throw new DatabaseCopyError(
          'The target role may not turn triggers off for the copy: connect as a superuser, or on PostgreSQL 15 and later run "GRANT SET ON PARAMETER session_replication_role TO <role>" first.',
        )
      }
      const copied: CopiedTable[] = []
      for (const table of tables) {
        const columns = await columnsOf(to, table)
        const names = columns.map((column) => column.name)
        let rows = 0
        for (;;) {
          const [chunk] = await queryRows<{ rows: string }>(
            sql`select coalesce(json_agg(r), '[]')::text as rows from (select ${list(names)} from ${sql.identifier(table)}
              order by ctid limit ${CHUNK_ROWS} offset ${rows}) r`,
            from,
          )
          const json = chunk?.rows ?? '[]'
          if (json === '[]') break
          const written = await queryRows<{ n: number }>(
            sql`with written as (insert into ${sql.identifier(table)} (${list(names)}) overriding system value
              select ${list(names)} from json_populate_recordset(null::${sql.identifier(table)}, ${json}::json)
              returning 1) select count(*)::int as n from written`,
            to,
          )
          const n = written[0]?.n ?? 0
          rows += n
          if (n < CHUNK_ROWS) break
        }
        for (const column of columns.filter((each) => each.identity)) {
          // The next identity value follows the copied ones, as it did on the source.
          await to.execute(sql`select setval(pg_get_serial_sequence(${table}, ${column.name}),
            coalesce((select max(${sql.identifier(column.name)}) from ${sql.identifier(table)}), 0) + 1, false)`)
        }
        const expected = await count(from, table)
        if (rows !== expected) throw new DatabaseCopyError(`${table}: ${rows} rows copied of ${expected}`)
        if (rows > 0) log(`${table}: ${rows} rows`)
        copied.push({ table, rows })
      }
      return copied
    }),
  )
}
