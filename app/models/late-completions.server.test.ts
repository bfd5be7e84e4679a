// Late completions against the database (issue 31 item 8; docs/billing.md, "Late completions"): a per-visit plan's
// visit completed after its month's invoice was sent goes on the customer's next invoice, once, at the rate in force
// on its date — however often and however concurrently "Create invoices" runs; voiding releases it, a re-issue bills
// it again; a monthly plan adds nothing. Then a property test: across any sequence of completions, invoice runs,
// sends, voids and re-issues, each completed visit billed per visit is billed exactly once.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type BillingPeriod, monthOf } from '~/billing/invoice-draft'
import {
  billedVisits,
  companies,
  invoiceLines,
  invoices,
  planRateChanges,
  priceChanges,
  servicePlans,
  visits,
} from '~/db/schema'
import type { RateType } from '~/utils/customer-fields'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { voidInvoice } from './invoice.server'
import { createInvoices } from './invoice-create.server'
import { reissueInvoice } from './invoice-draft-edit.server'
import { sendInvoices } from './invoice-send.server'
import { reopenVisit } from './visit-changes.server'

const OCTOBER = monthOf('2026-10-01')
const NOVEMBER = monthOf('2026-11-01')
const DECEMBER = monthOf('2026-12-01')
const LATE = 'Weekly service — Oct 26 (completed late)'

async function newCompany(name: string) {
  const [company] = await db().insert(companies).values({ name, timezone: 'America/New_York' }).returning()
  if (!company) throw new Error('no company')
  return company.id
}

/** Mondays from Sep 7 to Dec 28, 2026. */
const MONDAYS = Array.from({ length: 17 }, (_, i) => new Date(Date.UTC(2026, 8, 7 + 7 * i)).toISOString().slice(0, 10))

/** A customer with a Monday plan and a visit every Monday from September to December, the ones `done` completed. */
async function customerWithPlan(
  companyId: string,
  rateType: RateType,
  rateCents: number,
  done: (d: string) => boolean,
) {
  const customer = await addTestCustomer(companyId, {
    customerName: `Late ${rateType} ${Math.random().toString(36).slice(2, 8)}`,
    address: '26 Late Ave, Tampa, FL 33606',
  })
  const [plan] = await db()
    .insert(servicePlans)
    .values({ companyId, locationId: customer.locationId, weekday: 1, startsOn: '2026-09-07', rateCents, rateType })
    .returning({ id: servicePlans.id })
  if (!plan) throw new Error('no plan')
  const rows = await db()
    .insert(visits)
    .values(
      MONDAYS.map((date) => ({
        companyId,
        customerId: customer.id,
        locationId: customer.locationId,
        customerName: customer.customerName,
        address: customer.address,
        planId: plan.id,
        occurrenceDate: date,
        scheduledAt: new Date(`${date}T14:00:00Z`),
        completedAt: done(date) ? new Date(`${date}T15:00:00Z`) : null,
      })),
    )
    .returning({ id: visits.id, on: visits.occurrenceDate })
  return { customerId: customer.id, planId: plan.id, visits: new Map(rows.map((row) => [row.on, row.id])) }
}

/** Completes a visit now: after any invoice made so far counted its month. */
async function completeNow(visitId: string) {
  await db().update(visits).set({ completedAt: sql`now()` }).where(eq(visits.id, visitId))
}

async function linesOf(companyId: string, customerId: string, states: ('draft' | 'sent' | 'void')[]) {
  return db()
    .select({
      invoiceId: invoices.id,
      periodStart: invoices.periodStart,
      description: invoiceLines.description,
      amountCents: invoiceLines.amountCents,
      quantity: invoiceLines.quantity,
      kind: invoiceLines.kind,
      visitId: invoiceLines.visitId,
    })
    .from(invoiceLines)
    .innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId))
    .where(and(eq(invoices.companyId, companyId), eq(invoices.customerId, customerId), inArray(invoices.state, states)))
}

async function liveInvoiceOf(companyId: string, customerId: string, period: BillingPeriod) {
  const [row] = await db()
    .select({ id: invoices.id, totalCents: invoices.totalCents })
    .from(invoices)
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.customerId, customerId),
        eq(invoices.periodStart, period.start),
        sql`${invoices.state} <> 'void'`,
      ),
    )
  return row
}

describe('a visit completed after its month was invoiced and sent', () => {
  it('goes on the next invoice once, at the rate of its date, however often and concurrently invoices are created', async () => {
    const companyId = await newCompany('Late Pools')
    // October's visits done on the day except the 26th's; November's first one done.
    const a = await customerWithPlan(companyId, 'per-visit', 4000, (d) => d <= '2026-11-02' && d !== '2026-10-26')
    await createInvoices({ companyId, period: OCTOBER })
    await sendInvoices({ companyId, period: OCTOBER })
    await completeNow(a.visits.get('2026-10-26') ?? '')
    // Prices rise on November 1: the late October visit keeps October's $40.00.
    const [change] = await db()
      .insert(priceChanges)
      .values({ companyId, effectiveOn: '2026-11-01', kind: 'amount', amount: 1000, planCount: 1 })
      .returning({ id: priceChanges.id })
    await db()
      .insert(planRateChanges)
      .values({
        companyId,
        planId: a.planId,
        priceChangeId: change?.id ?? '',
        effectiveOn: '2026-11-01',
        fromRateCents: 4000,
        toRateCents: 5000,
      })
    await db().update(servicePlans).set({ rateCents: 5000 }).where(eq(servicePlans.id, a.planId))

    const [first, second] = await Promise.all([
      createInvoices({ companyId, period: NOVEMBER }),
      createInvoices({ companyId, period: NOVEMBER }),
    ])
    expect(first.created + second.created).toBe(1)
    expect((await createInvoices({ companyId, period: NOVEMBER })).created).toBe(0)
    // December's run bills it no more.
    await sendInvoices({ companyId, period: NOVEMBER })
    await createInvoices({ companyId, period: DECEMBER })

    const late = (await linesOf(companyId, a.customerId, ['draft', 'sent'])).filter((l) => l.description === LATE)
    expect(late).toHaveLength(1)
    expect(late[0]?.amountCents).toBe(4000)
    const november = await liveInvoiceOf(companyId, a.customerId, NOVEMBER)
    expect(late[0]?.invoiceId).toBe(november?.id)
    expect(november?.totalCents).toBe(5000 + 4000)
    // October's invoice is untouched: three visits.
    expect((await liveInvoiceOf(companyId, a.customerId, OCTOBER))?.totalCents).toBe(3 * 4000)
  })

  it('is refused a second time by the database itself', async () => {
    const companyId = await newCompany('Late Key Pools')
    const a = await customerWithPlan(companyId, 'per-visit', 4000, (d) => d < '2026-10-26')
    await createInvoices({ companyId, period: OCTOBER })
    await sendInvoices({ companyId, period: OCTOBER })
    await completeNow(a.visits.get('2026-10-26') ?? '')
    await createInvoices({ companyId, period: NOVEMBER })
    const [row] = await db().select().from(billedVisits).where(eq(billedVisits.companyId, companyId))
    if (!row) throw new Error('no billed visit')
    await expect(
      db()
        .insert(billedVisits)
        .values({ companyId, visitId: row.visitId, invoiceId: row.invoiceId, lineId: row.lineId }),
    ).rejects.toThrow()
  })

  it('is released by "Void invoice": the re-issue bills it, or else the next invoice does, never both', async () => {
    const companyId = await newCompany('Late Void Pools')
    const a = await customerWithPlan(companyId, 'per-visit', 4000, (d) => d <= '2026-11-02' && d !== '2026-10-26')
    await createInvoices({ companyId, period: OCTOBER })
    await sendInvoices({ companyId, period: OCTOBER })
    await completeNow(a.visits.get('2026-10-26') ?? '')
    await createInvoices({ companyId, period: NOVEMBER })
    const november = await liveInvoiceOf(companyId, a.customerId, NOVEMBER)
    expect((await voidInvoice({ companyId, invoiceId: november?.id ?? '' })).ok).toBe(true)
    const reissued = await reissueInvoice({ companyId, invoiceId: november?.id ?? '' })
    if (!reissued.ok) throw new Error('not re-issued')
    let late = (await linesOf(companyId, a.customerId, ['draft', 'sent'])).filter((l) => l.description === LATE)
    expect(late.map((l) => l.invoiceId)).toEqual([reissued.invoiceId])

    // Voided again, December's invoice takes it; a re-issue of November then leaves it out.
    await voidInvoice({ companyId, invoiceId: reissued.invoiceId })
    await createInvoices({ companyId, period: DECEMBER })
    const again = await reissueInvoice({ companyId, invoiceId: reissued.invoiceId })
    if (!again.ok) throw new Error('not re-issued')
    late = (await linesOf(companyId, a.customerId, ['draft', 'sent'])).filter((l) => l.description === LATE)
    expect(late.map((l) => l.invoiceId)).toEqual([(await liveInvoiceOf(companyId, a.customerId, DECEMBER))?.id])
  })

  it('bills a visit reopened and completed again once: on its month if counted there, else as late', async () => {
    const companyId = await newCompany('Late Reopen Pools')
    // October's visits all done on the day; the 26th's is reopened after October was invoiced, then done again.
    const a = await customerWithPlan(companyId, 'per-visit', 4000, (d) => d <= '2026-11-02')
    // And a customer whose Oct 19 visit is completed late.
    const b = await customerWithPlan(companyId, 'per-visit', 4000, (d) => d <= '2026-11-02' && d !== '2026-10-19')
    await createInvoices({ companyId, period: OCTOBER })
    await sendInvoices({ companyId, period: OCTOBER })
    const counted = a.visits.get('2026-10-26') ?? ''
    expect((await reopenVisit({ companyId, visitId: counted })).ok).toBe(true)
    await completeNow(counted)
    // Reopened again and completed a third time: still the one completion October billed.
    expect((await reopenVisit({ companyId, visitId: counted })).ok).toBe(true)
    await completeNow(counted)
    await createInvoices({ companyId, period: NOVEMBER })
    await createInvoices({ companyId, period: NOVEMBER })
    const lines = await linesOf(companyId, a.customerId, ['draft', 'sent'])
    expect(lines.filter((l) => l.description === LATE)).toEqual([])
    expect((await liveInvoiceOf(companyId, a.customerId, OCTOBER))?.totalCents).toBe(4 * 4000)
    expect((await liveInvoiceOf(companyId, a.customerId, NOVEMBER))?.totalCents).toBe(4000)

    // A late completion billed on December's invoice, reopened and completed again: still billed once.
    const late = b.visits.get('2026-10-19') ?? ''
    await completeNow(late)
    await createInvoices({ companyId, period: DECEMBER })
    expect((await linesOf(companyId, b.customerId, ['draft', 'sent'])).filter((l) => l.visitId === late)).toHaveLength(
      1,
    )
    expect((await reopenVisit({ companyId, visitId: late })).ok).toBe(true)
    await completeNow(late)
    await createInvoices({ companyId, period: monthOf('2027-01-01') })
    const bLines = await linesOf(companyId, b.customerId, ['draft', 'sent'])
    expect(bLines.filter((l) => l.visitId === late)).toHaveLength(1)
  })

  it('adds nothing for a monthly plan, which bills the month whatever the visits', async () => {
    const companyId = await newCompany('Late Monthly Pools')
    const m = await customerWithPlan(companyId, 'monthly', 16000, (d) => d < '2026-10-26')
    await createInvoices({ companyId, period: OCTOBER })
    await sendInvoices({ companyId, period: OCTOBER })
    await completeNow(m.visits.get('2026-10-26') ?? '')
    await createInvoices({ companyId, period: NOVEMBER })
    const lines = await linesOf(companyId, m.customerId, ['draft'])
    expect(lines.map((l) => l.description)).toEqual(['Monthly pool service, 26 Late Ave — November 2026'])
    expect(await db().select().from(billedVisits).where(eq(billedVisits.companyId, companyId))).toEqual([])
  })
})

const MONTHS = [monthOf('2026-09-01'), OCTOBER, NOVEMBER, DECEMBER]

type Step = { op: 'complete'; visit: number } | { op: 'create' | 'send' | 'void' | 'reissue'; month: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('complete' as const), visit: fc.nat(MONDAYS.length - 1) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('create' as const), month: fc.nat(3) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('send' as const), month: fc.nat(3) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('void' as const), month: fc.nat(3) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('reissue' as const), month: fc.nat(3) }), weight: 1 },
)

describe('property: each completed visit billed per visit is billed exactly once', () => {
  it('across any sequence of completions, invoice runs, sends, voids and re-issues', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 14 }), async (steps) => {
        run += 1
        const companyId = await newCompany(`Late Property ${run}`)
        const c = await customerWithPlan(companyId, 'per-visit', 4000, () => false)
        const visitIds = MONDAYS.map((d) => c.visits.get(d) ?? '')
        for (const s of steps) {
          if (s.op === 'complete') {
            await db()
              .update(visits)
              .set({ completedAt: sql`now()` })
              .where(and(eq(visits.id, visitIds[s.visit] ?? ''), isNull(visits.completedAt)))
            continue
          }
          const period = MONTHS[s.month] as BillingPeriod
          if (s.op === 'create') await createInvoices({ companyId, period })
          if (s.op === 'send') await sendInvoices({ companyId, period })
          if (s.op === 'void') {
            const live = await liveInvoiceOf(companyId, c.customerId, period)
            if (live) await voidInvoice({ companyId, invoiceId: live.id })
          }
          if (s.op === 'reissue') {
            const [last] = await db()
              .select({ id: invoices.id })
              .from(invoices)
              .where(and(eq(invoices.companyId, companyId), eq(invoices.periodStart, period.start)))
              .orderBy(sql`${invoices.number} desc`)
              .limit(1)
            if (last) await reissueInvoice({ companyId, invoiceId: last.id })
          }
        }
        // Then every month is invoiced and sent, and January's run picks up what was completed late.
        for (const period of MONTHS) {
          await sendInvoices({ companyId, period })
          await createInvoices({ companyId, period })
          await sendInvoices({ companyId, period })
        }
        await createInvoices({ companyId, period: monthOf('2027-01-01') })

        const done = await db()
          .select({ id: visits.id, on: visits.occurrenceDate })
          .from(visits)
          .where(and(eq(visits.companyId, companyId), sql`${visits.completedAt} is not null`))
        const lines = await linesOf(companyId, c.customerId, ['draft', 'sent'])
        const lateIds = lines.flatMap((l) => (l.visitId ? [l.visitId] : []))
        expect(new Set(lateIds).size).toBe(lateIds.length)
        const doneIds = new Set(done.map((j) => j.id))
        for (const id of lateIds) expect(doneIds.has(id)).toBe(true)
        // Month by month: the visits its invoice counted plus its visits billed late elsewhere = its completed visits.
        const lateOn = new Map(done.map((j) => [j.id, j.on]))
        for (const period of MONTHS) {
          const counted = lines
            .filter((l) => l.periodStart === period.start && l.kind === 'visits' && !l.visitId)
            .reduce((sum, l) => sum + Number(l.quantity), 0)
          const billedLate = lateIds.filter((id) => (lateOn.get(id) ?? '').startsWith(period.start.slice(0, 7))).length
          const completed = done.filter((j) => (j.on ?? '').startsWith(period.start.slice(0, 7))).length
          expect(counted + billedLate).toBe(completed)
        }
      }),
      { numRuns: 25 },
    )
  })
})
