// "Profit per pool" as the office opens it: the last full month by default, the period and order from the address, a pool of
// our own found with its figures, a 400 that keeps what was typed for a period that is not one, the CSV with the
// same rows in the same order, and nobody but owners and admins (the permission matrix walks every persona).
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, inventoryItems, profiles, visitChemicalAdditions, visits } from '~/db/schema'
import { lastMonth } from '~/features/reports/report-period'
import { addDays, instantAt, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../../tests/helpers/customers'
import { pageRequest, routeArgs, settle } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader as csvLoader } from '../resources/profit-report-csv'
import { loader } from './profit-report'

type Page = {
  ok: boolean
  message?: string
  from: string
  to: string
  sort: string
  dir: string
  total: number
  rows: Array<{
    customerName: string
    chemicalCostCents: number
    laborCostCents: number
    visits: number
    minutesOnSite: number
    invoiced: boolean
    marginCents: number | null
  }>
}

async function page(cookie: string, path: string) {
  const value = (await loader(routeArgs(pageRequest(path, cookie)))) as unknown
  const wrapped = value as { data?: Page; init?: { status?: number } }
  return wrapped.data ? { ...wrapped.data, status: wrapped.init?.status ?? 200 } : { ...(value as Page), status: 200 }
}

let owner: string
let admin: string
let today: string

beforeAll(async () => {
  await useDemoData()
  ;[owner, admin] = await Promise.all([signInAs('owner@bluelagoon.test'), signInAs('office@bluelagoon.test')])
  const [blue] = await db().select().from(companies).where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  const companyId = blue?.id ?? ''
  const zone = blue?.timezone ?? 'America/New_York'
  today = localDateAt(new Date(), zone)
  // A pool of our own: one visit by Tyler ($26.50 an hour in the demo) on the 15th of last month, 30 minutes on site,
  // with 20 bags of calcium chloride ($15.40 a bag to the company): more than any demo pool's month of chemicals.
  const [tyler] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.email, 'tech@bluelagoon.test'))
  const visitAt = instantAt(addDays(lastMonth(today).start, 14), '12:00', zone)
  const customer = await addTestCustomer(companyId, {
    customerName: 'Profit Route Pool',
    address: '88 Report Rd, Tampa, FL',
  })
  const [visit] = await db()
    .insert(visits)
    .values({
      companyId,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: customer.customerName,
      address: customer.address,
      scheduledAt: visitAt,
      completedAt: visitAt,
      technicianId: tyler?.id ?? null,
    })
    .returning({ id: visits.id })
  const [calcium] = await db()
    .select({ id: inventoryItems.id, name: inventoryItems.name })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.sku, 'CAL-CHL-25')))
  await db()
    .insert(visitChemicalAdditions)
    .values({
      companyId,
      visitId: visit?.id ?? '',
      inventoryItemId: calcium?.id ?? null,
      product: 'Calcium',
      quantity: 20,
      unit: 'lb',
    })
})

describe('profit per pool page', () => {
  it('opens on the last full month, most profitable first, with our pool and its figures', async () => {
    const data = await page(owner, '/app/reports/profit')
    const month = lastMonth(today)
    expect(data).toMatchObject({ ok: true, status: 200, from: month.start, to: month.end, sort: 'margin', dir: 'desc' })
    expect(data.total).toBeGreaterThan(10)
    // The demo's visits record chemicals and their technicians have hourly costs: the month is not all $0.00.
    expect(data.rows.some((row) => row.chemicalCostCents > 0 && row.laborCostCents > 0)).toBe(true)
    // By chemical cost, most first, our pool leads: no invoice, so no margin.
    const byCost = await page(owner, '/app/reports/profit?sort=chemicals&dir=desc')
    expect(byCost.rows[0]).toMatchObject({
      customerName: 'Profit Route Pool',
      chemicalCostCents: 20 * 1540,
      // 30 minutes at $26.50 an hour.
      laborCostCents: 1325,
      visits: 1,
      minutesOnSite: 30,
      invoiced: false,
      marginCents: null,
    })
  })

  it('keeps a period that is not one, with what is wrong, and shows no figures (400)', async () => {
    const backwards = await page(admin, '/app/reports/profit?from=2026-11-30&to=2026-11-01')
    expect(backwards).toMatchObject({
      ok: false,
      status: 400,
      message: '“From” must be on or before “To”.',
      from: '2026-11-30',
      to: '2026-11-01',
    })
    const garbled = await page(admin, '/app/reports/profit?from=yesterday')
    expect(garbled).toMatchObject({ ok: false, status: 400, message: 'Enter dates written like 2026-11-01.' })
    // Real calendar dates outside the years of service (the year 9999 was a 500) and an impossible day.
    for (const [from, to] of [
      ['9999-12-01', '9999-12-31'],
      ['1999-12-01', '1999-12-31'],
      ['2026-02-01', '2026-02-30'],
    ]) {
      const far = await page(admin, `/app/reports/profit?from=${from}&to=${to}`)
      expect(far, from).toMatchObject({ ok: false, status: 400, message: 'Enter dates written like 2026-11-01.' })
    }
  })

  it('exports the same rows in the same order as CSV', async () => {
    const month = lastMonth(today)
    const path = `/app/reports/profit?from=${month.start}&to=${month.end}&sort=customer&dir=asc`
    const data = await page(owner, path)
    const response = (await csvLoader(
      routeArgs(pageRequest(path.replace('/profit?', '/profit.csv?'), owner)),
    )) as Response
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="profit-per-pool-${month.start}-to-${month.end}.csv"`,
    )
    const bytes = new Uint8Array(await response.arrayBuffer())
    // A byte order mark first, for Excel (a decoder drops it from the text).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = new TextDecoder().decode(bytes).trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'Location,Customer,Revenue,Chemical cost,Labor cost,Labor basis,Visits,Minutes on site,Margin,Margin %',
    )
    expect(lines.find((line) => line.includes(',Profit Route Pool,'))).toMatch(
      /,Profit Route Pool,No invoice,308\.00,13\.25,estimated from time on site,1,30,,$/,
    )
    expect(lines).toHaveLength(data.total + 1)
    expect(
      lines.slice(1, 1 + Math.min(50, data.rows.length)).map((line) => line.includes(',Profit Route Pool,')),
    ).toEqual(data.rows.map((row) => row.customerName === 'Profit Route Pool'))
  })

  it('answers the CSV of a period that is not one with a plain 400', async () => {
    const response = (await csvLoader(
      routeArgs(pageRequest('/app/reports/profit.csv?from=2026-01-01&to=2027-06-01', owner)),
    )) as Response
    expect(response.status).toBe(400)
    expect(await response.text()).toBe('Choose a period of a year or less.')
    const far = (await csvLoader(
      routeArgs(pageRequest('/app/reports/profit.csv?from=9999-12-01&to=9999-12-31', owner)),
    )) as Response
    expect(far.status).toBe(400)
    expect(await far.text()).toBe('Enter dates written like 2026-11-01.')
  })

  it('is not for dispatchers or technicians', async () => {
    for (const email of ['dispatch@bluelagoon.test', 'tech@bluelagoon.test']) {
      const cookie = await signInAs(email)
      const result = await settle(loader(routeArgs(pageRequest('/app/reports/profit', cookie))))
      expect((result.thrown as { init?: { status?: number } })?.init?.status, email).toBe(403)
    }
  })
})
