// A customer's unapplied credit (docs/billing.md "The balance"): what the customer paid beyond what invoices ask,
// less what invoices have applied already; the next invoice applies it. Read for any number of customers in one
// grouped statement.
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '~/utils/db.server'

/**
 * Each customer's unapplied credit: overpayments on invoices (a void invoice's payments all become credit) and
 * payments recorded to no invoice, less the credit already applied to live invoices. One grouped statement. A quote's
 * deposit waits for its work order's invoice (docs/work-orders.md, decision 062), so it is never applied to another one.
 */
export async function creditsByCustomer(executor: Database, companyId: string, customerIds?: string[]) {
  const only = customerIds
    ? sql`and customer_id in ${customerIds.length ? sql`(${sql.join(customerIds, sql`, `)})` : sql`(null)`}`
    : sql``
  const rows = await queryRows<{ customer_id: string; credit: string }>(
    sql`
    select customer_id, sum(credit)::bigint as credit from (
      select customer_id,
        case when state = 'void' then paid_cents
             else greatest(0, paid_cents + credit_applied_cents - total_cents) - credit_applied_cents end as credit
      from invoices where company_id = ${companyId} ${only}
      union all
      select customer_id, amount_cents - (select coalesce(sum(r.amount_cents), 0) from refunds r
        where r.payment_id = payments.id) from payments
      where company_id = ${companyId} and invoice_id is null ${only}
        and not exists (select 1 from payment_voids pv where pv.payment_id = payments.id)
        -- A quote's deposit waits for its work order's invoice (decision 062): never the month's service invoice.
        and not exists (select 1 from quote_deposits qd
          where qd.company_id = payments.company_id and qd.payment_id = payments.id)
    ) c group by customer_id having sum(credit) > 0`,
    executor,
  )
  return new Map(rows.map((row) => [row.customer_id, Number(row.credit)]))
}
