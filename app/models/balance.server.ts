// A customer's balance (OPERATIONS §7): what the sent invoices ask for, less what was paid (net of refunds). Never
// stored — a sum of indexed rows (invoices_company_customer_idx, payments_company_customer_idx) — so it cannot
// drift from the records it sums. A void payment (payment_voids) counts for nothing. Positive: the customer owes; negative: a credit.
import { type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'

/** The balance of the customer whose `company_id` and `id` are these columns, in cents (a correlated subquery). */
export function balanceCentsOf(companyId: AnyPgColumn | SQL, customerId: AnyPgColumn | SQL) {
  return sql<number>`(coalesce((select sum(i.total_cents) from invoices i where i.company_id = ${companyId} and i.customer_id = ${customerId} and i.state = 'sent'), 0)
    - coalesce((select sum(p.amount_cents - p.refunded_cents) from payments p where p.company_id = ${companyId} and p.customer_id = ${customerId}
      and ${notVoidedSql(sql`p.id`)}), 0))`.mapWith(Number)
}

/**
 * SQL: the payment whose id is `paymentId` has not been voided ("Void payment", docs/decisions/037-payment-voids.md).
 * Every sum of money received uses it: a void payment counts for nothing.
 */
export function notVoidedSql(paymentId: AnyPgColumn | SQL) {
  return sql`not exists (select 1 from payment_voids pv where pv.payment_id = ${paymentId})`
}
