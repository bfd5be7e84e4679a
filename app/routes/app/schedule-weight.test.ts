// The week board by weight (issue 36 item 4, docs/performance.md "Week board"): one page of the board, its document
// and its `.data`, stays within a fixed part plus a budget per visit it shows, however many technicians and visits the
// company has: 100 bytes a visit as it goes over the network (compressed, the default), 650 uncompressed.
import { and, eq, sql } from 'drizzle-orm'
import { createElement } from 'react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { profiles, user, visits } from '~/db/schema'
import { BOARD_TECHNICIANS_PER_PAGE, mondayOf } from '~/models/week-board.server'
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

// Vitest does not build the stylesheet, so its `?url` import is empty: the page links a hashed file of the same name's
// length, as the build does.
vi.mock('~/utils/stylesheet', () => ({
  Stylesheet: () => createElement('link', { rel: 'stylesheet', href: '/assets/app-00000000.css' }),
}))

const handler = appPageHandler('routes/app/schedule', 'schedule', schedule)
let dispatcher: string

beforeAll(async () => {
  await useDemoData()
  const [dina] = await db()
    .select({ companyId: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.email, 'dispatch@bluelagoon.test'))
  const companyId = dina?.companyId as string
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
  const monday = mondayOf(localDateAt(new Date(), 'America/New_York'))
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
            scheduledAt: instantAt(addDays(monday, v % 5), `${hour}:30`, 'America/New_York'),
            technicianId: v % 10 === 0 ? null : `weight-tech-${t}`,
          }
        }),
      ),
    )
  dispatcher = await signInAs('dispatch@bluelagoon.test')
})

describe('The week board by weight', () => {
  it.each([
    ['the first page of technicians', '/app/schedule'],
    ['the second page of technicians', '/app/schedule?page=2'],
  ])(
    `sends ${FIXED_BYTES} bytes and ${GZIP_BYTES_PER_VISIT} a visit shown at most (${BYTES_PER_VISIT} uncompressed), for %s`,
    async (_, path) => {
      const page = await pageWeight(handler, TEST_ORIGIN, path, dispatcher)
      const shown = page.html.match(/href="\/app\/visits\//g)?.length ?? 0
      const [{ unassigned = 0 } = {}] = await db()
        .select({ unassigned: sql<number>`count(*)::int` })
        .from(visits)
        .where(and(sql`${visits.technicianId} is null`, sql`${visits.customerName} like 'Weighed Customer %'`))
      // The page draws its own technicians' visits and every unassigned one.
      expect(shown).toBeGreaterThanOrEqual(unassigned + VISITS_EACH * BOARD_TECHNICIANS_PER_PAGE * 0.8)
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
