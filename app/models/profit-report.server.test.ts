// "Profit per pool" against the database, on a company built for it so every figure is known to the cent: a pool
// billed per visit plus chemicals (its November invoice created the way the office creates it), a pool with only a
// one-off visit near midnight (the company's timezone decides its day), a pool billed in October only, a pool with a
// void invoice and a draft, and another company's pool on the same dates. Then every column sorts both ways, pages
// without losing a row, and the totals cover every row.
import { eq } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import {
  companies,
  inventoryItems,
  invoiceLines,
  invoices,
  profiles,
  serviceLocations,
  servicePlans,
  visitChemicalAdditions,
  visits,
} from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { db } from '~/utils/db.server'
import { addTestCustomer, type TestCustomer } from '../../tests/helpers/customers'
import { createInvoices } from './invoice-create.server'
import { PROFIT_SORTS } from './profit-order'
import { marginPercentOf, profitReportPage, profitReportRows } from './profit-report.server'

const NOVEMBER = monthOf('2026-11-01')
const OCTOBER = monthOf('2026-10-01')
const TIMEZONE = 'America/New_York'

let companyId: string
let otherCompanyId: string
const pools: Record<'perVisit' | 'oneOff' | 'october' | 'drafts', TestCustomer> = {} as never

async function newCompany(name: string) {
  const [company] = await db().insert(companies).values({ name, timezone: TIMEZONE }).returning()
  if (!company) throw new Error('no company')
  return company.id
}

async function item(company: string, sku: string, priceCents: number, costCents: number) {
  const [row] = await db()
    .insert(inventoryItems)
    .values({ companyId: company, name: `Item ${sku}`, sku, qty: 100, priceCents, costCents })
    .returning({ id: inventoryItems.id, name: inventoryItems.name })
  if (!row) throw new Error('no item')
  return row
}

async function visit(
  company: string,
  customer: TestCustomer,
  at: string,
  fields: {
    planId?: string
    occurrenceDate?: string
    completed?: boolean
    canceled?: boolean
    technicianId?: string
  } = {},
) {
  const [row] = await db()
    .insert(visits)
    .values({
      companyId: company,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: customer.customerName,
      address: customer.address,
      planId: fields.planId ?? null,
      occurrenceDate: fields.occurrenceDate ?? null,
      scheduledAt: new Date(at),
      completedAt: fields.completed === false || fields.canceled ? null : new Date(at),
      canceledAt: fields.canceled ? new Date(at) : null,
      skipReason: fields.canceled ? 'Gate locked' : null,
      technicianId: fields.technicianId ?? null,
    })
    .returning({ id: visits.id })
  if (!row) throw new Error('no visit')
  return row.id
}

async function added(company: string, visitId: string, quantity: number, stock: { id: string; name: string } | null) {
  await db()
    .insert(visitChemicalAdditions)
    .values({
      companyId: company,
      visitId,
      inventoryItemId: stock?.id ?? null,
      product: stock?.name ?? 'Hand-typed shock',
      quantity,
      unit: 'gal',
    })
}

/** An invoice written as it stands (state and lines), for the cases "Create invoices" does not make by itself. */
async function invoiceWith(
  company: string,
  customer: TestCustomer,
  number: number,
  state: 'draft' | 'sent' | 'void',
  period: { start: string; end: string },
  lines: { amountCents: number; locationId: string | null }[],
) {
  const total = lines.reduce((sum, line) => sum + line.amountCents, 0)
  const [row] = await db()
    .insert(invoices)
    .values({
      companyId: company,
      customerId: customer.id,
      number,
      state,
      periodStart: period.start,
      periodEnd: period.end,
      issuedOn: state === 'draft' ? null : period.end,
      dueOn: state === 'draft' ? null : period.end,
      subtotalCents: total,
      totalCents: total,
    })
    .returning({ id: invoices.id })
  await db()
    .insert(invoiceLines)
    .values(
      lines.map((line, i) => ({
        companyId: company,
        invoiceId: row?.id ?? '',
        position: i + 1,
        kind: line.locationId ? ('visits' as const) : ('tax' as const),
        description: line.locationId ? 'Pool service' : 'Tax',
        quantity: '1',
        unitCents: line.amountCents,
        amountCents: line.amountCents,
        locationId: line.locationId,
      })),
    )
}

beforeAll(async () => {
  companyId = await newCompany('Profit Pools')
  otherCompanyId = await newCompany('Other Profit Pools')
  // Tyler costs $26.50 an hour; Quinn has no hourly cost set.
  const tyler = await createDemoLogin(db(), {
    email: 'tyler@profit-pools.test',
    fullName: 'Tyler Profit',
    role: 'tech',
    companyId,
  })
  await db().update(profiles).set({ hourlyCostCents: 2650 }).where(eq(profiles.id, tyler))
  const quinn = await createDemoLogin(db(), {
    email: 'quinn@profit-pools.test',
    fullName: 'Quinn Nocost',
    role: 'tech',
    companyId,
  })
  const liquid = await item(companyId, 'LIQ', 699, 389)
  const calcium = await item(companyId, 'CAL', 2699, 1540)

  // 1. Billed per visit plus chemicals, 45 minutes on site: four Mondays done, one skipped, one still open.
  pools.perVisit = await addTestCustomer(companyId, {
    customerName: 'Per Visit Pat',
    address: '1 Margin Way, Tampa, FL',
  })
  await db()
    .update(serviceLocations)
    .set({ minutesOnSite: 45 })
    .where(eq(serviceLocations.id, pools.perVisit.locationId))
  const [plan] = await db()
    .insert(servicePlans)
    .values({
      companyId,
      locationId: pools.perVisit.locationId,
      weekday: 1,
      startsOn: '2026-09-07',
      rateCents: 4000,
      rateType: 'per-visit-plus-chemicals',
    })
    .returning({ id: servicePlans.id })
  const planId = plan?.id ?? ''
  const mondays = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23']
  const done: string[] = []
  for (const date of mondays)
    done.push(
      await visit(companyId, pools.perVisit, `${date}T15:00:00Z`, {
        planId,
        occurrenceDate: date,
        technicianId: tyler,
      }),
    )
  await visit(companyId, pools.perVisit, '2026-11-30T15:00:00Z', {
    planId,
    occurrenceDate: '2026-11-30',
    canceled: true,
  })
  const open = await visit(companyId, pools.perVisit, '2026-11-25T15:00:00Z', { completed: false })
  // 2.5 gal at $3.89 = $9.725 → $9.73 (half up); 1.25 gal = $4.8625 → $4.86; a hand-typed product has no cost;
  // chemicals on a visit not yet completed are not counted.
  await added(companyId, done[0] ?? '', 2.5, liquid)
  await added(companyId, done[1] ?? '', 1.25, liquid)
  await added(companyId, done[2] ?? '', 3, null)
  await added(companyId, open, 10, liquid)
  // Its November invoice, as "Create invoices" writes it: 4 × $40 and 3.75 gal × $6.99 = $26.2125 → $26.21.
  const created = await createInvoices({ companyId, period: NOVEMBER })
  expect(created.created).toBe(1)

  // 2. A one-off visit on the evening of 30 November in Tampa (already 1 December in UTC) counts in November; one on
  // the evening of 31 October (1 November in UTC) does not.
  pools.oneOff = await addTestCustomer(companyId, { customerName: 'One-off Olga', address: '2 Margin Way, Tampa, FL' })
  const late = await visit(companyId, pools.oneOff, '2026-12-01T04:30:00Z', { technicianId: quinn })
  await added(companyId, late, 1, calcium)
  const early = await visit(companyId, pools.oneOff, '2026-11-01T03:00:00Z')
  await added(companyId, early, 1, calcium)

  // 3. Billed for October only.
  pools.october = await addTestCustomer(companyId, { customerName: 'October Otto', address: '3 Margin Way, Tampa, FL' })
  await invoiceWith(companyId, pools.october, 50, 'sent', OCTOBER, [
    { amountCents: 12000, locationId: pools.october.locationId },
  ])

  // 4. A void November invoice counts for nothing; a draft counts (the work was done); tax belongs to no pool.
  pools.drafts = await addTestCustomer(companyId, { customerName: 'Draft Dora', address: '4 Margin Way, Tampa, FL' })
  await invoiceWith(companyId, pools.drafts, 51, 'void', NOVEMBER, [
    { amountCents: 10000, locationId: pools.drafts.locationId },
  ])
  await invoiceWith(companyId, pools.drafts, 52, 'draft', NOVEMBER, [
    { amountCents: 5000, locationId: pools.drafts.locationId },
    { amountCents: 363, locationId: null },
  ])

  // Another company on the same dates.
  const stranger = await addTestCustomer(otherCompanyId, {
    customerName: 'Stranger Sam',
    address: '9 Other St, Tampa, FL',
  })
  await invoiceWith(otherCompanyId, stranger, 1, 'sent', NOVEMBER, [
    { amountCents: 99900, locationId: stranger.locationId },
  ])
  await visit(otherCompanyId, stranger, '2026-11-10T15:00:00Z')
})

const november = { companyId: '', timezone: TIMEZONE, from: NOVEMBER.start, to: NOVEMBER.end }
const query = () => ({ ...november, companyId })

describe('profit per pool', () => {
  it('works out each pool of the period to the cent', async () => {
    const { rows } = await profitReportRows({ ...query(), sort: 'location', dir: 'asc' })
    expect(rows.map((row) => row.customerName)).toEqual(['Per Visit Pat', 'One-off Olga', 'Draft Dora'])
    expect(rows[0]).toMatchObject({
      street: '1 Margin Way',
      invoiced: true,
      revenueCents: 4 * 4000 + 2621,
      chemicalCostCents: 973 + 486,
      // 45 min at $26.50 an hour = $19.875 → $19.88 a visit (half up, per visit), four visits.
      laborCostCents: 4 * 1988,
      visits: 4,
      minutesOnSite: 4 * 45,
      laborBasis: 'estimated',
      marginCents: 18621 - 1459 - 7952,
      // 9210 / 18621 = 49.46… %
      marginPercent: 49.5,
    })
    // Visits and no invoice: "No invoice", not a 100 % loss. Quinn has no hourly cost: no labor counted.
    expect(rows[1]).toMatchObject({
      invoiced: false,
      revenueCents: 0,
      chemicalCostCents: 1540,
      laborCostCents: 0,
      visits: 1,
      minutesOnSite: 30,
      marginCents: null,
      marginPercent: null,
    })
    expect(rows[2]).toMatchObject({
      invoiced: true,
      revenueCents: 5000,
      chemicalCostCents: 0,
      laborCostCents: 0,
      visits: 0,
      minutesOnSite: 0,
      marginCents: 5000,
      marginPercent: 100,
    })
  })

  it('adds up every row in the totals', async () => {
    const { totals } = await profitReportPage({ ...query(), size: 1 })
    expect(totals).toEqual({
      revenueCents: 18621 + 5000,
      chemicalCostCents: 1459 + 1540,
      laborCostCents: 7952,
      visits: 5,
      minutesOnSite: 180 + 30,
      // The invoiced pools' margins: 9210 + 5000 (the pool with no invoice has none).
      marginCents: 14210,
      // 14210 / 23621 = 60.15… %
      marginPercent: 60.2,
      visitsWithoutCost: 1,
      // No week is approved: every visit's labor is estimated from the location's minutes on site.
      approvedVisits: 0,
      uninvoiced: 1,
    })
  })

  it('covers the period asked: October has its own pools', async () => {
    const { rows } = await profitReportRows({ ...query(), from: OCTOBER.start, to: OCTOBER.end })
    expect(rows.map((row) => [row.customerName, row.revenueCents, row.chemicalCostCents])).toEqual([
      ['October Otto', 12000, 0],
      ['One-off Olga', 0, 1540],
    ])
    // A single day: only the one-off visit of 30 November (Tampa time).
    const day = await profitReportRows({ ...query(), from: '2026-11-30', to: '2026-11-30' })
    expect(day.rows.map((row) => row.customerName)).toEqual(['One-off Olga'])
  })

  it('sorts by every column, both ways, with rows without a margin % last', async () => {
    const value = {
      location: (row: { street: string }) => row.street,
      customer: (row: { customerName: string }) => row.customerName.toLowerCase(),
      revenue: (row: { revenueCents: number }) => row.revenueCents,
      chemicals: (row: { chemicalCostCents: number }) => row.chemicalCostCents,
      labor: (row: { laborCostCents: number }) => row.laborCostCents,
      visits: (row: { visits: number }) => row.visits,
      minutes: (row: { minutesOnSite: number }) => row.minutesOnSite,
      margin: (row: { marginCents: number | null }) => row.marginCents,
      'margin-percent': (row: { marginPercent: number | null }) => row.marginPercent,
    } as const
    for (const sort of PROFIT_SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const { rows } = await profitReportRows({ ...query(), sort, dir })
        const values = rows.map((row) => (value[sort] as (row: unknown) => string | number | null)(row))
        const present = values.filter((v) => v !== null)
        const sorted = [...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        expect(present, `${sort} ${dir}`).toEqual(dir === 'asc' ? sorted : sorted.reverse())
        expect(
          values.slice(present.length).every((v) => v === null),
          `${sort} ${dir}`,
        ).toBe(true)
      }
    }
    const byMargin = await profitReportRows({ ...query(), sort: 'margin', dir: 'desc' })
    expect(byMargin.rows.map((row) => row.customerName)).toEqual(['Per Visit Pat', 'Draft Dora', 'One-off Olga'])
  })

  it('pages without losing or repeating a row, and answers the last page for a page past the end', async () => {
    const all = (await profitReportRows({ ...query(), sort: 'revenue', dir: 'desc' })).rows.map((row) => row.locationId)
    const first = await profitReportPage({ ...query(), sort: 'revenue', dir: 'desc', size: 2, page: 1 })
    const second = await profitReportPage({ ...query(), sort: 'revenue', dir: 'desc', size: 2, page: 2 })
    expect(first.total).toBe(3)
    expect([...first.rows, ...second.rows].map((row) => row.locationId)).toEqual(all)
    const past = await profitReportPage({ ...query(), sort: 'revenue', dir: 'desc', size: 2, page: 9 })
    expect(past.page).toBe(2)
    expect(past.rows.map((row) => row.locationId)).toEqual(second.rows.map((row) => row.locationId))
  })

  it('is empty for a period with nothing in it, and never shows another company', async () => {
    const empty = await profitReportPage({ ...query(), from: '2025-01-01', to: '2025-01-31', page: 3 })
    expect(empty).toMatchObject({ page: 1, total: 0, rows: [] })
    expect(empty.totals).toMatchObject({ revenueCents: 0, marginPercent: null })
    const other = await profitReportRows({ ...query(), companyId: otherCompanyId })
    expect(other.rows.map((row) => row.customerName)).toEqual(['Stranger Sam'])
    expect(other.rows[0]).toMatchObject({ revenueCents: 99900, visits: 1 })
  })

  it('rounds the margin % half away from zero', () => {
    expect(marginPercentOf(1, 2000)).toBe(0.1)
    expect(marginPercentOf(-1, 2000)).toBe(-0.1)
    expect(marginPercentOf(17162, 18621)).toBe(92.2)
    expect(marginPercentOf(5, 0)).toBeNull()
  })
})

// Property: whatever the visits, technicians' hourly costs, chemicals and unit costs, each pool's chemical and labor
// cost is the sum of its visits' own costs (each rounded half up to the cent), and the totals the sum of the pools.
describe('profit per pool, any visits and costs', () => {
  let propertyCompany: string
  let technicians: string[]
  let places: TestCustomer[]
  let stock: { id: string; name: string }[]

  beforeAll(async () => {
    propertyCompany = await newCompany('Property Pools')
    technicians = []
    for (const n of [1, 2, 3]) {
      technicians.push(
        await createDemoLogin(db(), {
          email: `tech${n}@property-pools.test`,
          fullName: `Tech ${n}`,
          role: 'tech',
          companyId: propertyCompany,
        }),
      )
    }
    places = [
      await addTestCustomer(propertyCompany, { customerName: 'Prop One', address: '1 Prop St, Tampa, FL' }),
      await addTestCustomer(propertyCompany, { customerName: 'Prop Two', address: '2 Prop St, Tampa, FL' }),
    ]
    stock = [await item(propertyCompany, 'P1', 100, 1), await item(propertyCompany, 'P2', 100, 1)]
  })

  /** Half up to the cent, in integers: `numerator / denominator` cents. */
  const halfUp = (numerator: number, denominator: number) =>
    Math.floor((2 * numerator + denominator) / (2 * denominator))

  it('sums each visit to the cent', async () => {
    const visitArb = fc.record({
      place: fc.integer({ min: 0, max: 1 }),
      technician: fc.integer({ min: 0, max: 3 }), // 3: nobody assigned
      day: fc.integer({ min: 1, max: 30 }),
      chemicals: fc.array(
        fc.record({ item: fc.integer({ min: 0, max: 1 }), hundredths: fc.integer({ min: 1, max: 50_000 }) }),
        { maxLength: 3 },
      ),
    })
    const scenario = fc.record({
      hourlyCosts: fc.tuple(
        fc.option(fc.integer({ min: 0, max: 20_000 })),
        fc.option(fc.integer({ min: 0, max: 20_000 })),
        fc.option(fc.integer({ min: 0, max: 20_000 })),
      ),
      minutes: fc.tuple(fc.integer({ min: 1, max: 480 }), fc.integer({ min: 1, max: 480 })),
      unitCosts: fc.tuple(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 50_000 })),
      visits: fc.array(visitArb, { minLength: 1, maxLength: 6 }),
    })
    await fc.assert(
      fc.asyncProperty(scenario, async ({ hourlyCosts, minutes, unitCosts, visits: visitList }) => {
        await db().delete(visits).where(eq(visits.companyId, propertyCompany))
        for (const [n, id] of technicians.entries()) {
          await db()
            .update(profiles)
            .set({ hourlyCostCents: hourlyCosts[n] ?? null })
            .where(eq(profiles.id, id))
        }
        for (const [n, place] of places.entries()) {
          await db()
            .update(serviceLocations)
            .set({ minutesOnSite: minutes[n] })
            .where(eq(serviceLocations.id, place.locationId))
        }
        for (const [n, stocked] of stock.entries()) {
          await db().update(inventoryItems).set({ costCents: unitCosts[n] }).where(eq(inventoryItems.id, stocked.id))
        }
        const expected = places.map(() => ({ labor: 0, chemicals: 0, visits: 0 }))
        for (const v of visitList) {
          const place = places[v.place] as TestCustomer
          const technicianId = technicians[v.technician]
          const day = String(v.day).padStart(2, '0')
          const id = await visit(propertyCompany, place, `2026-11-${day}T15:00:00Z`, { technicianId })
          const sums = expected[v.place] as { labor: number; chemicals: number; visits: number }
          sums.visits += 1
          sums.labor += halfUp((minutes[v.place] as number) * (hourlyCosts[v.technician] ?? 0), 60)
          for (const chemical of v.chemicals) {
            await added(propertyCompany, id, chemical.hundredths / 100, stock[chemical.item] ?? null)
            sums.chemicals += halfUp(chemical.hundredths * (unitCosts[chemical.item] as number), 100)
          }
        }
        const { rows, totals } = await profitReportRows({ ...november, companyId: propertyCompany })
        for (const [n, place] of places.entries()) {
          const row = rows.find((candidate) => candidate.locationId === place.locationId)
          const sums = expected[n] as { labor: number; chemicals: number; visits: number }
          if (sums.visits === 0) {
            expect(row).toBeUndefined()
            continue
          }
          expect(row).toMatchObject({
            laborCostCents: sums.labor,
            chemicalCostCents: sums.chemicals,
            visits: sums.visits,
            invoiced: false,
            marginCents: null,
          })
        }
        expect(totals.laborCostCents).toBe(expected.reduce((sum, e) => sum + e.labor, 0))
        expect(totals.chemicalCostCents).toBe(expected.reduce((sum, e) => sum + e.chemicals, 0))
        expect(totals.visitsWithoutCost).toBe(
          visitList.filter((v) => (hourlyCosts[v.technician] ?? null) === null).length,
        )
      }),
      { numRuns: 15 },
    )
  })
})
