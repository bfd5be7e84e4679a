// Work orders against the database (issue 33 items 4 and 6; docs/work-orders.md): made once from an approved quote
// (twice, or at once, is one), its visits ordinary visits; parts used take stock and are refused below zero; complete
// only when every visit is done; the invoice made once with the deposit credited and every amount exact — and a
// property over random lines and deposits: total = sum of lines, amount due = total − deposits.
import { and, eq } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import { lineAmountCents } from '~/billing/line-math'
import {
  bodiesOfWater,
  companies,
  equipment,
  inventoryItems,
  invoiceLines,
  invoices,
  payments,
  priceBookItems,
  quotes,
  taxRates,
  visits,
  workOrderVisits,
} from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { loadWorkOrderPage } from '~/features/work-orders/work-order-page.server'
import { addDays, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { creditsByCustomer } from './customer-credit.server'
import { listInvoices } from './invoice-list.server'
import { getQuote } from './quote.server'
import { createQuote } from './quote-create.server'
import { markQuoteApproved } from './quote-decision.server'
import { addQuoteLine } from './quote-edits.server'
import { sendQuote } from './quote-send.server'
import { cancelVisit } from './visit.server'
import { createVisit } from './visit-changes.server'
import { completeWorkOrder, createWorkOrder, recordPartUsed, WORK_ORDER_MESSAGES } from './work-order.server'
import { createWorkOrderInvoice, recordQuoteDeposit } from './work-order-invoice.server'
import { getWorkOrder, listWorkOrders } from './work-order-read.server'

const TZ = 'America/New_York'
const today = () => localDateAt(new Date(), TZ)
let seq = 0

type Line = {
  description: string
  cents: number
  hundredths?: number
  optional?: boolean
  taxable?: boolean
  part?: boolean
}

/** A company with a 7.5 % default rate, an owner, two technicians, a customer, a stocked part and an approved quote. */
async function approvedQuote(lines: Line[], { tick = true, stock = 5 } = {}) {
  seq += 1
  const [company] = await db()
    .insert(companies)
    .values({ name: `WO Pools ${seq}`, timezone: TZ })
    .returning()
  if (!company) throw new Error('no company')
  const companyId = company.id
  await db().insert(taxRates).values({ companyId, name: 'Sales tax', milliPercent: 7500, isDefault: true })
  const owner = await createDemoLogin(db(), {
    email: `owner-${companyId}@example.test`,
    fullName: 'Olive Owner',
    role: 'owner',
    companyId,
  })
  const techs = await Promise.all(
    ['Tyler Brooks', 'Maya Chen'].map((fullName, i) =>
      createDemoLogin(db(), { email: `tech${i}-${companyId}@example.test`, fullName, role: 'tech', companyId }),
    ),
  )
  const customer = await addTestCustomer(companyId, {
    customerName: 'Wendy Order',
    address: '7 Repair Rd, Tampa, FL 33606',
    email: `wendy-${seq}@example.test`,
  })
  const [item] = await db()
    .insert(inventoryItems)
    .values({ companyId, name: 'Pump seal', sku: `SEAL-${seq}`, qty: stock, priceCents: 2_500, costCents: 1_000 })
    .returning()
  const [extra] = await db()
    .insert(inventoryItems)
    .values({ companyId, name: 'O-ring', sku: `ORING-${seq}`, qty: 10, priceCents: 399, costCents: 100 })
    .returning()
  if (!item || !extra) throw new Error('no items')
  const [book] = await db()
    .insert(priceBookItems)
    .values({
      companyId,
      name: 'Pump seal',
      kind: 'part',
      priceCents: 3_000,
      costCents: 1_200,
      inventoryItemId: item.id,
    })
    .returning()
  const created = await createQuote({ companyId, customerId: customer.id, today: today() })
  if (!created.ok || !book) throw new Error('no quote')
  const quoteId = created.quote.id
  for (const line of lines) {
    const added = await addQuoteLine(companyId, quoteId, {
      description: line.description,
      quantityHundredths: line.hundredths ?? 100,
      unitPriceCents: line.cents,
      priceBookItemId: line.part ? book.id : null,
      optional: line.optional ?? false,
      taxable: line.taxable ?? true,
    })
    if (!added.ok) throw new Error(added.message)
  }
  const sent = await sendQuote(companyId, quoteId)
  if (!sent.ok) throw new Error(sent.message)
  const quote = await getQuote({ companyId, quoteId, today: today() })
  const ticked = tick ? (quote?.version.lines.filter((l) => l.optional).map((l) => l.id) ?? []) : []
  const approved = await markQuoteApproved({
    companyId,
    quoteId,
    approvedBy: 'Wendy Order',
    method: 'phone',
    approvedAt: new Date(),
    recordedBy: owner,
    tickedLineIds: ticked,
    today: today(),
  })
  if (!approved.ok) throw new Error(approved.message)
  return { companyId, owner, techs, customerId: customer.id, quoteId, itemId: item.id, extraId: extra.id, approved }
}

const newOrder = (f: { companyId: string; quoteId: string; techs: string[]; owner: string }, visitCount = 2) => ({
  companyId: f.companyId,
  quoteId: f.quoteId,
  template: null,
  startDate: today(),
  visitCount,
  technicianIds: f.techs,
  timezone: TZ,
  createdBy: f.owner,
})

const STANDARD: Line[] = [
  { description: 'Labor: replace seal', cents: 15_000, taxable: false },
  { description: 'Pump seal', cents: 3_000, part: true },
  { description: 'Filter clean', cents: 4_500, optional: true },
  { description: 'LED light', cents: 30_000, optional: true, part: true },
]

describe('work orders', () => {
  it('is made once from an approved quote, twice or at once, with its visits as ordinary visits', async () => {
    const f = await approvedQuote(STANDARD)
    const [a, b] = await Promise.all([createWorkOrder(newOrder(f)), createWorkOrder(newOrder(f))])
    if (!a?.ok || !b?.ok) throw new Error('not created')
    expect(a.workOrderId).toBe(b.workOrderId)
    expect([a.created, b.created].sort()).toEqual([false, true])
    const again = await createWorkOrder(newOrder(f, 5))
    expect(again).toMatchObject({ ok: true, workOrderId: a.workOrderId, created: false })
    const order = await getWorkOrder(f.companyId, a.workOrderId)
    expect(order?.numberLabel).toBe('WO-0001')
    expect(order?.visits.map((v) => [v.position, v.technicianId, v.state])).toEqual([
      [1, f.techs[0], 'open'],
      [2, f.techs[1], 'open'],
    ])
    const createdVisits = await db().select().from(visits).where(eq(visits.companyId, f.companyId))
    expect(createdVisits).toHaveLength(2)
    expect(new Set(createdVisits.map((j) => j.customerId))).toEqual(new Set([f.customerId]))
    // The parts list: the required part and the ticked optional part, not labor.
    expect(order?.parts.map((p) => p.description)).toEqual(['Pump seal', 'LED light'])
    // Another company sees nothing.
    const other = await approvedQuote(STANDARD)
    expect(await getWorkOrder(other.companyId, a.workOrderId)).toBeNull()
    expect((await listWorkOrders({ companyId: f.companyId, state: 'open' })).workOrders).toHaveLength(1)
    expect((await listWorkOrders({ companyId: f.companyId, state: 'completed' })).workOrders).toHaveLength(0)
  })

  it('says what equipment it is for, and "Under warranty" when it was made within the warranty', async () => {
    const f = await approvedQuote(STANDARD)
    const [pool] = await db()
      .select({ id: bodiesOfWater.id })
      .from(bodiesOfWater)
      .where(eq(bodiesOfWater.companyId, f.companyId))
    // Days on the company's calendar: 24 hours ago is still today for an hour on the day clocks go back.
    const until = (days: number) => addDays(localDateAt(new Date(), TZ), days)
    const [pump] = await db()
      .insert(equipment)
      .values({ companyId: f.companyId, bodyOfWaterId: pool?.id ?? '', kind: 'pump', make: 'Pentair', serial: '77' })
      .returning({ id: equipment.id })
    await db().update(quotes).set({ equipmentId: pump?.id }).where(eq(quotes.id, f.quoteId))
    const made = await createWorkOrder(newOrder(f))
    if (!made.ok) throw new Error('not created')
    const member = { id: f.owner, companyId: f.companyId, timezone: TZ, role: 'owner' as const }
    const page = async () => (await loadWorkOrderPage(member, made.workOrderId)).workOrder.equipment
    expect(await page()).toEqual({ id: pump?.id, label: 'Pentair pump (SN 77)', underWarranty: false })
    await db()
      .update(equipment)
      .set({ warrantyUntil: until(30) })
      .where(eq(equipment.id, pump?.id ?? ''))
    expect(await page()).toMatchObject({ underWarranty: true })
    // Judged on the day the work order was made: a warranty that ended the day before does not cover it.
    await db()
      .update(equipment)
      .set({ warrantyUntil: until(-1) })
      .where(eq(equipment.id, pump?.id ?? ''))
    expect(await page()).toMatchObject({ underWarranty: false })
  })

  it('makes a template’s visits on its days, and refuses a quote not approved', async () => {
    const f = await approvedQuote(STANDARD)
    const made = await createWorkOrder({
      ...newOrder(f),
      template: 'green-to-clean',
      technicianIds: [f.techs[0] ?? null],
    })
    if (!made.ok) throw new Error(made.message)
    const order = await getWorkOrder(f.companyId, made.workOrderId)
    expect(order?.visits.map((v) => v.title)).toEqual([
      'Shock and brush',
      'Vacuum and clean filter',
      'Test and balance',
    ])
    const days = order?.visits.map((v) => localDateAt(v.scheduledAt, TZ)) ?? []
    const dayMs = (d: string) => Date.parse(`${d}T12:00:00Z`)
    expect(days.map((d) => (dayMs(d) - dayMs(days[0] ?? '')) / 86_400_000)).toEqual([0, 1, 3])
    const draft = await createQuote({ companyId: f.companyId, customerId: f.customerId, today: today() })
    if (!draft.ok) throw new Error('no draft')
    expect(await createWorkOrder({ ...newOrder(f), quoteId: draft.quote.id })).toMatchObject({
      ok: false,
      message: WORK_ORDER_MESSAGES.notApproved,
    })
  })

  it('records parts used taking stock, refuses below zero, and completes only when every visit is done', async () => {
    const f = await approvedQuote(STANDARD, { stock: 3 })
    const made = await createWorkOrder(newOrder(f))
    if (!made.ok) throw new Error(made.message)
    const order = await getWorkOrder(f.companyId, made.workOrderId)
    const [first, second] = order?.visits ?? []
    if (!first || !second) throw new Error('no visits')
    const use = (quantity: number, visitId = first.visitId) =>
      recordPartUsed({ companyId: f.companyId, visitId, itemId: f.itemId, quantity, recordedBy: f.techs[0] ?? null })
    expect(await use(2)).toMatchObject({ ok: true })
    // Tyler has no truck yet: the part comes from the Warehouse (docs/inventory.md).
    expect(await use(2)).toMatchObject({ ok: false, field: 'quantity', message: 'Only 1 left in the Warehouse.' })
    const [left] = await db().select().from(inventoryItems).where(eq(inventoryItems.id, f.itemId))
    expect(left?.qty).toBe(1)
    const parts = (await getWorkOrder(f.companyId, made.workOrderId))?.partsUsed ?? []
    // Priced from the price book's part for the stock item.
    expect(parts.map((p) => [p.quantity, p.unitPriceCents, p.unitCostCents])).toEqual([[2, 3_000, 1_200]])
    // Not a work order's visit: refused.
    const loose = await createVisit({
      companyId: f.companyId,
      customerId: f.customerId,
      scheduledAt: new Date(),
      technicianId: null,
    })
    expect(await use(1, loose?.id ?? '')).toMatchObject({ ok: false, code: 'not-found' })

    expect(await completeWorkOrder({ companyId: f.companyId, workOrderId: made.workOrderId })).toMatchObject({
      ok: false,
      message: WORK_ORDER_MESSAGES.visitsOpen,
    })
    await db().update(visits).set({ completedAt: new Date() }).where(eq(visits.id, first.visitId))
    expect((await cancelVisit({ companyId: f.companyId, visitId: second.visitId })).ok).toBe(true)
    expect((await completeWorkOrder({ companyId: f.companyId, workOrderId: made.workOrderId })).ok).toBe(true)
    expect((await completeWorkOrder({ companyId: f.companyId, workOrderId: made.workOrderId })).ok).toBe(true)
    expect((await getWorkOrder(f.companyId, made.workOrderId))?.state).toBe('completed')
    expect(await use(1)).toMatchObject({ ok: false, message: WORK_ORDER_MESSAGES.completed })
  })

  it('invoices once: quoted lines, extra parts, tax on taxable lines, the deposit credited', async () => {
    const f = await approvedQuote(STANDARD)
    const deposit = await recordQuoteDeposit({
      companyId: f.companyId,
      quoteId: f.quoteId,
      amountCents: 10_000,
      receivedOn: today(),
      method: 'check',
      reference: '1001',
      recordedBy: f.owner,
    })
    expect(deposit.ok).toBe(true)
    // The same check number again is refused, and the deposit waits for its invoice (never another one's credit).
    const twice = await recordQuoteDeposit({
      companyId: f.companyId,
      quoteId: f.quoteId,
      amountCents: 10_000,
      receivedOn: today(),
      method: 'check',
      reference: '1001',
      recordedBy: f.owner,
    })
    expect(twice).toMatchObject({ ok: false, code: 'conflict' })
    expect((await creditsByCustomer(db(), f.companyId, [f.customerId])).get(f.customerId)).toBeUndefined()

    const made = await createWorkOrder(newOrder(f))
    if (!made.ok) throw new Error(made.message)
    const order = await getWorkOrder(f.companyId, made.workOrderId)
    const visitId = order?.visits[0]?.visitId ?? ''
    // A quoted part (not billed again) and an extra part (billed as its own line).
    await recordPartUsed({ companyId: f.companyId, visitId, itemId: f.itemId, quantity: 1, recordedBy: null })
    await recordPartUsed({ companyId: f.companyId, visitId, itemId: f.extraId, quantity: 3, recordedBy: null })

    const [a, b] = await Promise.all([
      createWorkOrderInvoice({ companyId: f.companyId, workOrderId: made.workOrderId }),
      createWorkOrderInvoice({ companyId: f.companyId, workOrderId: made.workOrderId }),
    ])
    if (!a?.ok || !b?.ok) throw new Error('not invoiced')
    expect(a.invoiceId).toBe(b.invoiceId)
    const [invoice] = await db().select().from(invoices).where(eq(invoices.id, a.invoiceId))
    const lines = await db()
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, a.invoiceId))
      .orderBy(invoiceLines.position)
    expect(lines.map((l) => [l.kind, l.description, l.amountCents])).toEqual([
      ['custom', 'Labor: replace seal', 15_000],
      ['custom', 'Pump seal', 3_000],
      ['custom', 'Filter clean', 4_500],
      ['custom', 'LED light', 30_000],
      ['custom', 'O-ring (part used)', 1_197],
      ['tax', 'Sales tax 7.5 %', 2_902],
    ])
    // Tax on everything but the non-taxable labor: (30.00 + 45.00 + 300.00 + 11.97) × 7.5 % = 29.02275 → $29.02.
    expect(invoice).toMatchObject({ state: 'draft', subtotalCents: 53_697, paidCents: 10_000 })
    expect(invoice?.totalCents).toBe((invoice?.subtotalCents ?? 0) + (invoice?.taxCents ?? 0))
    const [pay] = await db().select().from(payments).where(eq(payments.companyId, f.companyId))
    expect(pay?.invoiceId).toBe(a.invoiceId)
    // Listed in the billing month it was made in, like any invoice (it has no period of its own).
    const listed = await listInvoices({ companyId: f.companyId, today: today(), period: monthOf(today()) })
    expect(listed.invoices.map((row) => row.id)).toEqual([a.invoiceId])
    // A deposit after the invoice belongs on the invoice.
    expect(
      await recordQuoteDeposit({
        companyId: f.companyId,
        quoteId: f.quoteId,
        amountCents: 500,
        receivedOn: today(),
        method: 'cash',
        reference: null,
        recordedBy: f.owner,
      }),
    ).toMatchObject({ ok: false, code: 'conflict' })
  })

  it('property: total = sum of lines and amount due = total − deposits, to the cent', async () => {
    const line = fc.record({
      description: fc.constantFrom('Labor', 'Valve', 'Chlorinator'),
      cents: fc.integer({ min: 0, max: 250_000 }),
      hundredths: fc.integer({ min: 1, max: 1_000 }),
      optional: fc.boolean(),
      taxable: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 50_000 }), { maxLength: 3 }),
        fc.boolean(),
        async (quoteLines, deposits, tick) => {
          const f = await approvedQuote(quoteLines, { tick })
          for (const [i, cents] of deposits.entries()) {
            const paid = await recordQuoteDeposit({
              companyId: f.companyId,
              quoteId: f.quoteId,
              amountCents: cents,
              receivedOn: today(),
              method: 'cash',
              reference: `D-${i}`,
              recordedBy: null,
            })
            expect(paid.ok).toBe(true)
          }
          const made = await createWorkOrder(newOrder(f, 1))
          if (!made.ok) throw new Error(made.message)
          const invoiced = await createWorkOrderInvoice({ companyId: f.companyId, workOrderId: made.workOrderId })
          if (!invoiced.ok) throw new Error(invoiced.message)
          const [invoice] = await db().select().from(invoices).where(eq(invoices.id, invoiced.invoiceId))
          const lines = await db()
            .select()
            .from(invoiceLines)
            .where(and(eq(invoiceLines.companyId, f.companyId), eq(invoiceLines.invoiceId, invoiced.invoiceId)))
          const counted = quoteLines.filter((l) => !l.optional || tick)
          const subtotal = counted.reduce((sum, l) => sum + lineAmountCents(l.hundredths, l.cents), 0)
          const taxBase = counted
            .filter((l) => l.taxable)
            .reduce((s, l) => s + lineAmountCents(l.hundredths, l.cents), 0)
          const tax = taxBase > 0 ? Math.floor((taxBase * 7500) / 100_000 + 0.5) : 0
          const depositSum = deposits.reduce((s, c) => s + c, 0)
          expect(invoice?.subtotalCents).toBe(subtotal)
          expect(invoice?.taxCents).toBe(tax)
          expect(invoice?.totalCents).toBe(lines.reduce((s, l) => s + l.amountCents, 0))
          expect(invoice?.totalCents).toBe(subtotal + tax)
          // What the approval kept is what the invoice bills.
          expect(invoice?.totalCents).toBe(f.approved.totalCents)
          expect(invoice?.paidCents).toBe(depositSum)
          expect((invoice?.totalCents ?? 0) - (invoice?.paidCents ?? 0)).toBe(subtotal + tax - depositSum)
          const visits = await db().select().from(workOrderVisits).where(eq(workOrderVisits.companyId, f.companyId))
          expect(visits).toHaveLength(1)
        },
      ),
      { numRuns: 8 },
    )
  })
})
