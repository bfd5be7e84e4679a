import { and, eq } from 'drizzle-orm'
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
