// Finding customers by what the office types (docs/product.md "Customers": a search, not a long dropdown): the
// filter the list and the API share, and the new-visit form's picker. Both stay on the trigram indexes of the schema
// however many customers a company has.
import { and, asc, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import { customers, serviceLocations } from '~/db/schema'
import { formatAddress } from '~/utils/address'
import type { CustomerStatus } from '~/utils/customer-fields'
import { db } from '~/utils/db.server'
import { addressColumns } from './customer-columns.server'
import { locationOrder } from './service-location.server'

/**
 * Escapes LIKE wildcards so typed text is matched literally (the text itself is always a
 * parameter). NUL characters are dropped: PostgreSQL text cannot hold them, and no one types one.
 */
export function likePattern(text: string) {
  return `%${text.replaceAll('\u0000', '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/**
 * What searches match, as one text per row: the same expressions as the trigram indexes of the schema
 * (`customers_company_search_trgm_idx`, `service_locations_company_search_trgm_idx`), so `ilike` uses them.
 */
const customerSearchText = sql<string>`(${customers.customerName} || ' ' || coalesce(${customers.email}, '') || ' ' || coalesce(${customers.phone}, ''))`
const locationSearchText = sql<string>`(coalesce(${serviceLocations.label}, '') || ' ' || ${serviceLocations.street} || ' ' || coalesce(${serviceLocations.city}, '') || ' ' || coalesce(${serviceLocations.state}, '') || ' ' || coalesce(${serviceLocations.postalCode}, ''))`

/**
 * The typed text as a search: null for none, 'nothing' for text that can identify nobody (punctuation alone —
 * every address has a comma), else the LIKE pattern and, for text that looks like a phone number, its digits
 * (phones are stored as "+18135550101", so "813-555" is looked for as "813555").
 */
function searchTerms(query: string | undefined) {
  // NUL characters are dropped here too: the text also goes to word_similarity as a parameter, not only to LIKE.
  const text = (query ?? '').replaceAll('\u0000', '').trim().slice(0, 100)
  if (!text) return null
  if (!/[\p{L}\p{N}]/u.test(text)) return 'nothing' as const
  const digits = text.replace(/\D/g, '')
  const phoneLike = /^[\d\s()+.-]+$/.test(text) && digits.length >= 3
  return { text, pattern: likePattern(text), digitsPattern: phoneLike ? likePattern(digits) : null }
}

/**
 * Customers of the company whose name, email, phone or any location's address contains the typed text: the ids
 * matching in either table, each found on its trigram index (a union rather than an OR, which no index answers).
 */
export function customerFilter(companyId: string, query: string | undefined, status?: CustomerStatus) {
  const filters: Array<SQL | undefined> = [eq(customers.companyId, companyId)]
  if (status) filters.push(eq(customers.status, status))
  const terms = searchTerms(query)
  if (terms === 'nothing') filters.push(sql`false`)
  else if (terms) {
    const byCustomer = db()
      .select({ id: customers.id })
      .from(customers)
      .where(
        and(
          eq(customers.companyId, companyId),
          or(
            ilike(customerSearchText, terms.pattern),
            terms.digitsPattern ? ilike(customerSearchText, terms.digitsPattern) : undefined,
          ),
        ),
      )
    const byLocation = db()
      .select({ id: serviceLocations.customerId })
      .from(serviceLocations)
      .where(and(eq(serviceLocations.companyId, companyId), ilike(locationSearchText, terms.pattern)))
    filters.push(sql`${customers.id} in (${byCustomer} union ${byLocation})`)
  }
  return and(...filters)
}

/** The customer picker's page size (docs/product.md "Customers": a search, not a 20-item dropdown). */
export const PICKER_LIMIT = 10

/**
 * The new-visit form's customer picker: up to `limit` ACTIVE customers matching the typed text (name, email, phone,
 * any location's address), best first — names starting with the text, then the closest names (trigram word
 * similarity), then by name — each with its locations in use. Two queries, both on indexes, however many
 * customers the company has.
 */
export async function pickCustomers({
  companyId,
  query,
  limit = PICKER_LIMIT,
}: {
  companyId: string
  query: string
  limit?: number
}) {
  const terms = searchTerms(query)
  // Names starting with the text, then names with a word starting with it, then the closest (trigrams).
  const prefix = likePattern(terms && terms !== 'nothing' ? terms.text : '').slice(1)
  const relevance =
    terms && terms !== 'nothing'
      ? [
          desc(sql`${customers.customerName} ilike ${prefix}`),
          desc(sql`${customers.customerName} ilike ${`% ${prefix}`}`),
          desc(sql`word_similarity(${terms.text}, ${customerSearchText})`),
        ]
      : []
  const found = await db()
    .select({ id: customers.id, customerName: customers.customerName, email: customers.email, phone: customers.phone })
    .from(customers)
    .where(customerFilter(companyId, query, 'active'))
    .orderBy(...relevance, asc(customers.customerName), asc(customers.id))
    .limit(Math.min(Math.max(1, limit), 50))
  if (found.length === 0) return []
  const locations = await db()
    .select({
      id: serviceLocations.id,
      customerId: serviceLocations.customerId,
      label: serviceLocations.label,
      ...addressColumns,
    })
    .from(serviceLocations)
    .where(
      and(
        eq(serviceLocations.companyId, companyId),
        inArray(
          serviceLocations.customerId,
          found.map((customer) => customer.id),
        ),
        isNull(serviceLocations.archivedAt),
      ),
    )
    .orderBy(...locationOrder)
  return found.map((customer) => ({
    ...customer,
    locations: locations
      .filter((location) => location.customerId === customer.id)
      .map((location) => ({ id: location.id, label: location.label, address: formatAddress(location) })),
  }))
}
