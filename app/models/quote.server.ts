// One quote as the office and the customer see it (issue 33 items 2–3; docs/quotes.md): a version with its lines
// (the current one, a given one from the history, or the customer's latest sent), the customer, their address and
// the equipment item; "Viewed" on the customer's first look; whether the company has the quote at all.
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm'
import {
  type Deposit,
  type QuoteStatus,
  quoteNumberLabel,
  quoteStatus,
  type StoredQuoteState,
} from '~/billing/quote-math'
import { companies, customers, equipment, quoteLines, quotes, quoteVersions } from '~/db/schema'
import type { AddressParts } from '~/utils/address'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { firstLocationOf } from './service-location.server'

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

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

/** Whether the company has this quote: another company's (or a made-up id) is answered as missing first. */
export async function quoteExists(companyId: string, quoteId: string) {
  if (!isUuid(quoteId)) return false
  const [row] = await db()
    .select({ id: quotes.id })
    .from(quotes)
    .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId)))
  return Boolean(row)
}
