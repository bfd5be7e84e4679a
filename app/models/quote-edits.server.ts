// Changing a quote (issue 33 items 2–3; docs/quotes.md, docs/decisions/054-quotes-versions-and-approval.md): its
// lines and terms live on a version. A version once sent is never changed: the first edit after "Send quote" writes
// the next version with the lines copied, and the quote is a draft again until sent. Every change runs in one
// transaction that locks the quote's row and recomputes the version's totals from its lines (the one line math,
// app/billing/line-math.ts).
import { and, eq, sql } from 'drizzle-orm'
import { lineAmountCents } from '~/billing/line-math'
import { type Deposit, quoteTotals, type StoredQuoteState } from '~/billing/quote-math'
import { quoteLines, quotes, quoteVersions } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { getPriceBookItem } from './price-book.server'
import { customerTaxRate } from './tax-rate.server'

const MAX_LINE_CENTS = 100_000_000
const MAX_QUOTE_CENTS = 1_000_000_000

export const QUOTE_MESSAGES = {
  notFound: 'Quote not found.',
  customerNotFound: 'Customer not found.',
  equipmentNotFound: 'Equipment not found.',
  lineNotFound: 'That line is not on this quote.',
  itemNotFound: 'That price book item was not found.',
  noPrice: 'Enter a unit price, or choose a price book item.',
  noDescription: 'Enter a description, or choose a price book item.',
  tooLarge: 'That line is too large.',
  quoteTooLarge: 'That would make the quote more than $10,000,000.00.',
  decided: 'This quote was approved or declined: it can no longer change.',
  noLines: 'Add at least one line before sending the quote.',
  noEmail: 'This customer has no email address: add one to their record to send the quote.',
  depositTooLarge: 'The deposit cannot be more than the quote’s total.',
} as const

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

type LockedQuote = { id: string; customerId: string; state: StoredQuoteState; currentVersion: number }

/**
 * The quote's row, locked for the transaction: each change here and "Send quote" (app/models/quote-send.server.ts)
 * take it first.
 */
export async function lockQuote(tx: Tx, companyId: string, quoteId: string): Promise<LockedQuote | null> {
  if (!isUuid(quoteId)) return null
  const [row] = await tx
    .select({
      id: quotes.id,
      customerId: quotes.customerId,
      state: quotes.state,
      currentVersion: quotes.currentVersion,
    })
    .from(quotes)
    .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId)))
    .for('update')
  return row ?? null
}

/** One version of the quote, by its number. */
export async function versionOf(tx: Tx | Database, companyId: string, quoteId: string, version: number) {
  const [row] = await tx
    .select()
    .from(quoteVersions)
    .where(
      and(
        eq(quoteVersions.companyId, companyId),
        eq(quoteVersions.quoteId, quoteId),
        eq(quoteVersions.version, version),
      ),
    )
  return row ?? null
}

/**
 * The version the office may change: the current one while unsent; after sending, a new version with its lines
 * copied (the sent one stays as it was) and the quote a draft again.
 */
async function editableVersion(tx: Tx, companyId: string, quote: LockedQuote) {
  const current = await versionOf(tx, companyId, quote.id, quote.currentVersion)
  if (!current) throw new Error('quote without its current version')
  if (!current.sentAt) return current.id
  const [next] = await tx
    .insert(quoteVersions)
    .values({
      companyId,
      quoteId: quote.id,
      version: current.version + 1,
      validUntil: current.validUntil,
      depositKind: current.depositKind,
      depositValue: current.depositValue,
      customerNote: current.customerNote,
      taxRateMilliPercent: current.taxRateMilliPercent,
      subtotalCents: current.subtotalCents,
      taxCents: current.taxCents,
      totalCents: current.totalCents,
    })
    .returning({ id: quoteVersions.id })
  if (!next) throw new Error('quote version insert returned nothing')
  const lines = await tx
    .select()
    .from(quoteLines)
    .where(and(eq(quoteLines.companyId, companyId), eq(quoteLines.versionId, current.id)))
  if (lines.length) {
    await tx
      .insert(quoteLines)
      .values(lines.map(({ id: _id, versionId: _v, ...line }) => ({ ...line, versionId: next.id })))
  }
  await tx
    .update(quotes)
    .set({ currentVersion: current.version + 1, state: 'draft' })
    .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quote.id)))
  return next.id
}

/** What a version's totals are worked out from (quoteTotals): its lines' quantities, prices, tax and option flags. */
export function linesForTotals(tx: Tx, companyId: string, versionId: string) {
  return tx
    .select({
      id: quoteLines.id,
      quantityHundredths: quoteLines.quantityHundredths,
      unitPriceCents: quoteLines.unitPriceCents,
      taxable: quoteLines.taxable,
      optional: quoteLines.optional,
    })
    .from(quoteLines)
    .where(and(eq(quoteLines.companyId, companyId), eq(quoteLines.versionId, versionId)))
}

/**
 * Subtotal, tax (at the customer's rate as it is now: their pool's own, else the company's default) and total of
 * the version's required lines.
 */
async function recompute(tx: Tx, companyId: string, versionId: string) {
  const [owner] = await tx
    .select({ customerId: quotes.customerId })
    .from(quoteVersions)
    .innerJoin(quotes, and(eq(quotes.companyId, quoteVersions.companyId), eq(quotes.id, quoteVersions.quoteId)))
    .where(and(eq(quoteVersions.companyId, companyId), eq(quoteVersions.id, versionId)))
  const rate = owner ? ((await customerTaxRate(tx, companyId, owner.customerId))?.milliPercent ?? 0) : 0
  const lines = await linesForTotals(tx, companyId, versionId)
  const totals = quoteTotals(lines, rate)
  // Every option ticked must still fit the integer columns: a quote past $10 million is refused as a whole.
  const everything = quoteTotals(lines, rate, new Set(lines.map((line) => line.id)))
  if (everything.totalCents > MAX_QUOTE_CENTS) throw new RolledBack(failure('invalid', QUOTE_MESSAGES.quoteTooLarge))
  await tx
    .update(quoteVersions)
    .set({ ...totals, taxRateMilliPercent: rate })
    .where(and(eq(quoteVersions.companyId, companyId), eq(quoteVersions.id, versionId)))
}

/** Runs `change` on the quote's editable version with the quote locked, then recomputes its totals. */
async function withEditableQuote<T extends object>(
  companyId: string,
  quoteId: string,
  change: (tx: Tx, versionId: string) => Promise<Result<T>>,
  database: Database = db(),
): Promise<Result<T>> {
  return database
    .transaction(async (tx) => {
      const quote = await lockQuote(tx, companyId, quoteId)
      if (!quote) return failure('not-found', QUOTE_MESSAGES.notFound)
      if (quote.state === 'approved' || quote.state === 'declined') return failure('conflict', QUOTE_MESSAGES.decided)
      const versionId = await editableVersion(tx, companyId, quote)
      const result = await change(tx, versionId)
      // Nothing of a refused change stays, not even a new version.
      if (!result.ok) throw new RolledBack(result)
      await recompute(tx, companyId, versionId)
      return result
    })
    .catch((error: unknown) => {
      if (error instanceof RolledBack) return error.result as Result<T>
      throw error
    })
}

class RolledBack extends Error {
  constructor(readonly result: Result<object>) {
    super('rolled back')
  }
}

export type QuoteLineFields = {
  description: string | null
  quantityHundredths: number
  /** Null: the price book item's price. */
  unitPriceCents: number | null
  priceBookItemId: string | null
  optional: boolean
  /** Null: the price book item's (taxable when typed). */
  taxable: boolean | null
}

async function resolveLine(companyId: string, fields: QuoteLineFields, tx: Tx) {
  let description = fields.description
  let unitPriceCents = fields.unitPriceCents
  let taxable = fields.taxable
  if (fields.priceBookItemId) {
    const item = await getPriceBookItem(companyId, fields.priceBookItemId, tx)
    if (!item) return failure('invalid', QUOTE_MESSAGES.itemNotFound, 'priceBookItemId')
    description = description || item.name
    unitPriceCents = unitPriceCents ?? item.priceCents
    taxable = taxable ?? item.taxable
  }
  if (!description) return failure('invalid', QUOTE_MESSAGES.noDescription, 'description')
  if (unitPriceCents === null) return failure('invalid', QUOTE_MESSAGES.noPrice, 'unitPrice')
  const amountCents = lineAmountCents(fields.quantityHundredths, unitPriceCents)
  if (amountCents > MAX_LINE_CENTS) return failure('invalid', QUOTE_MESSAGES.tooLarge, 'quantity')
  return success({
    line: {
      description,
      quantityHundredths: fields.quantityHundredths,
      unitPriceCents,
      amountCents,
      taxable: taxable ?? true,
      optional: fields.optional,
      priceBookItemId: fields.priceBookItemId,
    },
  })
}

/** "Add line": from the price book (blank description and price are the item's) or typed. */
export function addQuoteLine(companyId: string, quoteId: string, fields: QuoteLineFields, database?: Database) {
  return withEditableQuote(
    companyId,
    quoteId,
    async (tx, versionId) => {
      const resolved = await resolveLine(companyId, fields, tx)
      if (!resolved.ok) throw new RolledBack(resolved)
      const [last] = await tx
        .select({ position: sql<number>`coalesce(max(${quoteLines.position}), 0)::int` })
        .from(quoteLines)
        .where(and(eq(quoteLines.companyId, companyId), eq(quoteLines.versionId, versionId)))
      await tx
        .insert(quoteLines)
        .values({ companyId, versionId, position: (last?.position ?? 0) + 1, ...resolved.line })
      return success({ versionId })
    },
    database,
  )
}

/**
 * "Remove line". Lines are named by their position, which a copied version keeps: the office removes "line 2" of
 * what it sees, whichever version that turns out to be.
 */
export function removeQuoteLine(companyId: string, quoteId: string, position: number, database?: Database) {
  return withEditableQuote(
    companyId,
    quoteId,
    async (tx, versionId) => {
      const removed = await tx
        .delete(quoteLines)
        .where(
          and(
            eq(quoteLines.companyId, companyId),
            eq(quoteLines.versionId, versionId),
            eq(quoteLines.position, position),
          ),
        )
        .returning({ id: quoteLines.id })
      if (!removed.length) throw new RolledBack(failure('not-found', QUOTE_MESSAGES.lineNotFound))
      return success({ versionId })
    },
    database,
  )
}

export type QuoteTerms = { deposit: Deposit; validUntil: string | null; customerNote: string | null }

/** "Deposit", "Valid until" and "Note for customer". An amount deposit may not exceed the quote's total. */
export function setQuoteTerms(companyId: string, quoteId: string, terms: QuoteTerms, database?: Database) {
  return withEditableQuote(
    companyId,
    quoteId,
    async (tx, versionId) => {
      await tx
        .update(quoteVersions)
        .set({
          depositKind: terms.deposit.kind,
          depositValue: terms.deposit.kind === 'none' ? 0 : terms.deposit.value,
          validUntil: terms.validUntil,
          customerNote: terms.customerNote,
        })
        .where(and(eq(quoteVersions.companyId, companyId), eq(quoteVersions.id, versionId)))
      return success({ versionId })
    },
    database,
  )
}
