import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm'
import { customers, profiles } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import type { Sanitiser, Surface } from '~/water/targets'

/** The customer record a portal login belongs to. */
export async function getCustomerIdForPortalUser(userId: string) {
  const [row] = await db()
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.portalUserId, userId))
    .limit(1)
  return row?.id ?? null
}

/** The portal header fields of one customer, only within `companyId`. */
export async function getPortalCustomer({ companyId, customerId }: { companyId: string; customerId: string }) {
  if (!isUuid(customerId)) return null
  const [row] = await db()
    .select({
      id: customers.id,
      companyId: customers.companyId,
      customerName: customers.customerName,
      address: customers.address,
      phone: customers.phone,
      balanceDue: customers.balanceDue,
      portalUserId: customers.portalUserId,
    })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .limit(1)
  return row ?? null
}

/**
 * Escapes LIKE wildcards so typed text is matched literally (the text itself is always a
 * parameter). NUL characters are dropped: PostgreSQL text cannot hold them, and no one types one.
 */
export function likePattern(text: string) {
  return `%${text.replaceAll('\u0000', '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Customers whose name, address or email contains `query`, by name (the job form's picker). */
export async function searchCustomers({
  companyId,
  query,
  limit = 20,
}: {
  companyId: string
  query: string
  limit?: number
}) {
  return db()
    .select({ id: customers.id, customerName: customers.customerName, address: customers.address })
    .from(customers)
    .where(customerFilter(companyId, query))
    .orderBy(asc(customers.customerName))
    .limit(limit)
}

// ---- Customers screen (/app/customers) ----

/** Whether a customer can sign in to their portal: no login, invited but not set up, or set up. */
export type PortalStatus = 'none' | 'invited' | 'active'

export type CustomerFields = {
  customerName: string
  address: string
  email: string | null
  phone: string | null
  /** Pool profile; left out (undefined) it is not changed, null clears it. */
  poolVolumeGallons?: number | null
  poolSurface?: Surface | null
  poolSanitiser?: Sanitiser | null
  poolIndoor?: boolean | null
}

/** Trimmed text, blank as null; emails lowercased so the same address is always the same row value. */
function cleanFields(fields: CustomerFields): CustomerFields {
  const optional = (value: string | null) => value?.trim() || null
  return {
    customerName: fields.customerName.trim(),
    address: fields.address.trim(),
    email: optional(fields.email)?.toLowerCase() ?? null,
    phone: optional(fields.phone),
    poolVolumeGallons: fields.poolVolumeGallons,
    poolSurface: fields.poolSurface,
    poolSanitiser: fields.poolSanitiser,
    poolIndoor: fields.poolIndoor,
  }
}

/**
 * The company filter plus, when `query` has text, a literal match on name, address or email.
 * Text without a letter or digit (`%`, `,`, `)` …) matches nothing: every address has a comma,
 * and punctuation alone never identifies a customer.
 */
function customerFilter(companyId: string, query: string | undefined) {
  const filters: SQL[] = [eq(customers.companyId, companyId)]
  const text = (query ?? '').trim().slice(0, 100)
  if (text && !/[\p{L}\p{N}]/u.test(text)) filters.push(sql`false`)
  else if (text) {
    const pattern = likePattern(text)
    const match = or(
      ilike(customers.customerName, pattern),
      ilike(customers.address, pattern),
      ilike(customers.email, pattern),
    )
    if (match) filters.push(match)
  }
  return and(...filters)
}

/**
 * One page of the company's customers by name, with balance and portal status, plus the
 * total matching count. Rows and total come from one query (a window count); only a page past
 * the end needs a second, counting query.
 */
export async function listCustomers({
  companyId,
  query = '',
  page = 1,
  pageSize = 50,
}: {
  companyId: string
  query?: string
  page?: number
  pageSize?: number
}) {
  const size = Math.max(1, Math.floor(pageSize))
  const current = Number.isFinite(page) ? Math.max(1, Math.floor(page)) : 1
  const where = customerFilter(companyId, query)
  const rows = await db()
    .select({
      id: customers.id,
      customerName: customers.customerName,
      address: customers.address,
      email: customers.email,
      phone: customers.phone,
      balanceDue: customers.balanceDue,
      createdAt: customers.createdAt,
      // A portal login exists once invited; it is active after the customer finished setup.
      portalStatus: sql<PortalStatus>`case
        when ${customers.portalUserId} is null then 'none'
        when coalesce(${profiles.hasCompletedSetup}, false) then 'active'
        else 'invited' end`,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(customers)
    .leftJoin(profiles, eq(profiles.id, customers.portalUserId))
    .where(where)
    // The id breaks ties between equal names so pages never overlap or skip a row.
    .orderBy(asc(customers.customerName), asc(customers.id))
    .limit(size)
    .offset((current - 1) * size)
  let total = rows[0]?.total ?? 0
  if (rows.length === 0 && current > 1) {
    const [counted] = await db().select({ value: count() }).from(customers).where(where)
    total = counted?.value ?? 0
  }
  return { rows: rows.map(({ total: _total, ...row }) => row), total }
}

/** One customer of `companyId`; null for another company's id or anything that is not an id. */
export async function getCustomer({ companyId, customerId }: { companyId: string; customerId: string }) {
  if (!isUuid(customerId)) return null
  const [row] = await db()
    .select({
      id: customers.id,
      customerName: customers.customerName,
      address: customers.address,
      email: customers.email,
      phone: customers.phone,
      balanceDue: customers.balanceDue,
      portalUserId: customers.portalUserId,
      createdAt: customers.createdAt,
      poolVolumeGallons: customers.poolVolumeGallons,
      poolSurface: customers.poolSurface,
      poolSanitiser: customers.poolSanitiser,
      poolIndoor: customers.poolIndoor,
    })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .limit(1)
  return row ?? null
}

/** Adds a customer to `companyId`; returns its id. */
export async function createCustomer(
  { companyId, ...fields }: CustomerFields & { companyId: string },
  executor: Pick<Database, 'insert'> = db(),
) {
  const [row] = await executor
    .insert(customers)
    .values({ companyId, ...cleanFields(fields) })
    .returning({ id: customers.id })
  if (!row) throw new Error('customer insert returned no row')
  return row
}

/** Changes a customer's contact fields; false when the id is not one of `companyId`'s customers. */
export async function updateCustomer({
  companyId,
  customerId,
  ...fields
}: CustomerFields & { companyId: string; customerId: string }) {
  if (!isUuid(customerId)) return false
  const rows = await db()
    .update(customers)
    .set(cleanFields(fields))
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .returning({ id: customers.id })
  return rows.length > 0
}
