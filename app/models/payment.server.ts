// "Record payment" (docs/billing.md): money received against an invoice, or as account credit. One transaction per
// payment: the invoice row is locked, the payment inserted (its reference unique per customer, so a double-submitted
// form or a webhook delivered twice records it once) and the invoice's paid sum moved with it. Overpaying leaves a
// credit, applied to the customer's next invoice.
import { and, eq, sql } from 'drizzle-orm'
import type { PaymentMethod } from '~/billing/billing-fields'
import { PAYMENT_MESSAGES, VOID_PAYMENT_MESSAGES, VOID_REASON_MAX } from '~/billing/payment-messages'
import { companies, customers, invoices, payments, paymentVoids } from '~/db/schema'
import { enqueue } from '~/outbox/enqueue.server'
import { type LocalDate, localDateAt } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { refundedCentsOf } from './balance.server'

export { PAYMENT_MESSAGES }

export type PaymentInput = {
  companyId: string
  customerId: string
  /** Null: account credit. */
  invoiceId: string | null
  amountCents: number
  receivedOn: LocalDate
  method: PaymentMethod
  reference: string | null
  recordedBy: string | null
  /** Set for a card payment whose amount differs from what was asked, say: the office looks at it. */
  flag?: string | null
  stripePaymentIntentId?: string | null
  now?: Date
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code
  return code === '23505'
}

/**
 * Records a payment. A refusal about one thing the "Record payment" form asks names that field (`amount`,
 * `receivedOn`, `reference`, `appliesTo` for the invoice) so the form shows it there. `executor` lets the Stripe
 * webhook record it inside its own transaction (with the event id); on its own it runs in a transaction of its own. A
 * repeated reference is a 'conflict' that changes nothing.
 */
export async function recordPayment(input: PaymentInput, executor?: Database): Promise<Result<{ paymentId: string }>> {
  if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
    return failure('invalid', PAYMENT_MESSAGES.amount, 'amount')
  }
  if (!isUuid(input.customerId)) return failure('not-found', PAYMENT_MESSAGES.customerNotFound)
  if (input.invoiceId !== null && !isUuid(input.invoiceId)) return invoiceNotFound()
  const run = async (tx: Database): Promise<Result<{ paymentId: string }>> => {
    const [customer] = await tx
      .select({ timezone: companies.timezone })
      .from(customers)
      .innerJoin(companies, eq(companies.id, customers.companyId))
      .where(and(eq(customers.companyId, input.companyId), eq(customers.id, input.customerId)))
    if (!customer) return failure('not-found', PAYMENT_MESSAGES.customerNotFound)
    if (input.receivedOn > localDateAt(input.now ?? new Date(), customer.timezone)) {
      return failure('invalid', PAYMENT_MESSAGES.futureDate, 'receivedOn')
    }
    if (input.invoiceId) {
      const [invoice] = await tx
        .select({ state: invoices.state })
        .from(invoices)
        .where(
          and(
            eq(invoices.companyId, input.companyId),
            eq(invoices.customerId, input.customerId),
            eq(invoices.id, input.invoiceId),
          ),
        )
        .for('update')
      if (!invoice) return invoiceNotFound()
      if (invoice.state === 'void') return failure('conflict', PAYMENT_MESSAGES.voidInvoice)
      if (invoice.state === 'draft') return failure('conflict', PAYMENT_MESSAGES.draftInvoice)
    }
    const reference = input.reference?.trim() || null
    const [row] = await tx
      .insert(payments)
      .values({
        companyId: input.companyId,
        customerId: input.customerId,
        invoiceId: input.invoiceId,
        amountCents: input.amountCents,
        receivedOn: input.receivedOn,
        method: input.method,
        reference,
        flag: input.flag ?? null,
        stripePaymentIntentId: input.stripePaymentIntentId ?? null,
        recordedBy: input.recordedBy,
      })
      .onConflictDoNothing()
      .returning({ id: payments.id })
    if (!row) return duplicateReference(reference ?? '')
    if (input.invoiceId) await movePaid(tx, input.companyId, input.invoiceId, input.amountCents)
    await enqueue(tx, {
      kind: 'webhook',
      companyId: input.companyId,
      type: 'payment.recorded',
      data: { paymentId: row.id, invoiceId: input.invoiceId },
    })
    if (input.invoiceId && (await justSettled(tx, input.companyId, input.invoiceId, input.amountCents))) {
      await enqueue(tx, {
        kind: 'webhook',
        companyId: input.companyId,
        type: 'invoice.paid',
        data: { invoiceId: input.invoiceId },
      })
    }
    return success({ paymentId: row.id })
  }
  try {
    return executor ? await run(executor) : await db().transaction(run)
  } catch (error) {
    if (isUniqueViolation(error)) return duplicateReference(input.reference ?? '')
    throw error
  }
}

const invoiceNotFound = () => failure('not-found', PAYMENT_MESSAGES.notFound, 'appliesTo')
const duplicateReference = (reference: string) =>
  failure('conflict', PAYMENT_MESSAGES.duplicateReference(reference), 'reference')

/**
 * Whether a payment of `cents` has just settled the invoice (it owed something before and nothing now): the rule of
 * `invoice.paid`, read in the payment's transaction after its paid sum moved.
 */
async function justSettled(tx: Pick<Database, 'select'>, companyId: string, invoiceId: string, cents: number) {
  const [settled] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.id, invoiceId),
        eq(invoices.state, 'sent'),
        sql`${invoices.paidCents} + ${invoices.creditAppliedCents} >= ${invoices.totalCents}`,
        sql`${invoices.paidCents} - ${cents} + ${invoices.creditAppliedCents} < ${invoices.totalCents}`,
      ),
    )
  return Boolean(settled)
}

/** Moves an invoice's paid sum by `cents` (negative for a refund), and stops autopay once nothing is owed. */
export async function movePaid(tx: Pick<Database, 'update'>, companyId: string, invoiceId: string, cents: number) {
  await tx
    .update(invoices)
    .set({
      paidCents: sql`${invoices.paidCents} + ${cents}`,
      autopayNextAt: sql`case when ${invoices.paidCents} + ${cents} + ${invoices.creditAppliedCents} >= ${invoices.totalCents}
        then null else ${invoices.autopayNextAt} end`,
    })
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
}

/**
 * "Void payment" (docs/decisions/037-payment-voids.md): a payment recorded by mistake gets a `payment_voids` row
 * (its reason, who, when) — the payment itself is never edited or deleted. In one transaction, under the payment's
 * row lock: the void is inserted once (its key is the payment; a second void, or two at once, is 'conflict' and
 * changes nothing) and the invoice's paid sum loses the payment, so its status (Paid → Sent or Past due), the
 * balance and "Outstanding" follow to the cent. A card payment taken through Stripe is refunded instead, never
 * voided. `invoiceId`, when given, is the page's invoice: a payment of another invoice is 'not-found'.
 */
export async function voidPayment({
  companyId,
  paymentId,
  invoiceId,
  reason,
  voidedBy,
  now = new Date(),
}: {
  companyId: string
  paymentId: string
  invoiceId?: string
  reason: string
  voidedBy: string | null
  now?: Date
}): Promise<Result<{ amountCents: number }>> {
  const why = reason.trim()
  if (!why || why.length > VOID_REASON_MAX) return failure('invalid', VOID_PAYMENT_MESSAGES.reason, 'reason')
  if (!isUuid(paymentId)) return failure('not-found', VOID_PAYMENT_MESSAGES.notFound)
  return db().transaction(async (tx) => {
    const [payment] = await tx
      .select({
        invoiceId: payments.invoiceId,
        amountCents: payments.amountCents,
        refundedCents: refundedCentsOf(payments.id),
        method: payments.method,
        stripePaymentIntentId: payments.stripePaymentIntentId,
      })
      .from(payments)
      .where(
        and(
          eq(payments.companyId, companyId),
          eq(payments.id, paymentId),
          invoiceId ? eq(payments.invoiceId, invoiceId) : undefined,
        ),
      )
      .for('update')
    if (!payment) return failure('not-found', VOID_PAYMENT_MESSAGES.notFound)
    if (payment.stripePaymentIntentId || payment.refundedCents > 0) {
      return failure('conflict', VOID_PAYMENT_MESSAGES.card)
    }
    const [row] = await tx
      .insert(paymentVoids)
      .values({ paymentId, companyId, reason: why, voidedBy, voidedAt: now })
      .onConflictDoNothing()
      .returning({ paymentId: paymentVoids.paymentId })
    if (!row) return failure('conflict', VOID_PAYMENT_MESSAGES.alreadyVoid)
    if (payment.invoiceId) await movePaid(tx, companyId, payment.invoiceId, -payment.amountCents)
    await enqueue(tx, { kind: 'webhook', companyId, type: 'payment.voided', data: { paymentId } })
    return success({ amountCents: payment.amountCents })
  })
}
