// The owner's money figures (docs/billing.md) against sums the test computes itself: invoices created, sent, paid,
// overpaid and refunded, voided, across the month's edges, beside another company's money and plans that must not
// count — then each figure equals the test's own SQL over the same rows, and the hand count below.
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import { loadOwnerDashboard } from '~/dashboards/business-dashboard.server'
import {
  companies,
  customers,
  invoices,
  payments,
  planRateChanges,
  priceChanges,
  servicePlans,
  visits,
} from '~/db/schema'
import type { RateType } from '~/utils/customer-fields'
import { db, queryRows } from '~/utils/db.server'
import { addRefund } from '../../tests/helpers/billing'
import { addTestCustomer } from '../../tests/helpers/customers'
import { getBillingFigures } from './billing-figures.server'
import { voidInvoice } from './invoice.server'
import { createInvoices } from './invoice-create.server'
import { sendInvoices } from './invoice-send.server'
import { recordPayment } from './payment.server'

const ZONE = 'America/New_York'
const TODAY = '2026-11-20'
const NOW = new Date('2026-11-20T17:00:00Z')

let companyId: string
let otherId: string
const customerOf: Record<string, string> = {}

async function newCompany(name: string) {
  const [company] = await db().insert(companies).values({ name, timezone: ZONE }).returning({ id: companies.id })
  return company?.id as string
}

/** A customer with one plan; `visits` are the plan's visits (date, and whether done or skipped). */
async function customerWithPlan(
  company: string,
  name: string,
  plan: { rateType: RateType; rateCents: number; frequencyWeeks?: number; weekday: number; startsOn: string },
  extra: { endsOn?: string; visits?: Array<[string, 'done' | 'skipped' | 'open']> } = {},
) {
  const customer = await addTestCustomer(company, { customerName: name, address: `1 ${name} Way` })
  const [row] = await db()
    .insert(servicePlans)
    .values({ companyId: company, locationId: customer.locationId, endsOn: extra.endsOn ?? null, ...plan })
    .returning({ id: servicePlans.id })
  const planId = row?.id as string
  if (extra.visits?.length) {
    await db()
      .insert(visits)
      .values(
        extra.visits.map(([date, state]) => ({
          companyId: company,
          customerId: customer.id,
          locationId: customer.locationId,
          customerName: name,
          address: customer.address,
          planId,
          occurrenceDate: date,
          scheduledAt: new Date(`${date}T14:00:00Z`),
          completedAt: state === 'done' ? new Date(`${date}T15:00:00Z`) : null,
          canceledAt: state === 'skipped' ? new Date(`${date}T15:00:00Z`) : null,
          skipReason: state === 'skipped' ? 'Locked gate' : null,
        })),
      )
  }
  return { customerId: customer.id, planId }
}

async function invoiceOf(customer: string, periodStart: string) {
  const [row] = await db()
    .select({ id: invoices.id, totalCents: invoices.totalCents })
    .from(invoices)
    .where(and(eq(invoices.customerId, customer), eq(invoices.periodStart, periodStart)))
  if (!row) throw new Error(`no invoice for ${periodStart}`)
  return row
}

async function pay(customer: string, invoiceId: string | null, amountCents: number, receivedOn: string) {
  const paid = await recordPayment({
    companyId,
    customerId: customer,
    invoiceId,
    amountCents,
    receivedOn,
    method: 'check',
    reference: null,
    recordedBy: null,
    now: NOW,
  })
  if (!paid.ok) throw new Error(paid.message)
  return paid.paymentId
}

beforeAll(async () => {
  companyId = await newCompany('Figures Pools')
  otherId = await newCompany('Elsewhere Figures')
  // Angela: $40 a visit, weekly on Mondays. October: three done, one skipped; November: two done, one skipped, two to
  // do.
  const angela = await customerWithPlan(
    companyId,
    'Angela',
    { rateType: 'per-visit', rateCents: 4000, weekday: 1, startsOn: '2026-09-07' },
    {
      visits: [
        ['2026-10-05', 'done'],
        ['2026-10-12', 'done'],
        ['2026-10-19', 'skipped'],
        ['2026-10-26', 'done'],
        ['2026-11-02', 'done'],
        ['2026-11-09', 'skipped'],
        ['2026-11-16', 'done'],
        ['2026-11-23', 'open'],
        ['2026-11-30', 'open'],
      ],
    },
  )
  // Ben: $150 a month since June, raised to $165 from 1 December (the plan stores its newest rate).
  const ben = await customerWithPlan(companyId, 'Ben', {
    rateType: 'monthly',
    rateCents: 16500,
    weekday: 2,
    startsOn: '2026-06-02',
  })
  const [change] = await db()
    .insert(priceChanges)
    .values({ companyId, effectiveOn: '2026-12-01', kind: 'amount', amount: 1500, planCount: 1 })
    .returning({ id: priceChanges.id })
  await db()
    .insert(planRateChanges)
    .values({
      companyId,
      planId: ben.planId,
      priceChangeId: change?.id as string,
      effectiveOn: '2026-12-01',
      fromRateCents: 15000,
      toRateCents: 16500,
    })
  // Cora: $95 a visit plus chemicals, every two weeks on Wednesdays.
  const cora = await customerWithPlan(
    companyId,
    'Cora',
    { rateType: 'per-visit-plus-chemicals', rateCents: 9500, frequencyWeeks: 2, weekday: 3, startsOn: '2026-09-02' },
    {
      visits: [
        ['2026-10-07', 'done'],
        ['2026-10-21', 'done'],
        ['2026-11-04', 'done'],
        ['2026-11-18', 'done'],
      ],
    },
  )
  // Dev: $200 a month plus chemicals, ended 31 October: billed for September and October, not recurring now.
  const dev = await customerWithPlan(
    companyId,
    'Dev',
    { rateType: 'monthly-plus-chemicals', rateCents: 20000, weekday: 4, startsOn: '2026-06-04' },
    { endsOn: '2026-10-31' },
  )
  // Eve is archived (her $500 plan counts for nothing); Finn's plan starts in December.
  const eve = await customerWithPlan(companyId, 'Eve', {
    rateType: 'monthly',
    rateCents: 50000,
    weekday: 5,
    startsOn: '2026-01-02',
  })
  await db().update(customers).set({ status: 'archived', archivedAt: NOW }).where(eq(customers.id, eve.customerId))
  await customerWithPlan(companyId, 'Finn', {
    rateType: 'monthly',
    rateCents: 10000,
    weekday: 2,
    startsOn: '2026-12-01',
  })
  Object.assign(customerOf, {
    angela: angela.customerId,
    ben: ben.customerId,
    cora: cora.customerId,
    dev: dev.customerId,
  })

  // September's invoices (Ben, Dev), sent 5 October: issued last month.
  expect((await createInvoices({ companyId, period: monthOf('2026-09-01') })).created).toBe(2)
  await sendInvoices({ companyId, period: monthOf('2026-09-01'), now: new Date('2026-10-05T15:00:00Z') })
  // October's (Angela, Ben, Cora, Dev): Ben's sent 10 November (due the 25th), the others 3 November (due the 18th).
  expect((await createInvoices({ companyId, period: monthOf('2026-10-01') })).created).toBe(4)
  const benOctober = await invoiceOf(ben.customerId, '2026-10-01')
  await sendInvoices({ companyId, invoiceIds: [benOctober.id], now: new Date('2026-11-10T15:00:00Z') })
  await sendInvoices({ companyId, period: monthOf('2026-10-01'), now: new Date('2026-11-03T15:00:00Z') })

  // Ben paid September on 31 October (last month), and $50 of October on 10 November.
  await pay(ben.customerId, (await invoiceOf(ben.customerId, '2026-09-01')).id, 15000, '2026-10-31')
  await pay(ben.customerId, benOctober.id, 5000, '2026-11-10')
  // Angela paid October in full, and $30 ahead (account credit).
  await pay(angela.customerId, (await invoiceOf(angela.customerId, '2026-10-01')).id, 12000, '2026-11-05')
  await pay(angela.customerId, null, 3000, '2026-11-15')
  // Cora paid $210 for $190, and $20 of it was refunded.
  const coraPayment = await pay(
    cora.customerId,
    (await invoiceOf(cora.customerId, '2026-10-01')).id,
    21000,
    '2026-11-12',
  )
  await addRefund(coraPayment, 2000)
  await db()
    .update(invoices)
    .set({ paidCents: sql`${invoices.paidCents} - 2000` })
    .where(eq(invoices.id, (await invoiceOf(cora.customerId, '2026-10-01')).id))
  // Dev's October invoice was a mistake: void. His September one is unpaid and past due.
  expect((await voidInvoice({ companyId, invoiceId: (await invoiceOf(dev.customerId, '2026-10-01')).id })).ok).toBe(
    true,
  )

  // Another company's money and plans this month: never counted here.
  const theirs = await customerWithPlan(otherId, 'Theirs', {
    rateType: 'monthly',
    rateCents: 77700,
    weekday: 1,
    startsOn: '2026-01-05',
  })
  const [their] = await db()
    .insert(invoices)
    .values({
      companyId: otherId,
      customerId: theirs.customerId,
      number: 1,
      state: 'sent',
      issuedOn: '2026-11-02',
      dueOn: '2026-11-10',
      subtotalCents: 99900,
      totalCents: 99900,
    })
    .returning({ id: invoices.id })
  await db().insert(payments).values({
    companyId: otherId,
    customerId: theirs.customerId,
    invoiceId: their?.id,
    amountCents: 1000,
    receivedOn: '2026-11-03',
    method: 'cash',
  })
})

/** The figures as this test counts them, in its own SQL over the same rows. */
async function countedByTheTest(company: string) {
  const [row] = await queryRows<Record<string, string | null>>(sql`
    select
      (select sum(total_cents) from invoices where company_id = ${company} and state = 'sent'
        and issued_on >= '2026-11-01' and issued_on < '2026-12-01') as invoiced,
      (select sum(amount_cents) - (select coalesce(sum(amount_cents), 0) from refunds where company_id = ${company})
        from payments where company_id = ${company}
        and received_on >= '2026-11-01' and received_on < '2026-12-01') as collected,
      (select sum(total_cents - paid_cents - credit_applied_cents) from invoices where company_id = ${company}
        and state = 'sent' and total_cents > paid_cents + credit_applied_cents) as outstanding,
      (select sum(total_cents - paid_cents - credit_applied_cents) from invoices where company_id = ${company}
        and state = 'sent' and total_cents > paid_cents + credit_applied_cents and due_on < ${TODAY}) as past_due`)
  // Recurring revenue: each active plan of an active customer at November's rate (the replaced rate of a change
  // that starts later), per-visit plans × 52 / 12 / frequency.
  const plans = await queryRows<{ rate_type: string; frequency_weeks: number; rate: number; later: number | null }>(sql`
    select p.rate_type, p.frequency_weeks, p.rate_cents as rate,
      (select from_rate_cents from plan_rate_changes c where c.plan_id = p.id and c.effective_on > '2026-11-01'
        order by c.effective_on limit 1) as later
    from service_plans p
    join service_locations l on l.id = p.location_id
    join customers c on c.id = l.customer_id and c.status = 'active'
    where p.company_id = ${company} and p.starts_on <= ${TODAY} and (p.ends_on is null or p.ends_on >= ${TODAY})`)
  const exact = plans.reduce((sum, plan) => {
    const rate = plan.later ?? plan.rate
    return sum + (plan.rate_type.startsWith('monthly') ? rate : (rate * 52) / 12 / plan.frequency_weeks)
  }, 0)
  return {
    invoicedThisMonthCents: Number(row?.invoiced ?? 0),
    collectedThisMonthCents: Number(row?.collected ?? 0),
    outstandingCents: Number(row?.outstanding ?? 0),
    pastDueCents: Number(row?.past_due ?? 0),
    monthlyRecurringCents: Math.round(exact),
    activePlans: plans.length,
  }
}

describe('the money figures', () => {
  it('equal the sums of the records, counted by the test, and the hand count', async () => {
    const figures = await getBillingFigures({ companyId, today: TODAY })
    const { forecastThisMonthCents, ...summed } = figures
    expect(summed).toEqual(await countedByTheTest(companyId))
    expect(figures).toEqual({
      // October's invoices issued in November: Angela 3 × $40, Ben $150 (October's rate), Cora 2 × $95; Dev's void.
      invoicedThisMonthCents: 12000 + 15000 + 19000,
      // Ben $50, Angela $120 and $30 ahead, Cora $210 less $20 refunded; Ben's 31 October payment is last month's.
      collectedThisMonthCents: 5000 + 12000 + 3000 + 21000 - 2000,
      // Ben owes $100 of October (due the 25th), Dev $200 of September (due 20 October).
      outstandingCents: 10000 + 20000,
      pastDueCents: 20000,
      // Angela 4000 × 52/12 = 17,333.33, Ben 15,000 (the $165 starts in December), Cora 9500 × 52/24 = 20,583.33:
      // 52,916.67 → 52,917 (half up). Dev's plan ended, Eve is archived, Finn starts in December.
      monthlyRecurringCents: 52917,
      activePlans: 3,
      // November's plans at their rates: Angela's four visits not skipped, Ben's month, Cora's two visits.
      forecastThisMonthCents: 4 * 4000 + 15000 + 2 * 9500,
    })
  })

  it('count nothing of another company, and nothing for a company without money', async () => {
    const theirs = await getBillingFigures({ companyId: otherId, today: TODAY })
    const { forecastThisMonthCents: _forecast, ...summed } = theirs
    expect(summed).toEqual(await countedByTheTest(otherId))
    expect(theirs.invoicedThisMonthCents).toBe(99900)
    const empty = await getBillingFigures({ companyId: await newCompany('Empty Figures'), today: TODAY })
    expect(Object.values(empty)).toEqual([0, 0, 0, 0, 0, 0, 0])
  })

  it('are what the owner’s dashboard shows, in the company’s month', async () => {
    const data = await loadOwnerDashboard({ companyId, timezone: ZONE, now: NOW })
    expect(data.money).toEqual({
      invoicedThisMonth: '$460.00',
      collected: '$390.00',
      outstanding: '$300.00',
      pastDue: '$200.00',
      monthlyRecurring: '$529.17',
      activePlans: 3,
      forecast: '$500.00',
    })
    // 1 December 00:30 in New York (05:30 UTC): the company's month has turned, nothing invoiced or collected yet;
    // an hour earlier it is still November there.
    const december = await loadOwnerDashboard({ companyId, timezone: ZONE, now: new Date('2026-12-01T05:30:00Z') })
    expect(december.money.invoicedThisMonth).toBe('$0.00')
    expect(december.money.collected).toBe('$0.00')
    expect(december.money.outstanding).toBe('$300.00')
    const november = await loadOwnerDashboard({ companyId, timezone: ZONE, now: new Date('2026-12-01T04:30:00Z') })
    expect(november.money.invoicedThisMonth).toBe('$460.00')
  })
})
