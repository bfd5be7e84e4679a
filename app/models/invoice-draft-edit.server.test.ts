// Editable drafts against the database (issue 31 item 1; docs/billing.md): "Add line" (an inventory item fills the
// price), edit, "Remove line", a discount, "Note for customer"; totals exact to the cent; a sent invoice refused;
// "Re-issue" of a void one with a new number. Then the ledger's property test: any sequence of line changes,
// sends, voids, re-issues, payments and refunds keeps the balance = sent invoices − payments + refunds, to the cent,
// with every invoice's total the sum of its lines and no number reused.
import { and, asc, eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import {
  companies,
  emailOutbox,
  inventoryItems,
  invoiceLines,
  invoices,
  payments,
  refunds,
  servicePlans,
  taxRates,
  visits,
} from '~/db/schema'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { balanceCentsOf } from './balance.server'
import { getInvoice, voidInvoice } from './invoice.server'
import { createInvoices } from './invoice-create.server'
import {
  addDraftDiscount,
  addDraftLine,
  DRAFT_MESSAGES,
  reissueInvoice,
  removeDraftLine,
  setDraftNote,
  updateDraftLine,
} from './invoice-draft-edit.server'
import { sendInvoice } from './invoice-send.server'
import { recordPayment } from './payment.server'
import { applyStripeEvent } from './stripe-event.server'

const NOVEMBER = monthOf('2026-11-01')
const TZ = 'America/New_York'
const today = () => localDateAt(new Date(), TZ)

async function newCompany(name: string, taxRateMilliPercent = 0) {
  const [company] = await db().insert(companies).values({ name, timezone: TZ }).returning()
  if (!company) throw new Error('no company')
  if (taxRateMilliPercent > 0) {
    await db()
      .insert(taxRates)
      .values({ companyId: company.id, name: 'Sales tax', milliPercent: taxRateMilliPercent, isDefault: true })
  }
  return company.id
}

/** A company's customer with one completed $40.00 visit in November, and its November draft (one line). */
async function draftFor(companyId: string, rateCents = 4000, email: string | null = null) {
  const customer = await addTestCustomer(companyId, {
    customerName: 'Draft Test',
    address: '1 Ledger St, Tampa, FL 33606',
    email,
  })
  const [plan] = await db()
    .insert(servicePlans)
    .values({
      companyId,
      locationId: customer.locationId,
      weekday: 1,
      startsOn: '2026-09-07',
      rateCents,
      rateType: 'per-visit',
    })
    .returning({ id: servicePlans.id })
  await db()
    .insert(visits)
    .values({
      companyId,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: customer.customerName,
      address: customer.address,
      planId: plan?.id ?? '',
      occurrenceDate: '2026-11-02',
      scheduledAt: new Date('2026-11-02T14:00:00Z'),
      completedAt: new Date('2026-11-02T15:00:00Z'),
    })
  await createInvoices({ companyId, period: NOVEMBER })
  const [invoice] = await db()
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.customerId, customer.id)))
  if (!invoice) throw new Error('no draft')
  return { customerId: customer.id, invoiceId: invoice.id }
}

async function invoiceRow(invoiceId: string) {
  const [row] = await db().select().from(invoices).where(eq(invoices.id, invoiceId))
  const lines = await db()
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoiceId))
    .orderBy(asc(invoiceLines.position))
  if (!row) throw new Error('no invoice')
  return { ...row, lines }
}

const line = (
  description: string | null,
  quantity: string,
  unitCents: number | null,
  inventoryItemId = null as string | null,
) => ({
  description,
  quantity,
  unitCents,
  inventoryItemId,
})

describe('editing a draft', () => {
  let companyId: string
  beforeAll(async () => {
    companyId = await newCompany('Draft Pools', 7250)
  })

  it('adds a line rounded half up, and recomputes tax and total from the lines', async () => {
    const { invoiceId } = await draftFor(companyId)
    // 2.5 × $3.33 = $8.325 → $8.33 (half up). Subtotal $48.33; tax 7.25 % = $3.5039… → $3.50.
    const added = await addDraftLine({ companyId, invoiceId, fields: line('Pump O-ring', '2.5', 333) })
    expect(added.ok).toBe(true)
    const invoice = await invoiceRow(invoiceId)
    expect(invoice.lines.map((l) => [l.kind, l.amountCents])).toEqual([
      ['visits', 4000],
      ['custom', 833],
      ['tax', 350],
    ])
    expect([invoice.subtotalCents, invoice.taxCents, invoice.totalCents]).toEqual([4833, 350, 5183])
  })

  it('fills the description and price from an inventory item, and refuses another company’s item', async () => {
    const { invoiceId } = await draftFor(companyId)
    const [item] = await db()
      .insert(inventoryItems)
      .values({ companyId, name: 'Filter cartridge', sku: 'FC-1', priceCents: 8999, qty: 4 })
      .returning({ id: inventoryItems.id })
    const added = await addDraftLine({ companyId, invoiceId, fields: line(null, '1', null, item?.id ?? null) })
    expect(added.ok).toBe(true)
    const invoice = await invoiceRow(invoiceId)
    expect(invoice.lines[1]).toMatchObject({ description: 'Filter cartridge', unitCents: 8999, amountCents: 8999 })

    const other = await newCompany('Other Draft Pools')
    const [theirs] = await db()
      .insert(inventoryItems)
      .values({ companyId: other, name: 'Their heater', sku: 'H-1', priceCents: 100, qty: 1 })
      .returning({ id: inventoryItems.id })
    const refused = await addDraftLine({ companyId, invoiceId, fields: line(null, '1', null, theirs?.id ?? null) })
    expect(refused).toMatchObject({ ok: false, message: DRAFT_MESSAGES.itemNotFound })
  })

  it('edits and removes a line, and keeps a discount from making the total negative', async () => {
    const { invoiceId } = await draftFor(companyId)
    await addDraftLine({ companyId, invoiceId, fields: line('Labor', '1', 5000) })
    const custom = (await invoiceRow(invoiceId)).lines.find((l) => l.kind === 'custom')
    expect(
      (
        await updateDraftLine({
          companyId,
          invoiceId,
          lineId: custom?.id ?? '',
          fields: line('Labor, 2 hours', '2', 5000),
        })
      ).ok,
    ).toBe(true)
    expect((await addDraftDiscount({ companyId, invoiceId, description: 'Loyalty', amountCents: 1500 })).ok).toBe(true)
    let invoice = await invoiceRow(invoiceId)
    expect(invoice.subtotalCents).toBe(4000 + 10_000 - 1500)
    expect(invoice.totalCents).toBe(invoice.lines.reduce((sum, l) => sum + l.amountCents, 0))

    // Removing the labor leaves $40.00 − $15.00; a discount of $30.00 more would go below zero.
    expect((await removeDraftLine({ companyId, invoiceId, lineId: custom?.id ?? '' })).ok).toBe(true)
    const tooMuch = await addDraftDiscount({ companyId, invoiceId, description: '', amountCents: 3000 })
    expect(tooMuch).toMatchObject({ ok: false, message: DRAFT_MESSAGES.negative })
    invoice = await invoiceRow(invoiceId)
    expect(invoice.subtotalCents).toBe(2500)
    expect(invoice.lines.map((l) => l.kind)).toEqual(['visits', 'discount', 'tax'])
    // The tax line is not edited or removed by hand.
    const tax = invoice.lines.find((l) => l.kind === 'tax')
    expect(await removeDraftLine({ companyId, invoiceId, lineId: tax?.id ?? '' })).toMatchObject({
      ok: false,
      message: DRAFT_MESSAGES.taxLine,
    })
  })

  it('saves the note for the customer, shown with the invoice and in its email', async () => {
    const { invoiceId } = await draftFor(companyId, 4000, 'note-reader@example.com')
    expect((await setDraftNote({ companyId, invoiceId, note: '  Replaced the pump seal.  ' })).ok).toBe(true)
    const invoice = await getInvoice({ companyId, invoiceId, today: today() })
    expect(invoice?.customerNote).toBe('Replaced the pump seal.')
    expect((await sendInvoice({ companyId, invoiceId })).ok).toBe(true)
    const [email] = await db()
      .select({ html: emailOutbox.html, text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.to, 'note-reader@example.com')))
    expect(email?.text).toContain('Replaced the pump seal.')
  })

  it('refuses to change a sent invoice, and another company’s draft is not found', async () => {
    const { invoiceId } = await draftFor(companyId)
    expect((await sendInvoice({ companyId, invoiceId })).ok).toBe(true)
    const before = await invoiceRow(invoiceId)
    const refused = await addDraftLine({ companyId, invoiceId, fields: line('Late part', '1', 100) })
    expect(refused).toMatchObject({ ok: false, code: 'conflict', message: DRAFT_MESSAGES.sent })
    expect(await setDraftNote({ companyId, invoiceId, note: 'x' })).toMatchObject({ message: DRAFT_MESSAGES.sent })
    expect(await invoiceRow(invoiceId)).toEqual(before)

    const other = await newCompany('Snooping Pools')
    expect(await addDraftLine({ companyId: other, invoiceId, fields: line('x', '1', 1) })).toMatchObject({
      code: 'not-found',
    })
  })

  it('re-issues a void invoice as a new draft with a new number and the same lines', async () => {
    const { invoiceId } = await draftFor(companyId)
    await addDraftLine({ companyId, invoiceId, fields: line('Skimmer basket', '1', 2250) })
    await sendInvoice({ companyId, invoiceId })
    expect(await reissueInvoice({ companyId, invoiceId })).toMatchObject({ ok: false, message: DRAFT_MESSAGES.notVoid })
    expect((await voidInvoice({ companyId, invoiceId })).ok).toBe(true)
    const reissued = await reissueInvoice({ companyId, invoiceId })
    if (!reissued.ok) throw new Error(reissued.message)
    const [old, fresh] = [await invoiceRow(invoiceId), await invoiceRow(reissued.invoiceId)]
    expect(fresh.state).toBe('draft')
    expect(fresh.number).toBeGreaterThan(old.number)
    expect(fresh.lines.map((l) => [l.kind, l.description, l.amountCents])).toEqual(
      old.lines.map((l) => [l.kind, l.description, l.amountCents]),
    )
    expect(fresh.totalCents).toBe(old.totalCents)
    // A second re-issue would make two live invoices for the month.
    expect(await reissueInvoice({ companyId, invoiceId })).toMatchObject({ message: DRAFT_MESSAGES.periodTaken })
  })
})

// ——— The ledger's property test ———

type Command =
  | { kind: 'add'; at: number; hundredths: number; unitCents: number }
  | { kind: 'discount'; at: number; cents: number }
  | { kind: 'remove'; at: number; line: number }
  | { kind: 'send'; at: number }
  | { kind: 'void'; at: number }
  | { kind: 'reissue'; at: number }
  | { kind: 'pay'; at: number; cents: number }
  | { kind: 'refund'; payment: number; cents: number }

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    at: fc.nat(3),
    hundredths: fc.integer({ min: 1, max: 2_000 }),
    unitCents: fc.integer({ min: 0, max: 500_00 }),
  }),
  fc.record({ kind: fc.constant('discount' as const), at: fc.nat(3), cents: fc.integer({ min: 1, max: 200_00 }) }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(3), line: fc.nat(6) }),
  fc.record({ kind: fc.constant('send' as const), at: fc.nat(3) }),
  fc.record({ kind: fc.constant('void' as const), at: fc.nat(3) }),
  fc.record({ kind: fc.constant('reissue' as const), at: fc.nat(3) }),
  fc.record({ kind: fc.constant('pay' as const), at: fc.nat(3), cents: fc.integer({ min: 1, max: 300_00 }) }),
  fc.record({ kind: fc.constant('refund' as const), payment: fc.nat(5), cents: fc.integer({ min: 1, max: 300_00 }) }),
)

/** q hundredths × u cents, half up, worked out apart from the code under test (whole numbers only). */
const modelAmount = (hundredths: number, unitCents: number) => Math.floor((hundredths * unitCents * 2 + 100) / 200)
const modelTax = (subtotal: number, rate: number) =>
  rate > 0 ? Math.floor((subtotal * rate * 2 + 100_000) / 200_000) : 0

type ModelInvoice = {
  id: string
  number: number
  state: 'draft' | 'sent' | 'void'
  lines: { id: string; cents: number }[]
}

describe('the ledger under any sequence of changes (property)', () => {
  it('keeps balance = sent invoices − payments + refunds to the cent, totals = sum of lines, numbers never reused', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 7250, 8875),
        fc.integer({ min: 1, max: 99_999 }),
        fc.array(commandArb, { minLength: 1, maxLength: 14 }),
        async (rate, rateCents, commands) => {
          run += 1
          const companyId = await newCompany(`Ledger Property ${run}`, rate)
          const { customerId, invoiceId } = await draftFor(companyId, rateCents)
          const first = await invoiceRow(invoiceId)
          const model: ModelInvoice[] = [
            {
              id: invoiceId,
              number: first.number,
              state: 'draft',
              lines: first.lines.filter((l) => l.kind !== 'tax').map((l) => ({ id: l.id, cents: l.amountCents })),
            },
          ]
          const paid: { id: string; intent: string; cents: number; refunded: number }[] = []
          const seenNumbers = new Map<string, number>([[invoiceId, first.number]])
          const subtotal = (inv: ModelInvoice) => inv.lines.reduce((sum, l) => sum + l.cents, 0)
          const total = (inv: ModelInvoice) => subtotal(inv) + modelTax(subtotal(inv), rate)

          for (const [step, command] of commands.entries()) {
            const inv = model[('at' in command ? command.at : 0) % model.length] as ModelInvoice
            const at = { companyId, invoiceId: inv.id }
            switch (command.kind) {
              case 'add': {
                const done = await addDraftLine({
                  ...at,
                  fields: line('Part', String(command.hundredths / 100), command.unitCents),
                })
                expect(done.ok).toBe(inv.state === 'draft')
                if (done.ok) {
                  const rows = await invoiceRow(inv.id)
                  const added = rows.lines.filter((l) => l.kind === 'custom').at(-1)
                  inv.lines.push({ id: added?.id ?? '', cents: modelAmount(command.hundredths, command.unitCents) })
                }
                break
              }
              case 'discount': {
                const done = await addDraftDiscount({ ...at, description: 'Discount', amountCents: command.cents })
                const allowed = inv.state === 'draft' && subtotal(inv) - command.cents >= 0
                expect(done.ok).toBe(allowed)
                if (done.ok) {
                  const rows = await invoiceRow(inv.id)
                  inv.lines.push({
                    id: rows.lines.filter((l) => l.kind === 'discount').at(-1)?.id ?? '',
                    cents: -command.cents,
                  })
                }
                break
              }
              case 'remove': {
                const target = inv.lines[command.line % Math.max(1, inv.lines.length)]
                if (!target) break
                const done = await removeDraftLine({ ...at, lineId: target.id })
                expect(done.ok).toBe(inv.state === 'draft' && subtotal(inv) - target.cents >= 0)
                if (done.ok) inv.lines = inv.lines.filter((l) => l !== target)
                break
              }
              case 'send': {
                const done = await sendInvoice(at)
                expect(done.ok).toBe(inv.state === 'draft')
                if (done.ok) inv.state = 'sent'
                break
              }
              case 'void': {
                const done = await voidInvoice(at)
                expect(done.ok).toBe(inv.state !== 'void')
                if (done.ok) inv.state = 'void'
                break
              }
              case 'reissue': {
                const done = await reissueInvoice(at)
                const allowed =
                  inv.state === 'void' && inv.lines.length > 0 && !model.some((other) => other.state !== 'void')
                expect(done.ok).toBe(allowed)
                if (done.ok) {
                  const rows = await invoiceRow(done.invoiceId)
                  const copied = rows.lines.filter((l) => l.kind !== 'tax')
                  expect(copied.map((l) => l.amountCents)).toEqual(inv.lines.map((l) => l.cents))
                  model.push({
                    id: done.invoiceId,
                    number: rows.number,
                    state: 'draft',
                    lines: copied.map((l) => ({ id: l.id, cents: l.amountCents })),
                  })
                }
                break
              }
              case 'pay': {
                const intent = `pi_prop_${run}_${step}`
                const done = await recordPayment({
                  ...at,
                  customerId,
                  amountCents: command.cents,
                  receivedOn: today(),
                  method: 'card',
                  reference: intent,
                  recordedBy: null,
                  stripePaymentIntentId: intent,
                })
                expect(done.ok).toBe(inv.state === 'sent')
                if (done.ok) paid.push({ id: done.paymentId, intent, cents: command.cents, refunded: 0 })
                break
              }
              case 'refund': {
                const payment = paid[command.payment % Math.max(1, paid.length)]
                if (!payment) break
                const refundedTotal = Math.min(payment.cents, payment.refunded + command.cents)
                const outcome = await applyStripeEvent(
                  {
                    id: `evt_prop_${run}_${step}`,
                    type: 'charge.refunded',
                    created: 1_790_000_000,
                    data: {
                      object: {
                        id: `ch_${run}_${step}`,
                        payment_intent: payment.intent,
                        amount_refunded: refundedTotal,
                      },
                    },
                  },
                  { savedCardOf: async () => ({ ok: false, message: 'unused' }), isOurPaymentIntent: async () => true },
                )
                expect(outcome.status).toBe('applied')
                payment.refunded = refundedTotal
                break
              }
            }

            // Every invoice: the stored total is the model's, and the sum of its stored lines.
            for (const m of model) {
              const row = await invoiceRow(m.id)
              expect(row.state).toBe(m.state)
              expect(row.totalCents).toBe(total(m))
              expect(row.totalCents).toBe(row.lines.reduce((sum, l) => sum + l.amountCents, 0))
              expect(row.subtotalCents + row.taxCents).toBe(row.totalCents)
            }
            // The balance, to the cent: sent invoices − payments + refunds (as records).
            const expected =
              model.filter((m) => m.state === 'sent').reduce((sum, m) => sum + total(m), 0) -
              paid.reduce((sum, p) => sum + p.cents, 0) +
              paid.reduce((sum, p) => sum + p.refunded, 0)
            const [balance] = await db()
              .select({ cents: balanceCentsOf(sql`${companyId}::uuid`, sql`${customerId}::uuid`) })
              .from(sql`(select 1) one`)
            expect(balance?.cents).toBe(expected)
            const [refundRows] = await db()
              .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)`.mapWith(Number) })
              .from(refunds)
              .where(eq(refunds.companyId, companyId))
            expect(refundRows?.cents).toBe(paid.reduce((sum, p) => sum + p.refunded, 0))
            // Numbers: unique, unchanged once given, a new one above every earlier one.
            const numbers = await db()
              .select({ id: invoices.id, number: invoices.number })
              .from(invoices)
              .where(eq(invoices.companyId, companyId))
            expect(new Set(numbers.map((n) => n.number)).size).toBe(numbers.length)
            for (const { id, number } of numbers) {
              const before = seenNumbers.get(id)
              if (before !== undefined) expect(number).toBe(before)
              else expect(number).toBeGreaterThan(Math.max(...seenNumbers.values()))
              seenNumbers.set(id, number)
            }
          }
          const [{ n } = { n: 0 }] = await db()
            .select({ n: sql<number>`count(*)::int` })
            .from(payments)
            .where(eq(payments.companyId, companyId))
          expect(n).toBe(paid.length)
        },
      ),
      { numRuns: 25 },
    )
  }, 240_000)
})
