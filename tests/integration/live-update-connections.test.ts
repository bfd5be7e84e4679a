// Fault drill #6: a crew opening the app together each morning must not pile up PostgreSQL connections. Live
// updates LISTEN on one dedicated connection per process, however many streams open at once and after they close.
// Only PostgreSQL has such connections (PGlite delivers notifications in-process).
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, inject, it } from 'vitest'
import type { CompanyMember } from '~/auth/guards.server'
import { openLiveStream } from '~/auth/live-stream.server'
import { queryRows } from '~/utils/db.server'
import { stopEvents } from '~/utils/events.server'
import { TEST_ORIGIN } from '../helpers/requests'

const database = inject('testDatabase')

/** Connections to this test's database whose statement is a LISTEN. */
async function listenConnections() {
  const [row] = await queryRows<{ n: number }>(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
  )
  return row?.n ?? 0
}

/** A member as the stream sees one (each stream its own user: a user may hold only 8). */
function member(index: number): CompanyMember {
  const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`
  const companyId = '00000000-0000-4000-8000-00000000c0de'
  return { id, companyId, role: 'tech', email: `tech${index}@example.test`, profile: { companyId } } as never
}

describe.runIf(database.kind === 'postgres')('live-update streams and PostgreSQL connections', () => {
  afterAll(() => stopEvents())

  it('40 streams opened at once share one LISTEN connection, still the only one after they all close', async () => {
    await stopEvents()
    expect(await listenConnections()).toBe(0)

    const aborts = Array.from({ length: 40 }, () => new AbortController())
    const streams = aborts.map((abort, index) =>
      openLiveStream(new Request(`${TEST_ORIGIN}/app/events`, { signal: abort.signal }), member(index)),
    )
    // Each stream says it is connected once it listens.
    const readers = streams.map((response) => (response.body as ReadableStream<Uint8Array>).getReader())
    const first = await Promise.all(readers.map((reader) => reader.read()))
    for (const chunk of first) expect(new TextDecoder().decode(chunk.value)).toContain(': connected')
    expect(await listenConnections()).toBe(1)

    for (const abort of aborts) abort.abort()
    await Promise.all(readers.map((reader) => reader.read()))
    expect(await listenConnections()).toBe(1)
  })
})
