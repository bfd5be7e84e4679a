// Our patch of Drizzle's `is` (patches/, docs/performance.md): a class's answer for an
// entity kind is remembered instead of walking up its parents on every call. Query building asks `is` about every
// piece of every statement, so a wrong remembered answer would build wrong SQL; here every answer must be the one
// Drizzle's own walk gives, asked in any order and asked again.
import {
  Column,
  entityKind,
  is,
  Name,
  Param,
  Placeholder,
  SQL,
  StringChunk,
  Subquery,
  sql,
  Table,
  View,
} from 'drizzle-orm'
import { alias, PgColumn, PgDialect, PgTable, PgText, PgTimestamp, PgUUID, QueryBuilder } from 'drizzle-orm/pg-core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as schema from './schema'

/** Drizzle 0.45.4's own `is`, unpatched: `instanceof`, else the walk up the class's parents. */
function walkedIs(value: unknown, type: { [entityKind]: string }) {
  if (!value || typeof value !== 'object') return false
  if (value instanceof (type as unknown as new () => unknown)) return true
  for (let cls = Object.getPrototypeOf(value).constructor; cls; cls = Object.getPrototypeOf(cls)) {
    if (entityKind in cls && cls[entityKind] === type[entityKind]) return true
  }
  return false
}

const tables = Object.values(schema).filter((value) => is(value, PgTable)) as PgTable[]
const columns = tables.flatMap((table) => Object.values(table).filter((value) => value instanceof Column))
const profilesAlias = alias(schema.profiles, 'completer')
const subquery = new QueryBuilder().select({ id: schema.visits.id }).from(schema.visits).limit(1).as('recent')

// Classes of another copy of Drizzle (two versions installed side by side): the same kinds, not the same classes, so
// `instanceof` says no and only the walk (or what it remembered) says yes.
class ForeignColumn {
  static readonly [entityKind]: string = 'Column'
  readonly origin = 'another copy'
}
class ForeignPgText extends ForeignColumn {
  static override readonly [entityKind]: string = 'PgText'
}
class ForeignSql {
  static readonly [entityKind]: string = 'SQL'
  readonly origin = 'another copy'
}

const values: unknown[] = [
  new ForeignColumn(),
  new ForeignPgText(),
  new ForeignSql(),
  ...tables,
  ...columns,
  profilesAlias,
  profilesAlias.fullName,
  subquery,
  sql`select 1`,
  sql.raw('now()'),
  sql`count(*)`.as('n'),
  new Param(1),
  sql.placeholder('id'),
  new Name('visits'),
  new StringChunk('select'),
  new PgDialect(),
  { id: 1 },
  new Date(),
  [1, 2],
  'text',
  7,
  null,
  undefined,
]
const types = [
  Table,
  Column,
  SQL,
  SQL.Aliased,
  Param,
  Placeholder,
  View,
  Subquery,
  Name,
  StringChunk,
  PgTable,
  PgColumn,
  PgText,
  PgTimestamp,
  PgUUID,
  PgDialect,
] as unknown as { [entityKind]: string }[]

describe("Drizzle's is, remembered per class", () => {
  it('the schema gives it tables and columns of several kinds to answer about', () => {
    expect(tables.length).toBeGreaterThan(40)
    expect(columns.some((column) => column instanceof PgUUID)).toBe(true)
    expect(columns.some((column) => column instanceof PgTimestamp)).toBe(true)
  })

  it("answers as Drizzle's walk does, for any value and kind, in any order, asked again", () => {
    const value = fc.constantFrom(...values)
    const type = fc.constantFrom(...types)
    fc.assert(
      fc.property(fc.array(fc.tuple(value, type), { minLength: 1, maxLength: 60 }), (questions) => {
        for (const [asked, kind] of questions) {
          expect(is(asked, kind as never)).toBe(walkedIs(asked, kind))
        }
      }),
      { numRuns: 300 },
    )
  })

  it("knows a class of another copy of Drizzle by its kinds, its own and its parents'", () => {
    expect(is(new ForeignPgText(), PgText)).toBe(true)
    expect(is(new ForeignPgText(), Column)).toBe(true)
    expect(is(new ForeignPgText(), SQL)).toBe(false)
    expect(is(new ForeignSql(), SQL)).toBe(true)
    expect(is(new ForeignSql(), Column)).toBe(false)
  })

  it('still refuses a class that is not a Drizzle entity', () => {
    class Stranger {}
    expect(() => is(new Date(), Stranger as never)).toThrow(/doesn't look like a Drizzle entity/)
  })
})
