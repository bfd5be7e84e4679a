// Records for card-payment tests: a company of their own, a customer with an email, and a sent invoice owing a given
// amount — written directly, as invoices look once "Send invoices" has run (numbers taken from the company's counter).
import { eq, sql } from 'drizzle-orm'
import { companies, invoices, payments } from '~/db/schema'
import { refundedCentsOf } from '~/models/balance.server'
import { db } from '~/utils/db.server'
import { addTestCustomer } from './customers'

export async function addBillingCompany(name: string) {
  const [company] = await db().insert(companies).values({ name, timezone: 'America/New_York' }).returning()
  if (!company) throw new Error('no company')
  return company.id
}

export async function addCardCustomer(companyId: string, name: string, email: string | null = null) {
  return addTestCustomer(companyId, { customerName: name, address: '12 Card St, Tampa, FL 33606', email })
}

/** A sent invoice of `totalCents`, issued 2026-11-01 and due 2026-11-16 (or `state` as given). */
export async function addSentInvoice(
  companyId: string,
  customerId: string,
  totalCents: number,
  { state = 'sent' as 'sent' | 'draft' | 'void', autopayNextAt = null as Date | null } = {},
) {
  const [company] = await db()
    .update(companies)
    .set({ nextInvoiceNumber: sql`${companies.nextInvoiceNumber} + 1` })
    .where(eq(companies.id, companyId))
    .returning({ next: companies.nextInvoiceNumber })
  const [invoice] = await db()
    .insert(invoices)
    .values({
      companyId,
      customerId,
      number: (company?.next ?? 2) - 1,
      state,
      issuedOn: state === 'draft' ? null : '2026-11-01',
      dueOn: state === 'draft' ? null : '2026-11-16',
      subtotalCents: totalCents,
      totalCents,
      sentAt: state === 'draft' ? null : new Date('2026-11-01T14:00:00Z'),
      voidedAt: state === 'void' ? new Date('2026-11-02T14:00:00Z') : null,
      autopayNextAt,
    })
    .returning({ id: invoices.id, number: invoices.number })
  if (!invoice) throw new Error('no invoice')
  return invoice
}

export async function invoiceMoney(invoiceId: string) {
  const [row] = await db()
    .select({
      paidCents: invoices.paidCents,
      autopayAttempts: invoices.autopayAttempts,
      autopayNextAt: invoices.autopayNextAt,
    })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
  return row
}

export async function paymentsOf(customerId: string) {
  return db()
    .select({
      invoiceId: payments.invoiceId,
      amountCents: payments.amountCents,
      refundedCents: refundedCentsOf(payments.id),
      method: payments.method,
      reference: payments.reference,
      flag: payments.flag,
      stripePaymentIntentId: payments.stripePaymentIntentId,
      receivedOn: payments.receivedOn,
    })
    .from(payments)
    .where(eq(payments.customerId, customerId))
    .orderBy(payments.createdAt)
}
