// What every invitation shares (decisions 004 and 011): the invitee's account as it stands, taking over an account
// that nobody proved to own, the limits on invitation emails, and the one-time link, created and queued in the
// transaction that creates the invitee (fault drill #3). Customer-portal invitations live here too.
import { randomUUID } from 'node:crypto'
import { and, eq, gt, sql } from 'drizzle-orm'
import { account, companies, customers, emailOutbox, profiles, session, user } from '~/db/schema'
import type { InviteMetadata } from '~/mail/templates'
import { sendEmail } from '~/outbox/email.server'
import { kickOutboxWorker } from '~/outbox/worker.server'
import { type Database, db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { hitRateLimit, type RateLimitRule } from '~/utils/rate-limit.server'
import { type Failure, failure, type Result, success } from '~/utils/result'
import { createInviteLink, voidAllLinksOf } from './sign-in-links.server'

export const EMAIL_TAKEN = 'That email already belongs to another Pool Bud account. Use a different email address.'

/** At most this many emails go to one address per hour (no mail-bombing through invites). */
export const INVITES_PER_ADDRESS_PER_HOUR = 3

/** Invitation emails a company may send: per hour (F4: probing addresses), and per day while on trial (F7: spam). */
export const INVITE_LIMITS = {
  perCompany: { name: 'company-invitations', max: 30, windowSeconds: 60 * 60 },
  trialPerDay: { name: 'trial-invitations', max: 10, windowSeconds: 24 * 60 * 60 },
} as const satisfies Record<string, RateLimitRule>

export const INVITE_LIMIT_MESSAGES = {
  perAddress: 'Several invitations went to this address in the last hour. Try again later.',
  perCompany: (minutes: number) =>
    `Your company has sent ${INVITE_LIMITS.perCompany.max} invitations in the last hour, the most we allow. Try again in ${minutes} minutes.`,
  trialPerDay: (hours: number) =>
    `A trial company can send ${INVITE_LIMITS.trialPerDay.max} invitations a day. Try again in ${hours} hours.`,
} as const

/** Whether the outbox already holds the hourly allowance of emails to `email`. */
export async function tooManyRecentEmails(email: string, executor: Database = db()) {
  const [row] = await executor
    .select({ n: sql<number>`count(*)::int` })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), gt(emailOutbox.createdAt, new Date(Date.now() - 60 * 60_000))))
  return (row?.n ?? 0) >= INVITES_PER_ADDRESS_PER_HOUR
}

/**
 * Counts one invitation email of the company against its limits, in the caller's transaction; a failure to
 * answer (429) when it is over one. Every invitation counts alike, whatever the address turns out to be.
 */
export async function spendInvitation(executor: Database, companyId: string): Promise<Failure | null> {
  const hourly = await hitRateLimit(INVITE_LIMITS.perCompany, companyId, { executor })
  if (hourly.limited) {
    return failure('rate-limited', INVITE_LIMIT_MESSAGES.perCompany(Math.ceil(hourly.retryAfterSeconds / 60)))
  }
  const [company] = await executor
    .select({ trialEndsAt: companies.trialEndsAt })
    .from(companies)
    .where(eq(companies.id, companyId))
  if (!company?.trialEndsAt) return null
  const daily = await hitRateLimit(INVITE_LIMITS.trialPerDay, companyId, { executor })
  if (daily.limited) {
    return failure('rate-limited', INVITE_LIMIT_MESSAGES.trialPerDay(Math.ceil(daily.retryAfterSeconds / 3600)))
  }
  return null
}

export type Invitee = {
  id: string
  email: string
  emailVerified: boolean
  profileId: string | null
  companyId: string | null
  role: (typeof profiles.$inferSelect)['role']
  hasCompletedSetup: boolean | null
  deactivatedAt: Date | null
}

/** The account that holds `email`, locked until the transaction ends (two invitations of one address queue up). */
export async function findInvitee(tx: Database, email: string): Promise<Invitee | null> {
  const [row] = await tx
    .select({
      id: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
      profileId: profiles.id,
      companyId: profiles.companyId,
      role: profiles.role,
      hasCompletedSetup: profiles.hasCompletedSetup,
      deactivatedAt: profiles.deactivatedAt,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(sql`lower(${user.email}) = ${email}`)
    .limit(1)
    .for('update', { of: user })
  return row ?? null
}

/** Someone signed up with this address and never confirmed it: nobody has shown that the account is theirs. */
export function isUnverifiedSignUp(invitee: Invitee) {
  return !invitee.emailVerified && invitee.role == null && invitee.companyId == null
}

/**
 * Takes away every way into an account except the invitation link about to be sent (security review F3): its
 * password and other sign-ins, its sessions, and its outstanding links. Used when an invitation adopts an account
 * that nobody proved to own, so the company never opens to a password the invitee did not choose.
 */
export async function revokeAccountAccess(tx: Database, userId: string) {
  await tx.delete(account).where(eq(account.userId, userId))
  await tx.delete(session).where(eq(session.userId, userId))
  await voidAllLinksOf(tx, userId)
}

/** Creates the invitee's one-time link and queues its email, both in the caller's transaction. */
export async function queueInviteLink(
  tx: Database,
  {
    email,
    callbackURL,
    invite,
    companyId,
  }: {
    email: string
    callbackURL: string
    invite: InviteMetadata
    /** The company inviting: its office is told if the email can never be delivered (none for a platform admin). */
    companyId: string | null
  },
) {
  const url = await createInviteLink(tx, { email, callbackURL })
  await sendEmail({ to: email, companyId, template: 'invite', props: { url, invite } }, tx)
}

/**
 * Emails the customer a one-time link that signs them in and lands on /customer-setup?customerId=…; creates their
 * portal login if they have none yet, in the same transaction as the link and the email. Refuses, with a clear
 * message, an email of staff, a platform admin or another customer (office staff must use another address for
 * this customer); never moves that account.
 */
export async function inviteCustomer({
  companyId,
  customerId,
}: {
  companyId: string
  customerId: string
}): Promise<Result<{ message: string }>> {
  try {
    const outcome = await db().transaction(async (tx): Promise<Result<{ message: string }>> => {
      const [customer] = await tx
        .select({
          id: customers.id,
          name: customers.customerName,
          email: customers.email,
          status: customers.status,
          portalUserId: customers.portalUserId,
          companyName: companies.name,
        })
        .from(customers)
        .innerJoin(companies, eq(companies.id, customers.companyId))
        .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
        .limit(1)
        .for('update', { of: customers })
      if (!customer) return failure('not-found', 'Customer not found.')
      // Archiving ended this customer's portal access; restoring them is what gives it back.
      if (customer.status === 'archived') return failure('invalid', 'This customer is archived. Restore them first.')
      const email = customer.email?.trim().toLowerCase()
      if (!email) return failure('invalid', 'Add an email address to this customer first.')

      const existing = await findInvitee(tx, email)
      if (existing && existing.id !== customer.portalUserId) return failure('invalid', EMAIL_TAKEN)
      if (customer.portalUserId) {
        // An active portal login is never replaced by an invite (even after an email change).
        const [current] = await tx
          .select({ setupDone: profiles.hasCompletedSetup })
          .from(profiles)
          .where(eq(profiles.id, customer.portalUserId))
        if (current?.setupDone) return failure('invalid', 'This customer already has portal access.')
      }
      if (await tooManyRecentEmails(email, tx)) return failure('rate-limited', INVITE_LIMIT_MESSAGES.perAddress)
      const limited = await spendInvitation(tx, companyId)
      if (limited) return limited

      if (!existing) {
        const id = randomUUID()
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
        if (customer.portalUserId) await tx.delete(user).where(eq(user.id, customer.portalUserId))
      }
      await queueInviteLink(tx, {
        email,
        callbackURL: `/customer-setup?customerId=${customer.id}`,
        invite: { kind: 'customer', companyName: customer.companyName },
        companyId,
      })
      return success({ message: `Portal invite sent to ${email}.` })
    })
    // Committed: deliver without waiting for the worker's next tick.
    if (outcome.ok) kickOutboxWorker()
    return outcome
  } catch (error) {
    logger.error({ err: error, customerId }, 'customer invite failed')
    return failure('failed', 'Unable to send invite.')
  }
}
