// Quotes (issue 33 items 2–3; docs/quotes.md, docs/decisions/054-quotes-versions-and-approval.md). A quote is
// numbered per company; its lines live on a version. A version once sent is never changed: the first edit after
// "Send quote" writes the next version with the lines copied, and the quote is a draft again until sent. The
// customer sees the latest version sent. Every change runs in one transaction that locks the quote's row and
// recomputes the version's totals from its lines (the one line math, app/billing/line-math.ts).
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm'
import { lineAmountCents } from '~/billing/line-math'
import {
  type Deposit,
  type QuoteStatus,
  quoteNumberLabel,
  quoteStatus,
  quoteTotals,
  type StoredQuoteState,
} from '~/billing/quote-math'
import {
  bodiesOfWater,
  companies,
  customers,
  equipment,
  quoteLines,
  quotes,
  quoteVersions,
  serviceLocations,
} from '~/db/schema'
import { renderEmail } from '~/outbox/email-render.server'
import { enqueue } from '~/outbox/enqueue.server'
import type { AddressParts } from '~/utils/address'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { isUuid } from '~/utils/ids'
import { formatCents } from '~/utils/money'
import { portalQuotePath } from '~/utils/portal-paths'
import { failure, type Result, success } from '~/utils/result'
import { customerEmailBrand } from './company-brand'
import { getPriceBookItem } from './price-book.server'
import { firstLocationOf } from './service-location.server'
import { customerTaxRate } from './tax-rate.server'

export const QUOTES_PAGE_SIZE = 25
/** A new quote is valid for 30 days unless the office says otherwise. */
export const DEFAULT_VALID_DAYS = 30
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

/**
 * Whether the equipment item is the company's and sits at one of this customer's pools. `quotes.equipment_id` is a
 * plain reference (it carries no company), so this check is what keeps another company's item off a quote.
 */
async function customerOwnsEquipment(tx: Tx, companyId: string, customerId: string, equipmentId: string) {
  if (!isUuid(equipmentId)) return false
  const [row] = await tx
    .select({ id: equipment.id })
    .from(equipment)
    .innerJoin(
      bodiesOfWater,
      and(eq(bodiesOfWater.companyId, equipment.companyId), eq(bodiesOfWater.id, equipment.bodyOfWaterId)),
    )
    .innerJoin(
      serviceLocations,
      and(eq(serviceLocations.companyId, bodiesOfWater.companyId), eq(serviceLocations.id, bodiesOfWater.locationId)),
    )
    .where(
      and(
        eq(equipment.companyId, companyId),
        eq(equipment.id, equipmentId),
        eq(serviceLocations.customerId, customerId),
      ),
    )
    .limit(1)
  return Boolean(row)
}

/**
 * A new draft quote (version 1, no lines) for the company's own customer, numbered under the company row's lock;
 * for one of the customer's equipment items when started from it ("New quote" on the item).
 */
export async function createQuote({
  companyId,
  customerId,
  equipmentId = null,
  today,
  database = db(),
}: {
  companyId: string
  customerId: string
  /** The equipment item the quote is for: the company's, at this customer's pool, or the quote is refused. */
  equipmentId?: string | null
  /** The company's local date: "Valid until" starts 30 days on. */
  today: string
  database?: Database
}): Promise<Result<{ quote: { id: string } }>> {
  if (!isUuid(customerId)) return failure('not-found', QUOTE_MESSAGES.customerNotFound)
  return database.transaction(async (tx) => {
    const [customer] = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    if (!customer) return failure('not-found', QUOTE_MESSAGES.customerNotFound)
    if (equipmentId !== null && !(await customerOwnsEquipment(tx, companyId, customerId, equipmentId))) {
      return failure('not-found', QUOTE_MESSAGES.equipmentNotFound)
    }
    // Quote numbers are per company: its row is the lock that keeps two new quotes from taking the same one.
    await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update')
    const rate = await customerTaxRate(tx, companyId, customerId)
    const [last] = await tx
      .select({ number: sql<number>`coalesce(max(${quotes.number}), 0)::int` })
      .from(quotes)
      .where(eq(quotes.companyId, companyId))
    const [quote] = await tx
      .insert(quotes)
      .values({ companyId, customerId, equipmentId, number: (last?.number ?? 0) + 1 })
      .returning({ id: quotes.id })
    if (!quote) throw new Error('quote insert returned nothing')
    await tx.insert(quoteVersions).values({
      companyId,
      quoteId: quote.id,
      version: 1,
      validUntil: addDaysTo(today, DEFAULT_VALID_DAYS),
      taxRateMilliPercent: rate?.milliPercent ?? 0,
    })
    return success({ quote })
  })
}

function addDaysTo(date: string, days: number) {
  const d = new Date(`${date}T12:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

type LockedQuote = { id: string; customerId: string; state: StoredQuoteState; currentVersion: number }

async function lockQuote(tx: Tx, companyId: string, quoteId: string): Promise<LockedQuote | null> {
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

async function versionOf(tx: Tx | Database, companyId: string, quoteId: string, version: number) {
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
  const lines = await tx
    .select({
      id: quoteLines.id,
      quantityHundredths: quoteLines.quantityHundredths,
      unitPriceCents: quoteLines.unitPriceCents,
      taxable: quoteLines.taxable,
      optional: quoteLines.optional,
    })
    .from(quoteLines)
    .where(and(eq(quoteLines.companyId, companyId), eq(quoteLines.versionId, versionId)))
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

/**
 * "Send quote": the current version is marked sent (never to change again), the quote is Sent, and the customer is
 * emailed from the company with a link to the portal — in one transaction, once per version.
 */
export async function sendQuote(
  companyId: string,
  quoteId: string,
  database: Database = db(),
): Promise<Result<{ email: string; version: number }>> {
  return database.transaction(async (tx) => {
    const quote = await lockQuote(tx, companyId, quoteId)
    if (!quote) return failure('not-found', QUOTE_MESSAGES.notFound)
    if (quote.state === 'approved' || quote.state === 'declined') return failure('conflict', QUOTE_MESSAGES.decided)
    const version = await versionOf(tx, companyId, quote.id, quote.currentVersion)
    if (!version) return failure('not-found', QUOTE_MESSAGES.notFound)
    const [lineCount] = await tx
      .select({ n: count() })
      .from(quoteLines)
      .where(and(eq(quoteLines.companyId, companyId), eq(quoteLines.versionId, version.id)))
    if (!lineCount?.n) return failure('invalid', QUOTE_MESSAGES.noLines)
    const [row] = await tx
      .select({
        number: quotes.number,
        customerName: customers.customerName,
        email: customers.email,
        companyName: companies.name,
        companyEmail: companies.email,
        logoKey: companies.logoKey,
      })
      .from(quotes)
      .innerJoin(customers, and(eq(customers.companyId, quotes.companyId), eq(customers.id, quotes.customerId)))
      .innerJoin(companies, eq(companies.id, quotes.companyId))
      .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quote.id)))
    if (!row) return failure('not-found', QUOTE_MESSAGES.notFound)
    if (!row.email) return failure('invalid', QUOTE_MESSAGES.noEmail)
    const now = new Date()
    if (!version.sentAt) {
      await tx.update(quoteVersions).set({ sentAt: now }).where(eq(quoteVersions.id, version.id))
    }
    await tx
      .update(quotes)
      .set({ state: 'sent' })
      .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quote.id)))
    const sender = customerEmailBrand({ name: row.companyName, email: row.companyEmail, logoKey: row.logoKey })
    const label = quoteNumberLabel(row.number)
    const email = await renderEmail({
      template: 'card',
      props: {
        subject: `${row.companyName}: quote ${label}${version.version > 1 ? ` (version ${version.version})` : ''}`,
        heading: `Quote ${label}`,
        lines: [
          `Hi ${row.customerName}, ${row.companyName} has sent you a quote for ${formatCents(version.totalCents)}.`,
          version.validUntil ? `It is valid until ${version.validUntil}.` : 'Open it to review the work and the price.',
          ...(version.customerNote ? [version.customerNote] : []),
        ],
        actionLabel: 'View quote',
        url: `${env().APP_URL}${portalQuotePath(quote.customerId, quote.id)}`,
        footer: `You receive this email because ${row.companyName} services your pool with Pool Bud.`,
        brand: sender.brand,
      },
    })
    await enqueue(tx, {
      kind: 'email',
      companyId,
      customerId: quote.customerId,
      to: row.email,
      fromName: sender.fromName,
      replyTo: sender.replyTo,
      attachments: sender.attachments,
      // Once per version and recipient, however often "Send quote" is pressed.
      notice: { event: 'quote-sent', subject: version.id },
      ...email,
    })
    return success({ email: row.email, version: version.version })
  })
}

export type QuoteLineView = {
  id: string
  position: number
  description: string
  quantityHundredths: number
  unitPriceCents: number
  amountCents: number
  taxable: boolean
  optional: boolean
}

export type QuoteVersionView = {
  id: string
  version: number
  validUntil: string | null
  deposit: Deposit
  customerNote: string | null
  taxRateMilliPercent: number
  subtotalCents: number
  taxCents: number
  totalCents: number
  sentAt: Date | null
  lines: QuoteLineView[]
}

export type QuoteEquipment = {
  id: string
  kind: string
  make: string | null
  model: string | null
  serial: string | null
  warrantyUntil: string | null
}

export type QuoteView = {
  id: string
  number: number
  numberLabel: string
  customerId: string
  customerName: string
  customerEmail: string | null
  state: StoredQuoteState
  status: QuoteStatus
  viewedAt: Date | null
  createdAt: Date
  /** The day the quote was started, in the company's calendar: "Under warranty" is judged on it. */
  quoteDate: string
  /** The customer's first service location's address (the PDF prints it under their name), if any. */
  customerAddress: AddressParts | null
  /** The equipment item the quote is for, if any (removed equipment leaves the quote without one). */
  equipment: QuoteEquipment | null
  currentVersion: number
  version: QuoteVersionView
  versions: { version: number; sentAt: Date | null; totalCents: number }[]
}

async function linesOf(database: Database | Tx, companyId: string, versionId: string) {
  return database
    .select({
      id: quoteLines.id,
      position: quoteLines.position,
      description: quoteLines.description,
      quantityHundredths: quoteLines.quantityHundredths,
      unitPriceCents: quoteLines.unitPriceCents,
      amountCents: quoteLines.amountCents,
      taxable: quoteLines.taxable,
      optional: quoteLines.optional,
    })
    .from(quoteLines)
    .where(and(eq(quoteLines.companyId, companyId), eq(quoteLines.versionId, versionId)))
    .orderBy(asc(quoteLines.position))
}

/**
 * One quote of the company with a version: the current one (the office), or `latestSent` — the latest version sent
 * (the customer's view). Null for another company's quote, a made-up id, or a quote never sent when `latestSent`.
 */
export async function getQuote({
  companyId,
  quoteId,
  customerId,
  today,
  latestSent = false,
  version,
}: {
  companyId: string
  quoteId: string
  /** The portal's customer: another customer's quote is null. */
  customerId?: string
  today: string
  latestSent?: boolean
  /** A given version (the office's history), else the current or latest sent. */
  version?: number
}): Promise<QuoteView | null> {
  if (!isUuid(quoteId)) return null
  const filters: SQL[] = [eq(quotes.companyId, companyId), eq(quotes.id, quoteId)]
  if (customerId !== undefined) {
    if (!isUuid(customerId)) return null
    filters.push(eq(quotes.customerId, customerId))
  }
  const firstLocation = firstLocationOf(customers)
  const [row] = await db()
    .select({
      id: quotes.id,
      number: quotes.number,
      customerId: quotes.customerId,
      customerName: customers.customerName,
      customerEmail: customers.email,
      state: quotes.state,
      viewedAt: quotes.viewedAt,
      createdAt: quotes.createdAt,
      quoteDate: sql<string>`to_char(${quotes.createdAt} at time zone ${companies.timezone}, 'YYYY-MM-DD')`,
      currentVersion: quotes.currentVersion,
      street: firstLocation.street,
      city: firstLocation.city,
      state_: firstLocation.state,
      postalCode: firstLocation.postalCode,
      equipmentId: equipment.id,
      equipmentKind: equipment.kind,
      equipmentMake: equipment.make,
      equipmentModel: equipment.model,
      equipmentSerial: equipment.serial,
      warrantyUntil: equipment.warrantyUntil,
    })
    .from(quotes)
    .innerJoin(customers, and(eq(customers.companyId, quotes.companyId), eq(customers.id, quotes.customerId)))
    .innerJoin(companies, eq(companies.id, quotes.companyId))
    .leftJoinLateral(firstLocation, sql`true`)
    // The company is part of the join: the reference itself carries none.
    .leftJoin(equipment, and(eq(equipment.companyId, quotes.companyId), eq(equipment.id, quotes.equipmentId)))
    .where(and(...filters))
  if (!row) return null
  const {
    street,
    city,
    state_,
    postalCode,
    equipmentId,
    equipmentKind,
    equipmentMake,
    equipmentModel,
    equipmentSerial,
    warrantyUntil,
    ...quote
  } = row
  const versions = await db()
    .select()
    .from(quoteVersions)
    .where(and(eq(quoteVersions.companyId, companyId), eq(quoteVersions.quoteId, quote.id)))
    .orderBy(desc(quoteVersions.version))
  const shown =
    version !== undefined
      ? versions.find((v) => v.version === version)
      : latestSent
        ? versions.find((v) => v.sentAt !== null)
        : versions.find((v) => v.version === quote.currentVersion)
  if (!shown) return null
  const lines = await linesOf(db(), companyId, shown.id)
  // The customer's view of a quote being revised: the latest sent version, as it was sent.
  const state: StoredQuoteState = latestSent && quote.state === 'draft' ? 'sent' : quote.state
  return {
    ...quote,
    state,
    customerAddress: street ? { street, city, state: state_, postalCode } : null,
    equipment:
      equipmentId && equipmentKind
        ? {
            id: equipmentId,
            kind: equipmentKind,
            make: equipmentMake,
            model: equipmentModel,
            serial: equipmentSerial,
            warrantyUntil,
          }
        : null,
    numberLabel: quoteNumberLabel(quote.number),
    status: quoteStatus(state, shown.validUntil, today),
    version: {
      id: shown.id,
      version: shown.version,
      validUntil: shown.validUntil,
      deposit: { kind: shown.depositKind, value: shown.depositValue },
      customerNote: shown.customerNote,
      taxRateMilliPercent: shown.taxRateMilliPercent,
      subtotalCents: shown.subtotalCents,
      taxCents: shown.taxCents,
      totalCents: shown.totalCents,
      sentAt: shown.sentAt,
      lines,
    },
    versions: versions.map((v) => ({ version: v.version, sentAt: v.sentAt, totalCents: v.totalCents })),
  }
}

/** Viewed is recorded on the customer's first portal view of a sent quote (staff previewing record nothing). */
export async function recordQuoteViewed(companyId: string, quoteId: string) {
  if (!isUuid(quoteId)) return false
  const updated = await db()
    .update(quotes)
    .set({ state: 'viewed', viewedAt: new Date() })
    .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId), eq(quotes.state, 'sent')))
    .returning({ id: quotes.id })
  return updated.length > 0
}

export type QuoteListRow = {
  id: string
  numberLabel: string
  customerId: string
  customerName: string
  status: QuoteStatus
  totalCents: number
  validUntil: string | null
  createdAt: Date
}

/** The filter of a status as stored state and "Valid until" (Expired and Sent/Viewed split on today). */
function statusFilter(status: QuoteStatus | null, today: string): SQL | undefined {
  if (!status) return undefined
  const live = inArray(quotes.state, ['sent', 'viewed'])
  const current = or(sql`${quoteVersions.validUntil} is null`, gte(quoteVersions.validUntil, today))
  switch (status) {
    case 'Expired':
      return and(live, isNotNull(quoteVersions.validUntil), lt(quoteVersions.validUntil, today))
    case 'Sent':
      return and(eq(quotes.state, 'sent'), current)
    case 'Viewed':
      return and(eq(quotes.state, 'viewed'), current)
    default:
      return eq(quotes.state, status.toLowerCase() as StoredQuoteState)
  }
}

/** One page of the company's quotes (or one customer's), newest first, with a status filter. */
export async function listQuotes({
  companyId,
  customerId,
  status = null,
  page = 1,
  today,
  sentOnly = false,
}: {
  companyId: string
  customerId?: string
  status?: QuoteStatus | null
  page?: number
  today: string
  /** The portal: only quotes with a version sent, at their latest sent version. */
  sentOnly?: boolean
}) {
  const versionJoin = sentOnly
    ? sql`${quoteVersions.version} = (select max(v.version) from quote_versions v where v.company_id = ${quotes.companyId} and v.quote_id = ${quotes.id} and v.sent_at is not null)`
    : eq(quoteVersions.version, quotes.currentVersion)
  const where = and(
    eq(quotes.companyId, companyId),
    customerId ? eq(quotes.customerId, customerId) : undefined,
    statusFilter(status, today),
  )
  const base = db()
    .select({
      id: quotes.id,
      number: quotes.number,
      customerId: quotes.customerId,
      customerName: customers.customerName,
      state: quotes.state,
      totalCents: quoteVersions.totalCents,
      validUntil: quoteVersions.validUntil,
      createdAt: quotes.createdAt,
    })
    .from(quotes)
    .innerJoin(customers, and(eq(customers.companyId, quotes.companyId), eq(customers.id, quotes.customerId)))
    .innerJoin(
      quoteVersions,
      and(eq(quoteVersions.companyId, quotes.companyId), eq(quoteVersions.quoteId, quotes.id), versionJoin),
    )
    .where(where)
  const rows = await base
    .orderBy(desc(quotes.createdAt), desc(quotes.number))
    .limit(QUOTES_PAGE_SIZE + 1)
    .offset((page - 1) * QUOTES_PAGE_SIZE)
  return {
    hasNext: rows.length > QUOTES_PAGE_SIZE,
    quotes: rows.slice(0, QUOTES_PAGE_SIZE).map(
      (row): QuoteListRow => ({
        id: row.id,
        numberLabel: quoteNumberLabel(row.number),
        customerId: row.customerId,
        customerName: row.customerName,
        status: quoteStatus(sentOnly && row.state === 'draft' ? 'sent' : row.state, row.validUntil, today),
        totalCents: row.totalCents,
        validUntil: row.validUntil,
        createdAt: row.createdAt,
      }),
    ),
  }
}

/** Whether the company has this quote: another company's (or a made-up id) is answered as missing first. */
export async function quoteExists(companyId: string, quoteId: string) {
  if (!isUuid(quoteId)) return false
  const [row] = await db()
    .select({ id: quotes.id })
    .from(quotes)
    .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId)))
  return Boolean(row)
}
