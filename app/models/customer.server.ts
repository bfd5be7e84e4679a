import { and, asc, eq, ilike, or } from 'drizzle-orm'
import { customers } from '~/db/schema'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'

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

/** Escapes LIKE wildcards so typed text is matched literally (the text itself is always a parameter). */
export function likePattern(text: string) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
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
  const text = query.trim().slice(0, 100)
  const filters = [eq(customers.companyId, companyId)]
  if (text) {
    const pattern = likePattern(text)
    const match = or(
      ilike(customers.customerName, pattern),
      ilike(customers.address, pattern),
      ilike(customers.email, pattern),
    )
    if (match) filters.push(match)
  }
  return db()
    .select({ id: customers.id, customerName: customers.customerName, address: customers.address })
    .from(customers)
    .where(and(...filters))
    .orderBy(asc(customers.customerName))
    .limit(limit)
}
