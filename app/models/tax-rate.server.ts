// Settings → "Tax rates" (issue 31 item 9; docs/billing.md, "Tax"; docs/decisions/052-tax-rates.md): a company's named
// rates, one of them the default, and the rule an invoice reads them through (`taxRuleOf`). Every change runs under
// the company row's lock, so two tabs cannot leave two defaults or remove a rate a location was just given (the
// locations' foreign key would refuse that too). Another company's rate or location is "not found".
import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm'
import { type NamedRate, type TaxRule, usedByText } from '~/billing/tax'
import { companies, customers, serviceLocations, taxRates } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { customerOfLocation } from './joins.server'

export const TAX_RATE_MESSAGES = {
  notFound: 'That tax rate was not found.',
  locationNotFound: 'That service location was not found.',
  nameTaken: 'Another tax rate has that name.',
  added: 'Tax rate added.',
  saved: 'Tax rate saved.',
  removed: 'Tax rate removed.',
  madeDefault: 'Default tax rate changed.',
} as const

/** "Used by 12 Palm Ave (Jose O'Neil), 4 Bay Rd (Ann Lee): give those locations another rate first." */
export function inUseMessage(places: string[], count = places.length) {
  return `This rate is used by ${usedByText(places, count)}: give ${count === 1 ? 'that location' : 'those locations'} another rate first.`
}

/**
 * The rule an invoice of the company is taxed by: one statement, each rate with the ids of the locations naming it.
 */
export async function taxRuleOf(executor: Database, companyId: string): Promise<TaxRule> {
  const rates = await executor
    .select({
      id: taxRates.id,
      name: taxRates.name,
      milliPercent: taxRates.milliPercent,
      isDefault: taxRates.isDefault,
      locationIds: sql<string[]>`coalesce((select json_agg("service_locations"."id") from "service_locations"
        where "service_locations"."company_id" = "tax_rates"."company_id"
          and "service_locations"."tax_rate_id" = "tax_rates"."id"), '[]'::json)`,
    })
    .from(taxRates)
    .where(eq(taxRates.companyId, companyId))
  const locationRates: Record<string, NamedRate> = {}
  let defaultRate: NamedRate | null = null
  for (const { locationIds, isDefault, ...rate } of rates) {
    for (const locationId of locationIds) locationRates[locationId] = rate
    if (isDefault) defaultRate = rate
  }
  return { defaultRate, locationRates }
}

export type TaxRateRow = {
  id: string
  name: string
  milliPercent: number
  isDefault: boolean
  /** The first `USED_BY_SHOWN` service locations that name this rate ("12 Palm Ave (Jose O'Neil)")… */
  usedBy: string[]
  /** … and how many name it in all. */
  usedByCount: number
}

/** The company's rates for a form's choices (no uses): one statement, the default first. */
async function taxRateChoicesOf(companyId: string) {
  return db()
    .select({
      id: taxRates.id,
      name: taxRates.name,
      milliPercent: taxRates.milliPercent,
      isDefault: taxRates.isDefault,
    })
    .from(taxRates)
    .where(eq(taxRates.companyId, companyId))
    .orderBy(sql`${taxRates.isDefault} desc`, asc(taxRates.createdAt), asc(taxRates.name))
}

/** The company's rates, the default first, then by when they were added, each with the locations naming it. */
export async function listTaxRates(companyId: string): Promise<TaxRateRow[]> {
  const rates = await taxRateChoicesOf(companyId)
  const uses = await usesOf(db(), companyId)
  return rates.map((rate) => ({
    ...rate,
    usedBy: uses.get(rate.id)?.places ?? [],
    usedByCount: uses.get(rate.id)?.count ?? 0,
  }))
}

/** How many of the locations naming a rate are listed by name; the rest are counted ("and 12 more"). */
export const USED_BY_SHOWN = 5

/**
 * The locations naming each rate (or `rateId` alone): the first `USED_BY_SHOWN` by customer and street, and how many
 * there are in all. One statement, bounded whatever the number of locations.
 */
async function usesOf(executor: Database, companyId: string, rateId?: string) {
  const ranked = executor
    .select({
      rateId: sql<string>`${serviceLocations.taxRateId}`.as('rate_id'),
      street: serviceLocations.street,
      label: serviceLocations.label,
      customer: customers.customerName,
      rank: sql<number>`row_number() over (partition by ${serviceLocations.taxRateId} order by ${customers.customerName}, ${serviceLocations.street}, ${serviceLocations.id})`.as(
        'rank',
      ),
      total: sql<number>`count(*) over (partition by ${serviceLocations.taxRateId})`.mapWith(Number).as('total'),
    })
    .from(serviceLocations)
    .innerJoin(customers, customerOfLocation)
    .where(
      and(
        eq(serviceLocations.companyId, companyId),
        rateId ? eq(serviceLocations.taxRateId, rateId) : isNotNull(serviceLocations.taxRateId),
      ),
    )
    .as('ranked')
  const rows = await executor
    .select()
    .from(ranked)
    .where(lte(ranked.rank, USED_BY_SHOWN))
    .orderBy(asc(ranked.rateId), asc(ranked.rank))
  const uses = new Map<string, { places: string[]; count: number }>()
  for (const row of rows) {
    const place = `${row.label ? `${row.label}, ` : ''}${row.street} (${row.customer})`
    const entry = uses.get(row.rateId) ?? { places: [], count: Number(row.total) }
    entry.places.push(place)
    uses.set(row.rateId, entry)
  }
  return uses
}

/** The company's default rate's name and percent, for "Company default (…)"; null when it has none. */
/**
 * The rate a customer's quote is taxed at (docs/quotes.md): their first service location's own rate, else the
 * company's default; null when neither is set. One statement.
 */
export async function customerTaxRate(executor: Database, companyId: string, customerId: string) {
  const [row] = await executor
    .select({ id: taxRates.id, name: taxRates.name, milliPercent: taxRates.milliPercent })
    .from(taxRates)
    .where(
      and(
        eq(taxRates.companyId, companyId),
        sql`${taxRates.id} = coalesce(
          (select "service_locations"."tax_rate_id" from "service_locations"
            where "service_locations"."company_id" = ${companyId} and "service_locations"."customer_id" = ${customerId}
              and "service_locations"."archived_at" is null
            order by "service_locations"."created_at", "service_locations"."id" limit 1),
          (select "tax_rates"."id" from "tax_rates" where "tax_rates"."company_id" = ${companyId} and "tax_rates"."is_default"))`,
      ),
    )
  return row ?? null
}

/** Runs `change` with the company's row locked; a unique violation on the name becomes "Another tax rate has that name." */
async function underCompanyLock<T extends object>(
  companyId: string,
  change: (tx: Database) => Promise<Result<T>>,
): Promise<Result<T>> {
  try {
    return await db().transaction(async (tx) => {
      const [company] = await tx
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.id, companyId))
        .for('update')
      if (!company) return failure('not-found', TAX_RATE_MESSAGES.notFound)
      return change(tx)
    })
  } catch (error) {
    if (pgCode(error) === '23505') return failure('conflict', TAX_RATE_MESSAGES.nameTaken, 'name')
    throw error
  }
}

function pgCode(error: unknown): string | null {
  let current: unknown = error
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^\d{5}$/.test(code)) return code
    current = (current as { cause?: unknown }).cause
  }
  return null
}

async function rateOf(tx: Database, companyId: string, rateId: string, { lock = false } = {}) {
  if (!isUuid(rateId)) return null
  const query = tx
    .select({ id: taxRates.id, isDefault: taxRates.isDefault })
    .from(taxRates)
    .where(and(eq(taxRates.companyId, companyId), eq(taxRates.id, rateId)))
  const [rate] = lock ? await query.for('update') : await query
  return rate ?? null
}

/** "Add rate": the company's first rate becomes its default. */
export async function addTaxRate(companyId: string, fields: { name: string; milliPercent: number }) {
  return underCompanyLock(companyId, async (tx) => {
    const [any] = await tx.select({ id: taxRates.id }).from(taxRates).where(eq(taxRates.companyId, companyId)).limit(1)
    const [row] = await tx
      .insert(taxRates)
      .values({ companyId, name: fields.name.trim(), milliPercent: fields.milliPercent, isDefault: !any })
      .returning({ id: taxRates.id })
    return success({ id: row?.id ?? '' })
  })
}

/**
 * Rename or change the percent. Invoices already made keep their tax lines; drafts take the new percent when next
 * edited or made again, and new invoices use it.
 */
export async function updateTaxRate(companyId: string, rateId: string, fields: { name: string; milliPercent: number }) {
  return underCompanyLock(companyId, async (tx) => {
    if (!(await rateOf(tx, companyId, rateId))) return failure('not-found', TAX_RATE_MESSAGES.notFound)
    await tx
      .update(taxRates)
      .set({ name: fields.name.trim(), milliPercent: fields.milliPercent })
      .where(and(eq(taxRates.companyId, companyId), eq(taxRates.id, rateId)))
    return success({})
  })
}

/** "Make default": the one rate used by every location that names none. */
export async function makeDefaultTaxRate(companyId: string, rateId: string) {
  return underCompanyLock(companyId, async (tx) => {
    if (!(await rateOf(tx, companyId, rateId))) return failure('not-found', TAX_RATE_MESSAGES.notFound)
    await tx
      .update(taxRates)
      .set({ isDefault: false })
      .where(and(eq(taxRates.companyId, companyId), eq(taxRates.isDefault, true)))
    await tx
      .update(taxRates)
      .set({ isDefault: true })
      .where(and(eq(taxRates.companyId, companyId), eq(taxRates.id, rateId)))
    return success({})
  })
}

/**
 * "Remove": refused while a location names the rate (the message says which). Removing the default leaves the
 * company without one — locations that name no rate are then not taxed — unless another rate is made default.
 */
export async function removeTaxRate(companyId: string, rateId: string) {
  return underCompanyLock(companyId, async (tx) => {
    // Locked first: a location being saved with this rate (which holds it, service-location.server.ts) is counted
    // below once it is saved, and a location saved after waits and finds the rate gone.
    if (!(await rateOf(tx, companyId, rateId, { lock: true }))) return failure('not-found', TAX_RATE_MESSAGES.notFound)
    const uses = (await usesOf(tx, companyId, rateId)).get(rateId)
    if (uses) return failure('conflict', inUseMessage(uses.places, uses.count))
    await tx.delete(taxRates).where(and(eq(taxRates.companyId, companyId), eq(taxRates.id, rateId)))
    return success({})
  })
}

/** A location's "Tax rate": a rate of the company, or null for the company's default. */
export async function setLocationTaxRate(companyId: string, locationId: string, rateId: string | null) {
  if (!isUuid(locationId)) return failure('not-found', TAX_RATE_MESSAGES.locationNotFound)
  return underCompanyLock(companyId, async (tx) => {
    if (rateId !== null && !(await rateOf(tx, companyId, rateId))) {
      return failure('invalid', TAX_RATE_MESSAGES.notFound, 'taxRateId')
    }
    const updated = await tx
      .update(serviceLocations)
      .set({ taxRateId: rateId })
      .where(and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.id, locationId)))
      .returning({ id: serviceLocations.id })
    if (updated.length === 0) return failure('not-found', TAX_RATE_MESSAGES.locationNotFound)
    return success({})
  })
}
