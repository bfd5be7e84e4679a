// One-time invitation links. The invitee's login and profile are created first (role and
// company set by the server, never by the invitee); the emailed link then signs them in once.
import { randomUUID } from 'node:crypto'
import { and, eq, gt, sql } from 'drizzle-orm'
import { companies, customers, emailOutbox, profiles, user } from '~/db/schema'
import type { InviteMetadata } from '~/emails/invite-email'
import { getAuth } from '~/utils/auth.server'
import { db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'

export type InviteResult = { ok: true; message: string } | { ok: false; message: string }

export const EMAIL_TAKEN = 'That email already belongs to another Pool Bud account. Use a different email address.'

/** At most this many invitations go to one address per hour (no mail-bombing through invites). */
export const INVITES_PER_ADDRESS_PER_HOUR = 3

/** Whether the outbox already holds the hourly allowance of emails to `email`. */
export async function tooManyRecentEmails(email: string) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), gt(emailOutbox.createdAt, new Date(Date.now() - 60 * 60_000))))
  return (row?.n ?? 0) >= INVITES_PER_ADDRESS_PER_HOUR
}

/** Emails a one-time sign-in link that lands on `callbackURL`. */
export async function sendInviteLink(email: string, callbackURL: string, metadata: InviteMetadata) {
  await getAuth().api.signInMagicLink({
    body: { email, callbackURL, errorCallbackURL: '/login?invite=invalid', metadata },
    headers: new Headers(),
  })
}

/**
 * Emails the customer a one-time link that signs them in and lands on
 * /customer-setup?customerId=…; creates their portal login if they have none yet.
 * Refuses emails that belong to staff, platform admins or another customer; never moves them.
 */
export async function inviteCustomer({
  companyId,
  customerId,
}: {
  companyId: string
  customerId: string
}): Promise<InviteResult> {
  const [customer] = await db()
    .select({
      id: customers.id,
      name: customers.customerName,
      email: customers.email,
      portalUserId: customers.portalUserId,
      companyName: companies.name,
    })
    .from(customers)
    .innerJoin(companies, eq(companies.id, customers.companyId))
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .limit(1)
  if (!customer) return { ok: false, message: 'Customer not found.' }
  const email = customer.email?.trim().toLowerCase()
  if (!email) return { ok: false, message: 'Add an email address to this customer first.' }

  const [existing] = await db()
    .select({ id: user.id, role: profiles.role, setupDone: profiles.hasCompletedSetup })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(sql`lower(${user.email}) = ${email}`)
    .limit(1)
  if (existing && existing.id !== customer.portalUserId) return { ok: false, message: EMAIL_TAKEN }
  if (customer.portalUserId) {
    // An active portal login is never replaced by an invite (even after an email change).
    const [current] = await db()
      .select({ setupDone: profiles.hasCompletedSetup })
      .from(profiles)
      .where(eq(profiles.id, customer.portalUserId))
    if (current?.setupDone) return { ok: false, message: 'This customer already has portal access.' }
  }

  if (await tooManyRecentEmails(email)) {
    return { ok: false, message: 'Several invitations went to this address in the last hour. Try again later.' }
  }

  try {
    let portalUserId = existing?.id
    if (!portalUserId) {
      portalUserId = randomUUID()
      const id = portalUserId
      await db().transaction(async (tx) => {
        await tx.insert(user).values({ id, email, name: customer.name, emailVerified: false })
        await tx.insert(profiles).values({
          id,
          companyId,
          role: 'customer',
          fullName: customer.name,
          email,
          hasCompletedSetup: false,
        })
        // The login replaces an earlier, unused one of this customer (their email changed).
        await tx.update(customers).set({ portalUserId: id }).where(eq(customers.id, customer.id))
      })
      if (customer.portalUserId) await db().delete(user).where(eq(user.id, customer.portalUserId))
    }
    await sendInviteLink(email, `/customer-setup?customerId=${customer.id}`, {
      kind: 'customer',
      companyId,
      companyName: customer.companyName,
      customerName: customer.name,
    })
    return { ok: true, message: `Portal invite sent to ${email}.` }
  } catch (error) {
    logger.error({ err: error, customerId }, 'customer invite failed')
    return { ok: false, message: 'Unable to send invite.' }
  }
}
