// The week board by weight (issue 36 item 4, docs/performance.md "Week board"): one page of the board, its document
// and its `.data`, stays within a fixed part plus a budget per visit it shows, however many technicians and visits the
// company has: 100 bytes a visit as it goes over the network (compressed, the default), 650 uncompressed.
import { and, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { profiles, user, visits } from '~/db/schema'
import { BOARD_TECHNICIANS_PER_PAGE, listTechnicians, mondayOf } from '~/models/week-board.server'
import { addDays, instantAt, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../../tests/helpers/customers'
import { appPageHandler, pageWeight } from '../../../tests/helpers/page-weight'
import { TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import * as schedule from './schedule'

/** Technicians added to Blue Lagoon: three pages of them. */
const TECHNICIANS = 3 * BOARD_TECHNICIANS_PER_PAGE
/** Each one's visits this week: six a day from Monday to Friday, one in ten left unassigned. */
const VISITS_EACH = 30
/**
 * The page's fixed part (the app's shell, the week's columns, the paging) and each visit's share. A visit is drawn
 * (its card: time, name, link, "Move visit"), then sent twice as data (the document's hydration and `.data`): about
 * 570 bytes in all uncompressed, its id four times; gzip folds the repeats (docs/performance.md "Week board").
 */
const FIXED_BYTES = 20_000
const BYTES_PER_VISIT = 650
/** The weight: what a phone downloads, the document and `.data` gzipped as the server sends them. */
const GZIP_BYTES_PER_VISIT = 100

const handler = appPageHandler('routes/app/schedule', 'schedule', schedule)
const ZONE = 'America/New_York'
let dispatcher: string
let companyId: string

beforeAll(async () => {
  await useDemoData()
  const [dina] = await db()
    .select({ companyId: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.email, 'dispatch@bluelagoon.test'))
  companyId = dina?.companyId as string
  const names = Array.from({ length: TECHNICIANS }, (_, i) => `Weight Tech ${String(i + 1).padStart(2, '0')}`)
  await db()
    .insert(user)
    .values(names.map((name, i) => ({ id: `weight-tech-${i}`, name, email: `weight-tech-${i}@bluelagoon.test` })))
  await db()
    .insert(profiles)
    .values(
      names.map((name, i) => ({
        id: `weight-tech-${i}`,
        companyId,
        role: 'tech' as const,
        fullName: name,
        email: `weight-tech-${i}@bluelagoon.test`,
        hasCompletedSetup: true,
      })),
    )
  const customers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      addTestCustomer(companyId, { customerName: `Weighed Customer ${i + 1}`, address: `${i + 1} Scale St` }),
    ),
  )
  const monday = mondayOf(localDateAt(new Date(), ZONE))
  await db()
    .insert(visits)
    .values(
      names.flatMap((_, t) =>
        Array.from({ length: VISITS_EACH }, (_, v) => {
          const customer = customers[(t + v) % customers.length] as (typeof customers)[number]
          const hour = String(8 + (v % 6)).padStart(2, '0')
          return {
            companyId,
            customerId: customer.id,
            locationId: customer.locationId,
            customerName: customer.customerName,
            address: customer.address,
            scheduledAt: instantAt(addDays(monday, v % 5), `${hour}:30`, ZONE),
            technicianId: v % 10 === 0 ? null : `weight-tech-${t}`,
          }
        }),
      ),
    )
  dispatcher = await signInAs('dispatch@bluelagoon.test')
})

describe('The week board by weight', () => {
  it.each([
    ['the first page of technicians', '/app/schedule', 1],
    ['the second page of technicians', '/app/schedule?page=2', 2],
  ])(
    `sends ${FIXED_BYTES} bytes and ${GZIP_BYTES_PER_VISIT} a visit shown at most (${BYTES_PER_VISIT} uncompressed), for %s`,
    async (_, path, pageNumber) => {
      const page = await pageWeight(handler, TEST_ORIGIN, path, dispatcher)
      // The page links its stylesheet as the build's does (a name of the same length, tests/setup/stylesheet-url.ts).
      expect(page.html).toContain('<link rel="stylesheet" href="/assets/app-00000000.css"/>')
      const shown = page.html.match(/href="\/app\/visits\//g)?.length ?? 0
      // The page draws every visit of this week of its own technicians and every unassigned one (canceled one-offs
      // aside), however many of them are the demo's at this hour of the week.
      const rows = (await listTechnicians(companyId))
        .slice((pageNumber - 1) * BOARD_TECHNICIANS_PER_PAGE, pageNumber * BOARD_TECHNICIANS_PER_PAGE)
        .map((technician) => technician.id)
      const monday = mondayOf(localDateAt(new Date(), ZONE))
      const [{ drawn = 0, unassigned = 0 } = {}] = await db()
        .select({
          drawn: sql<number>`count(*)::int`,
          unassigned: sql<number>`(count(*) filter (where ${visits.technicianId} is null and ${visits.customerName} like 'Weighed Customer %'))::int`,
        })
        .from(visits)
        .where(
          and(
            eq(visits.companyId, companyId),
            gte(visits.scheduledAt, instantAt(monday, '00:00', ZONE)),
            lt(visits.scheduledAt, instantAt(addDays(monday, 7), '00:00', ZONE)),
            sql`(${visits.canceledAt} is null or ${visits.skipReason} is not null)`,
            or(isNull(visits.technicianId), inArray(visits.technicianId, rows)),
          ),
        )
      expect(shown).toBe(drawn)
      // Most of them are this test's: the budget a visit is what is measured, not the page's fixed part.
      const weighedRows = rows.filter((id) => id.startsWith('weight-tech-')).length
      expect(weighedRows).toBeGreaterThan(0)
      expect(shown).toBeGreaterThanOrEqual(unassigned + weighedRows * VISITS_EACH * 0.9)
      const total = page.documentBytes + page.dataBytes
      expect(
        total,
        `document ${page.documentBytes} B + .data ${page.dataBytes} B for ${shown} visits: ${Math.round((total - FIXED_BYTES) / shown)} B a visit`,
      ).toBeLessThanOrEqual(FIXED_BYTES + BYTES_PER_VISIT * shown)
      const sent = page.documentGzipBytes + page.dataGzipBytes
      expect(
        sent,
        `gzipped: document ${page.documentGzipBytes} B + .data ${page.dataGzipBytes} B for ${shown} visits: ${Math.round((sent - FIXED_BYTES) / shown)} B a visit`,
      ).toBeLessThanOrEqual(FIXED_BYTES + GZIP_BYTES_PER_VISIT * shown)
    },
  )
})
