// The public API's pages (docs/api.md "Paging", docs/decisions/050-public-api.md): keyset paging on (created_at, id)
// behind an opaque cursor that stays right while rows are added, one more row read to know whether a next page
// exists, and `updated_since`. Webhook deliveries page the same way.
import { and, asc, eq, gt, gte, or, type SQL, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { isUuid } from '~/utils/ids'

export type Cursor = { createdAt: string; id: string }

export function encodeCursor(row: { createdAt: Date; id: string }) {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url')
}

/** The cursor's position, or null when it is not one of ours (the route answers 400). */
export function decodeCursor(cursor: string | undefined): Cursor | null | undefined {
  if (!cursor) return undefined
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (!Array.isArray(value) || typeof value[0] !== 'string' || !isUuid(value[1])) return null
    if (Number.isNaN(Date.parse(value[0]))) return null
    return { createdAt: value[0], id: value[1] }
  } catch {
    return null
  }
}

/** `updated_since`: only the records created or changed at or after this instant (docs/api.md "Changes since"). */
export type Page = { limit: number; cursor?: Cursor; updated_since?: string }

export function changedSince(updatedAt: PgColumn, since: string | undefined): SQL | undefined {
  return since ? gte(updatedAt, new Date(since)) : undefined
}

/**
 * Timestamps are kept to the microsecond and a cursor carries milliseconds (a JavaScript Date): pages order and
 * compare by the millisecond, ties by id, so a row is never shown twice or skipped.
 */
const toMs = (column: PgColumn) => sql`date_trunc('milliseconds', ${column})`

export function keysetOrder(createdAt: PgColumn, idColumn: PgColumn) {
  return [asc(toMs(createdAt)), asc(idColumn)] as const
}

export function after(createdAt: PgColumn, idColumn: PgColumn, cursor: Cursor | undefined): SQL | undefined {
  if (!cursor) return undefined
  const at = new Date(cursor.createdAt).toISOString()
  return or(
    gt(toMs(createdAt), sql`${at}::timestamptz`),
    and(eq(toMs(createdAt), sql`${at}::timestamptz`), gt(idColumn, cursor.id)),
  )
}

/** One more row than asked tells whether there is a next page. */
export function paged<T extends { createdAt: Date; id: string }>(rows: T[], limit: number) {
  const data = rows.slice(0, limit)
  const last = data[data.length - 1]
  return { data, nextCursor: rows.length > limit && last ? encodeCursor(last) : null }
}

export const iso = (value: Date | null) => (value ? value.toISOString() : null)
