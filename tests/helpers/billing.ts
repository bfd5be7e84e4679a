// Billing for route tests: a company of its own (so a month's invoices are exactly the ones a test made) with an
// owner who can sign in, and customers with a per-visit plan and visits completed in a given month.
import { eq, sql } from 'drizzle-orm'
import { companies, payments, refunds, servicePlans, visits } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { addDays, isoWeekday, type LocalDate } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer, type TestCustomer } from './customers'

/** A company in New York's timezone and its owner's email (the demo password signs them in). */
export async function addBillingCompany(name: string, ownerEmail: string) {
  const [company] = await db().insert(companies).values({ name, timezone: 'America/New_York' }).returning()
  if (!company) throw new Error('no company')
  await createDemoLogin(db(), { email: ownerEmail, fullName: `${name} Owner`, role: 'owner', companyId: company.id })
  return company.id
}

export type BillableCustomer = TestCustomer & { planId: string }

/**
 * A customer with a weekly plan on the weekday of `month`'s first day at `rateCents` a visit, and its first
 * `completed` visits of that month done (the plan started four weeks before, so nothing is prorated).
 */
export async function addBillableCustomer(
  companyId: string,
  {
    name,
    month,
    completed,
    rateCents = 4000,
    email = null,
  }: { name: string; month: LocalDate; completed: number; rateCents?: number; email?: string | null },
): Promise<BillableCustomer> {
  const customer = await addTestCustomer(companyId, { customerName: name, address: `1 ${name} Way`, email })
  const [plan] = await db()
    .insert(servicePlans)
    .values({
      companyId,
      locationId: customer.locationId,
      weekday: isoWeekday(month),
      startsOn: addDays(month, -28),
      rateCents,
      rateType: 'per-visit',
    })
    .returning({ id: servicePlans.id })
  const billable = { ...customer, planId: plan?.id ?? '' }
  await addCompletedVisits(companyId, billable, month, completed)
  return billable
}

/** `count` of the plan's weekly visits from `from` on, completed (another month's work for the same plan). */
export async function addCompletedVisits(
  companyId: string,
  customer: BillableCustomer,
  from: LocalDate,
  count: number,
) {
  if (count === 0) return
  await db()
    .insert(visits)
    .values(
      Array.from({ length: count }, (_, week) => {
        const date = addDays(from, 7 * week)
        return {
          companyId,
          customerId: customer.id,
          locationId: customer.locationId,
          customerName: customer.customerName,
          address: customer.address,
          planId: customer.planId,
          occurrenceDate: date,
          scheduledAt: new Date(`${date}T14:00:00Z`),
          completedAt: new Date(`${date}T15:00:00Z`),
        }
      }),
    )
}

/**
 * A refund of `cents` on a payment, recorded as the charge.refunded webhook records it: a new `refunds` row (the only
 * record of refunds, docs/billing.md). The invoice's paid sum is the caller's to move.
 */
export async function addRefund(paymentId: string, cents: number) {
  const [payment] = await db()
    .select({
      companyId: payments.companyId,
      customerId: payments.customerId,
      sofar:
        sql<number>`(select coalesce(sum(r.amount_cents), 0) from refunds r where r.payment_id = ${payments.id})`.mapWith(
          Number,
        ),
    })
    .from(payments)
    .where(eq(payments.id, paymentId))
  if (!payment) throw new Error('no payment')
  await db()
    .insert(refunds)
    .values({
      companyId: payment.companyId,
      customerId: payment.customerId,
      paymentId,
      amountCents: cents,
      refundedTotalCents: payment.sofar + cents,
    })
}
