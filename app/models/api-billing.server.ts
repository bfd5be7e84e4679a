// The public API's billing (docs/decisions/050-public-api.md): invoices and payments (with what was refunded and
// whether voided), by the key's company, paged by keyset.
import { and, eq, type SQL } from 'drizzle-orm'
import { invoices, payments, paymentVoids } from '~/db/schema'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { after, changedSince, iso, keysetOrder, type Page, paged } from './api-paging.server'
import { refundedCentsOf } from './balance.server'
import { invoiceFigureColumns } from './invoice.server'

// ---- Invoices ----

const invoiceColumns = {
  id: invoices.id,
  customerId: invoices.customerId,
  number: invoices.number,
  ...invoiceFigureColumns,
  sentAt: invoices.sentAt,
  voidedAt: invoices.voidedAt,
  createdAt: invoices.createdAt,
}

function toInvoice<T extends { sentAt: Date | null; voidedAt: Date | null; createdAt: Date }>(row: T) {
  return { ...row, sentAt: iso(row.sentAt), voidedAt: iso(row.voidedAt), createdAt: row.createdAt.toISOString() }
}

export async function apiListInvoices(
  companyId: string,
  {
    limit,
    cursor,
    customerId,
    state,
    updated_since,
  }: Page & { customerId?: string; state?: 'draft' | 'sent' | 'void' },
) {
  const rows = await db()
    .select(invoiceColumns)
    .from(invoices)
    .where(
      and(
        eq(invoices.companyId, companyId),
        customerId ? eq(invoices.customerId, customerId) : undefined,
        state ? eq(invoices.state, state) : undefined,
        changedSince(invoices.updatedAt, updated_since),
        after(invoices.createdAt, invoices.id, cursor),
      ),
    )
    .orderBy(...keysetOrder(invoices.createdAt, invoices.id))
    .limit(limit + 1)
  const page = paged(rows, limit)
  return { data: page.data.map(toInvoice), nextCursor: page.nextCursor }
}

export async function apiGetInvoice(companyId: string, invoiceId: string) {
  if (!isUuid(invoiceId)) return null
  const [row] = await db()
    .select(invoiceColumns)
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
  return row ? toInvoice(row) : null
}

// ---- Payments ----

function paymentQuery(companyId: string, where: SQL | undefined) {
  return db()
    .select({
      id: payments.id,
      customerId: payments.customerId,
      invoiceId: payments.invoiceId,
      amountCents: payments.amountCents,
      refundedCents: refundedCentsOf(payments.id),
      receivedOn: payments.receivedOn,
      method: payments.method,
      reference: payments.reference,
      voidedAt: paymentVoids.voidedAt,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .leftJoin(
      paymentVoids,
      and(eq(paymentVoids.companyId, payments.companyId), eq(paymentVoids.paymentId, payments.id)),
    )
    .where(and(eq(payments.companyId, companyId), where))
}

function toPayment<T extends { voidedAt: Date | null; createdAt: Date }>(row: T) {
  return { ...row, voidedAt: iso(row.voidedAt), createdAt: row.createdAt.toISOString() }
}

export async function apiListPayments(
  companyId: string,
  { limit, cursor, customerId, updated_since }: Page & { customerId?: string },
) {
  const rows = await paymentQuery(
    companyId,
    and(
      customerId ? eq(payments.customerId, customerId) : undefined,
      changedSince(payments.updatedAt, updated_since),
      after(payments.createdAt, payments.id, cursor),
    ),
  )
    .orderBy(...keysetOrder(payments.createdAt, payments.id))
    .limit(limit + 1)
  const page = paged(rows, limit)
  return { data: page.data.map(toPayment), nextCursor: page.nextCursor }
}

export async function apiGetPayment(companyId: string, paymentId: string) {
  if (!isUuid(paymentId)) return null
  const [row] = await paymentQuery(companyId, eq(payments.id, paymentId))
  return row ? toPayment(row) : null
}
