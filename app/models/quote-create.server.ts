// "New quote" (issue 33 item 2; docs/quotes.md): a draft numbered per company, version 1 with no lines and "Valid
// until" 30 days on, for the company's own customer — and for one of their equipment items when started from it
// (docs/decisions/061-equipment-history-and-quote-events.md).
import { and, eq, sql } from 'drizzle-orm'
import { bodiesOfWater, companies, customers, equipment, quotes, quoteVersions, serviceLocations } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { bodyOfEquipment, locationOfBody } from './joins.server'
import { QUOTE_MESSAGES } from './quote-edits.server'
import { customerTaxRate } from './tax-rate.server'

/** A new quote is valid for 30 days unless the office says otherwise. */
export const DEFAULT_VALID_DAYS = 30

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
    .innerJoin(bodiesOfWater, bodyOfEquipment)
    .innerJoin(serviceLocations, locationOfBody)
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
