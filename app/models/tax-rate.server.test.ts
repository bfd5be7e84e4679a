// Tax rates against the database (issue 31 item 9; docs/billing.md, "Tax"; docs/decisions/052-tax-rates.md): the
// migration turns each company's single rate into its default, invoices are taxed per rate of the location the work
// was done at, a rate changed later never changes an invoice already made, draft edits recompute the same way, and
// the balance stays invoices − payments + refunds to the cent.
import { readFileSync } from 'node:fs'
import { and, asc, eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import {
  companies,
  customers,
  invoiceLines,
  invoices,
  serviceLocations,
  servicePlans,
  taxRates,
  visits,
} from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { balanceCentsOf } from './balance.server'
import { createInvoices } from './invoice-create.server'
import { addDraftDiscount, addDraftLine, removeDraftLine } from './invoice-draft-edit.server'
import { sendInvoices } from './invoice-send.server'
import { recordPayment } from './payment.server'
import { updateServiceLocation } from './service-location.server'
import {
  addTaxRate,
  listTaxRates,
  makeDefaultTaxRate,
  removeTaxRate,
  setLocationTaxRate,
  TAX_RATE_MESSAGES,
  updateTaxRate,
} from './tax-rate.server'

const OCTOBER = monthOf('2026-10-01')
const OCTOBER_MONDAYS = ['2026-10-05', '2026-10-12', '2026-10-19', '2026-10-26']

const suffix = () => Math.random().toString(36).slice(2, 8)

async function newCompany(name: string, taxRateMilliPercent = 0) {
  const [company] = await db()
    .insert(companies)
    .values({ name: `${name} ${suffix()}`, timezone: 'America/New_York', taxRateMilliPercent, nextInvoiceNumber: 2 })
    .returning()
  if (!company) throw new Error('no company')
  return company.id
}

/** A per-visit plan on Mondays at the location, every October Monday's visit completed. */
async function planAt(
  companyId: string,
  customer: { id: string; name: string },
  locationId: string,
  rateCents: number,
) {
  const [plan] = await db()
    .insert(servicePlans)
    .values({ companyId, locationId, weekday: 1, startsOn: '2026-09-07', rateCents, rateType: 'per-visit' })
    .returning({ id: servicePlans.id })
  if (!plan) throw new Error('no plan')
  await db()
    .insert(visits)
    .values(
      OCTOBER_MONDAYS.map((date) => ({
        companyId,
        customerId: customer.id,
        locationId,
        customerName: customer.name,
        address: 'Somewhere',
        planId: plan.id,
        occurrenceDate: date,
        scheduledAt: new Date(`${date}T14:00:00Z`),
        completedAt: new Date(`${date}T15:00:00Z`),
      })),
    )
}

/** A customer with a pool in the city and one in the county, each billed per visit for October. */
async function twoPoolCustomer(companyId: string, cityRate: number, countyRate: number) {
  const name = `Two Pools ${suffix()}`
  const customer = await addTestCustomer(companyId, { customerName: name, address: '12 Palm Ave, Tampa, FL 33606' })
  const [county] = await db()
    .insert(serviceLocations)
    .values({ companyId, customerId: customer.id, street: '4 Bay Rd', city: 'Brandon', state: 'FL', position: 1 })
    .returning({ id: serviceLocations.id })
  if (!county) throw new Error('no location')
  await planAt(companyId, { id: customer.id, name }, customer.locationId, cityRate)
  await planAt(companyId, { id: customer.id, name }, county.id, countyRate)
  return { customerId: customer.id, cityId: customer.locationId, countyId: county.id }
}

async function linesOf(invoiceId: string) {
  return db()
    .select({
      id: invoiceLines.id,
      kind: invoiceLines.kind,
      description: invoiceLines.description,
      amountCents: invoiceLines.amountCents,
      locationId: invoiceLines.locationId,
      taxMilliPercent: invoiceLines.taxMilliPercent,
    })
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoiceId))
    .orderBy(asc(invoiceLines.position))
}

async function invoiceOf(companyId: string, customerId: string) {
  const [row] = await db()
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.customerId, customerId)))
  if (!row) throw new Error('no invoice')
  return row
}

const roundHalfUp = (base: number, milliPercent: number) => Math.floor((2 * base * milliPercent + 100_000) / 200_000)

describe('the migration', () => {
  it('makes a company\'s single rate its default "Sales tax" and leaves issued invoices as they were', async () => {
    const companyId = await newCompany('Old Rate Pools', 7250)
    const other = await newCompany('No Tax Pools', 0)
    const customer = await addTestCustomer(companyId, { customerName: 'Old Invoice', address: '1 Old Rd, Tampa, FL' })
    // An invoice issued before the migration, with its single "Tax (7.25%)" line.
    const [issued] = await db()
      .insert(invoices)
      .values({
        companyId,
        customerId: customer.id,
        number: 1,
        periodStart: '2026-09-01',
        periodEnd: '2026-09-30',
        state: 'sent',
        issuedOn: '2026-10-01',
        dueOn: '2026-10-16',
        subtotalCents: 16000,
        taxCents: 1160,
        totalCents: 17160,
      })
      .returning()
    if (!issued) throw new Error('no invoice')
    await db()
      .insert(invoiceLines)
      .values([
        {
          companyId,
          invoiceId: issued.id,
          position: 1,
          kind: 'monthly',
          description: 'Monthly pool service',
          quantity: '1',
          unitCents: 16000,
          amountCents: 16000,
        },
        {
          companyId,
          invoiceId: issued.id,
          position: 2,
          kind: 'tax',
          description: 'Tax (7.25%)',
          quantity: '1',
          unitCents: 1160,
          amountCents: 1160,
        },
      ])
    const before = await linesOf(issued.id)
    // The migration's own statement, limited to these two companies (the others here were made after it ran).
    const migration = readFileSync('drizzle/0037_tax_rates.sql', 'utf8')
    const insert = migration.slice(migration.indexOf('INSERT INTO "tax_rates"')).trim().replace(/;$/, '')
    await db().execute(sql.raw(`${insert} AND "id" IN ('${companyId}', '${other}')`))
    expect(await listTaxRates(companyId)).toEqual([
      { id: expect.any(String), name: 'Sales tax', milliPercent: 7250, isDefault: true, usedBy: [], usedByCount: 0 },
    ])
    expect(await listTaxRates(other)).toEqual([])
    expect(await linesOf(issued.id)).toEqual(before)
    expect(await invoiceOf(companyId, customer.id)).toMatchObject({
      subtotalCents: 16000,
      taxCents: 1160,
      totalCents: 17160,
    })
    // The next invoice is taxed by the new table, at the same rate: $160.00 × 7.25 % = $11.60.
    await planAt(companyId, { id: customer.id, name: 'Old Invoice' }, customer.locationId, 4000)
    await createInvoices({ companyId, period: OCTOBER })
    const [october] = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.companyId, companyId), eq(invoices.periodStart, OCTOBER.start)))
    expect(october).toMatchObject({ subtotalCents: 16000, taxCents: 1160, totalCents: 17160 })
    expect((await linesOf(october?.id ?? '')).filter((l) => l.kind === 'tax').map((l) => l.description)).toEqual([
      'Sales tax 7.25 %',
    ])
  })
})

describe('an invoice over pools under two rates', () => {
  it('has one tax line per rate on its own pools, kept when the rate changes later', async () => {
    const companyId = await newCompany('Two Rate Pools')
    const tampa = await addTaxRate(companyId, { name: 'Tampa', milliPercent: 7500 })
    const county = await addTaxRate(companyId, { name: 'Hillsborough County', milliPercent: 8500 })
    if (!tampa.ok || !county.ok) throw new Error('no rates')
    // $43.33 × 4 in the city, $55.55 × 4 in the county.
    const a = await twoPoolCustomer(companyId, 4333, 5555)
    expect((await setLocationTaxRate(companyId, a.countyId, county.id)).ok).toBe(true)
    await createInvoices({ companyId, period: OCTOBER })
    const invoice = await invoiceOf(companyId, a.customerId)
    const taxes = (await linesOf(invoice.id)).filter((l) => l.kind === 'tax')
    // $173.32 × 7.5 % = $12.999 → $13.00; $222.20 × 8.5 % = $18.887 → $18.89.
    expect(taxes.map((l) => [l.description, l.amountCents, l.taxMilliPercent]).sort()).toEqual([
      ['Hillsborough County 8.5 % tax', 1889, 8500],
      ['Tampa 7.5 % tax', 1300, 7500],
    ])
    expect(invoice).toMatchObject({ subtotalCents: 17332 + 22220, taxCents: 3189, totalCents: 17332 + 22220 + 3189 })
    await sendInvoices({ companyId, period: OCTOBER })
    // The county's rate goes up: the sent invoice keeps its lines and totals.
    expect((await updateTaxRate(companyId, county.id, { name: 'County', milliPercent: 9000 })).ok).toBe(true)
    expect((await linesOf(invoice.id)).filter((l) => l.kind === 'tax').map((l) => l.amountCents)).toEqual(
      taxes.map((l) => l.amountCents),
    )
    expect((await invoiceOf(companyId, a.customerId)).totalCents).toBe(invoice.totalCents)
  })

  it('recomputes each rate when a draft is edited, and the balance stays exact (any edits and payments)', async () => {
    const companyId = await newCompany('Draft Rate Pools')
    const tampa = await addTaxRate(companyId, { name: 'Tampa', milliPercent: 7500 })
    const county = await addTaxRate(companyId, { name: 'Hillsborough County', milliPercent: 8875 })
    if (!tampa.ok || !county.ok) throw new Error('no rates')
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ add: fc.integer({ min: 1, max: 50_000 }), quantity: fc.constantFrom('1', '2.5', '0.33') }),
            fc.record({ discount: fc.integer({ min: 1, max: 3_000 }) }),
            fc.record({ remove: fc.nat() }),
          ),
          { maxLength: 5 },
        ),
        fc.array(fc.integer({ min: 1, max: 20_000 }), { maxLength: 3 }),
        async (edits, paid) => {
          const a = await twoPoolCustomer(companyId, 4000, 6000)
          await setLocationTaxRate(companyId, a.countyId, county.id)
          await createInvoices({ companyId, period: OCTOBER })
          const draft = await invoiceOf(companyId, a.customerId)
          for (const edit of edits) {
            if ('add' in edit) {
              await addDraftLine({
                companyId,
                invoiceId: draft.id,
                fields: {
                  description: 'Repair part',
                  quantity: edit.quantity,
                  unitCents: edit.add,
                  inventoryItemId: null,
                },
              })
            } else if ('discount' in edit) {
              await addDraftDiscount({
                companyId,
                invoiceId: draft.id,
                description: 'Discount',
                amountCents: edit.discount,
              })
            } else {
              const removable = (await linesOf(draft.id)).filter((l) => l.kind !== 'tax')
              const line = removable[edit.remove % Math.max(1, removable.length)]
              if (line) await removeDraftLine({ companyId, invoiceId: draft.id, lineId: line.id })
            }
          }
          const lines = await linesOf(draft.id)
          const taxable = lines.filter((l) => l.kind !== 'tax')
          // Both pools use different rates, so a line of no location goes with the default (Tampa).
          const located = new Set(taxable.filter((l) => l.locationId).map((l) => l.locationId))
          const countyOnly = located.size === 1 && located.has(a.countyId)
          const inCounty = (l: (typeof taxable)[number]) => l.locationId === a.countyId || (!l.locationId && countyOnly)
          const base = (rows: typeof taxable) => rows.reduce((sum, l) => sum + l.amountCents, 0)
          const expected = [
            { rate: 7500, base: base(taxable.filter((l) => !inCounty(l))) },
            { rate: 8875, base: base(taxable.filter(inCounty)) },
          ]
            .filter((g) => g.base > 0)
            .map((g) => roundHalfUp(g.base, g.rate))
            .filter((cents) => cents > 0)
          const taxes = lines.filter((l) => l.kind === 'tax')
          expect(taxes.map((l) => l.amountCents).sort()).toEqual(expected.sort())
          const invoice = await invoiceOf(companyId, a.customerId)
          expect(invoice.subtotalCents).toBe(base(taxable))
          expect(invoice.taxCents).toBe(base(taxes))
          expect(invoice.totalCents).toBe(invoice.subtotalCents + invoice.taxCents)
          await sendInvoices({ companyId, invoiceIds: [draft.id] })
          let payments = 0
          for (const cents of paid) {
            const payment = await recordPayment({
              companyId,
              customerId: a.customerId,
              invoiceId: null,
              amountCents: cents,
              receivedOn: '2026-11-02',
              method: 'cash',
              reference: null,
              recordedBy: null,
            })
            if (payment.ok) payments += cents
          }
          const [row] = await db()
            .select({ balance: balanceCentsOf(sql`"customers"."company_id"`, sql`"customers"."id"`) })
            .from(customers)
            .where(eq(customers.id, a.customerId))
          expect(row?.balance).toBe(invoice.totalCents - payments)
        },
      ),
      { numRuns: 8 },
    )
  })
})

describe('Settings → "Tax rates"', () => {
  it("keeps one default, refuses to remove a rate in use (naming where), and finds no other company's rate", async () => {
    const companyId = await newCompany('Settings Rate Pools')
    const stranger = await newCompany('Stranger Pools')
    const first = await addTaxRate(companyId, { name: 'Tampa', milliPercent: 7500 })
    const second = await addTaxRate(companyId, { name: 'County', milliPercent: 8500 })
    if (!first.ok || !second.ok) throw new Error('no rates')
    expect((await listTaxRates(companyId)).map((r) => [r.name, r.isDefault])).toEqual([
      ['Tampa', true],
      ['County', false],
    ])
    expect(await addTaxRate(companyId, { name: 'tampa', milliPercent: 1000 })).toMatchObject({
      ok: false,
      message: TAX_RATE_MESSAGES.nameTaken,
    })
    await Promise.all([makeDefaultTaxRate(companyId, second.id), makeDefaultTaxRate(companyId, first.id)])
    expect((await listTaxRates(companyId)).filter((r) => r.isDefault)).toHaveLength(1)
    const a = await twoPoolCustomer(companyId, 4000, 4000)
    await setLocationTaxRate(companyId, a.countyId, second.id)
    const refused = await removeTaxRate(companyId, second.id)
    expect(refused).toMatchObject({ ok: false, code: 'conflict' })
    expect(refused.ok ? '' : refused.message).toContain('4 Bay Rd')
    expect(await db().select().from(taxRates).where(eq(taxRates.id, second.id))).toHaveLength(1)
    // Another company cannot see, change, remove or use the rate.
    expect(await updateTaxRate(stranger, second.id, { name: 'Mine', milliPercent: 0 })).toMatchObject({
      code: 'not-found',
    })
    expect(await removeTaxRate(stranger, first.id)).toMatchObject({ code: 'not-found' })
    expect(await makeDefaultTaxRate(stranger, first.id)).toMatchObject({ code: 'not-found' })
    expect(await setLocationTaxRate(stranger, a.cityId, null)).toMatchObject({ code: 'not-found' })
    const strangerCustomer = await addTestCustomer(stranger, {
      customerName: 'Stranger',
      address: '9 Far Rd, Miami, FL',
    })
    expect(await setLocationTaxRate(stranger, strangerCustomer.locationId, second.id)).toMatchObject({ ok: false })
    // The location form: another company's rate is refused at its field; blank is the company default.
    const form = { street: '4 Bay Rd', city: 'Brandon', state: 'FL', dogOnSite: false }
    const foreign = await addTaxRate(stranger, { name: 'Far', milliPercent: 6000 })
    if (!foreign.ok) throw new Error('no rate')
    expect(
      await updateServiceLocation({ companyId, locationId: a.countyId, input: { ...form, taxRateId: foreign.id } }),
    ).toMatchObject({ ok: false, field: 'taxRateId' })
    expect(
      (await updateServiceLocation({ companyId, locationId: a.countyId, input: { ...form, taxRateId: first.id } })).ok,
    ).toBe(true)
    expect((await listTaxRates(companyId)).find((r) => r.id === first.id)?.usedBy).toEqual([
      expect.stringContaining('4 Bay Rd'),
    ])
    expect(
      (await updateServiceLocation({ companyId, locationId: a.countyId, input: { ...form, taxRateId: '' } })).ok,
    ).toBe(true)
    // Back to the default, the rate can go.
    await setLocationTaxRate(companyId, a.countyId, null)
    expect((await removeTaxRate(companyId, second.id)).ok).toBe(true)
    expect((await listTaxRates(companyId)).map((r) => r.name)).toEqual(['Tampa'])
  })

  it('a location saved while its rate is removed: the removal is refused or the location told, never a 500', async () => {
    const companyId = await newCompany('Racing Rate Pools')
    const a = await twoPoolCustomer(companyId, 4000, 4000)
    const form = { street: '4 Bay Rd', city: 'Brandon', state: 'FL', dogOnSite: false }
    // On PostgreSQL the two run at once on two connections; each round ends in one of the two consistent states.
    for (let round = 0; round < 12; round++) {
      const rate = await addTaxRate(companyId, { name: `Race ${round}`, milliPercent: 7000 })
      if (!rate.ok) throw new Error('no rate')
      const [saved, removed] = await Promise.all([
        updateServiceLocation({ companyId, locationId: a.countyId, input: { ...form, taxRateId: rate.id } }),
        removeTaxRate(companyId, rate.id),
      ])
      const [location] = await db()
        .select({ taxRateId: serviceLocations.taxRateId })
        .from(serviceLocations)
        .where(eq(serviceLocations.id, a.countyId))
      if (removed.ok) {
        expect(saved).toMatchObject({ ok: false, field: 'taxRateId', message: expect.any(String) })
        expect(location?.taxRateId).toBeNull()
      } else {
        expect(removed).toMatchObject({ code: 'conflict' })
        expect(saved.ok).toBe(true)
        expect(location?.taxRateId).toBe(rate.id)
        await setLocationTaxRate(companyId, a.countyId, null)
      }
    }
  })
})
