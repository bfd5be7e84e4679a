// A customer's balance (docs/billing.md): what the sent invoices ask for, less what was paid, plus what was refunded.
// Never stored — a sum of indexed rows (invoices_company_customer_idx, payments_company_customer_idx,
// refunds_company_customer_idx) — so it cannot drift from the records it sums. Refunds are their `refunds` rows and
// nothing else (docs/billing.md). A void payment (payment_voids) counts for nothing. Positive: the customer owes;
// negative: a credit.
import { Column, getTableName, is, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'

/** The balance of the customer whose `company_id` and `id` are these columns, in cents (a correlated subquery). */
export function balanceCentsOf(companyId: AnyPgColumn | SQL, customerId: AnyPgColumn | SQL) {
  return sql<number>`(coalesce((select sum(i.total_cents) from invoices i where i.company_id = ${companyId} and i.customer_id = ${customerId} and i.state = 'sent'), 0)
    - coalesce((select sum(p.amount_cents) from payments p where p.company_id = ${companyId} and p.customer_id = ${customerId}
      and ${notVoidedSql(sql`p.id`)}), 0)
    + coalesce((select sum(r.amount_cents) from refunds r where r.company_id = ${companyId} and r.customer_id = ${customerId}
      and ${notVoidedSql(sql`r.payment_id`)}), 0))`.mapWith(Number)
}

/**
 * SQL: what has been refunded of the payment whose id is `paymentId`, in cents — the sum of its `refunds` rows, the
 * only record of refunds (docs/billing.md). Read on the refunds' payment key.
 */
export function refundedCentsOf(paymentId: AnyPgColumn | SQL) {
  // Named with its table: drizzle leaves a column of a one-table select bare ("id"), which inside this subquery
  // would be the refund's own id.
  const payment = is(paymentId, Column)
    ? sql`${sql.identifier(getTableName(paymentId.table))}.${sql.identifier(paymentId.name)}`
    : paymentId
  return sql<number>`(select coalesce(sum(r.amount_cents), 0) from refunds r where r.payment_id = ${payment})`.mapWith(
    Number,
  )
}

/**
 * SQL: the payment whose id is `paymentId` has not been voided ("Void payment", docs/decisions/037-payment-voids.md).
 * Every sum of money received uses it: a void payment counts for nothing.
 */
export function notVoidedSql(paymentId: AnyPgColumn | SQL) {
  return sql`not exists (select 1 from payment_voids pv where pv.payment_id = ${paymentId})`
}
