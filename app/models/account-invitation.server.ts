// Invitations to an account that exists already (decision 011; security review F3 and F14). A verified person with
// no company — or whose only company is a trial of their own that nobody else has joined — can be invited to a
// company; nothing about their account changes until they sign in and accept on /invitations.
import { and, asc, eq, ne, sql } from 'drizzle-orm'
import { companies, type InvitationRole, invitations, profiles, user } from '~/db/schema'
import { sendEmail } from '~/outbox/email.server'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { isUuid } from '~/utils/ids'
import { ROLE_LABELS } from '~/utils/permissions'
import { failure, type Result, success } from '~/utils/result'

/** The page where a signed-in person accepts or declines (the email links to it; no token). */
export const INVITATIONS_PATH = '/invitations'

export const ACCEPT_MESSAGES = {
  notFound: 'This invitation is no longer open.',
  member: 'You are already a member of a company, so this invitation can no longer be accepted.',
} as const

type AccountState = { id: string; email: string; name: string; role: string | null; companyId: string | null }

/** Where an account stands, optionally locked until the transaction ends. */
async function accountState(executor: Database, userId: string, { lock = false } = {}): Promise<AccountState | null> {
  const query = executor
    .select({ id: user.id, email: user.email, name: user.name, role: profiles.role, companyId: profiles.companyId })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.id, userId))
  const [row] = lock ? await query.for('update', { of: user }) : await query
  return row ?? null
}

/**
 * Whether the account may join a company: it has no membership, or it owns a trial company of its own that holds no
 * other person (staff, pending invitee or portal customer). Answers the trial company it would leave, if any.
 */
export async function joinableAs(
  executor: Database,
  account: { id: string; role: string | null; companyId: string | null },
): Promise<{ trialCompanyId: string | null } | null> {
  if (account.role == null && account.companyId == null) return { trialCompanyId: null }
  if (account.role !== 'owner' || !account.companyId) return null
  const [company] = await executor
    .select({ trialEndsAt: companies.trialEndsAt })
    .from(companies)
    .where(eq(companies.id, account.companyId))
  if (!company?.trialEndsAt) return null
  const [others] = await executor
    .select({ n: sql<number>`count(*)::int` })
    .from(profiles)
    .where(and(eq(profiles.companyId, account.companyId), ne(profiles.id, account.id)))
  if ((others?.n ?? 0) > 0) return null
  return { trialCompanyId: account.companyId }
}

/**
 * Records (or renews) the company's invitation of an existing account and queues the email that asks them to sign
 * in and accept, in the caller's transaction. The latest invitation of a company sets the role.
 */
export async function offerInvitation(
  tx: Database,
  invite: {
    companyId: string
    companyName: string
    userId: string
    email: string
    role: InvitationRole
    invitedBy: string | null
  },
) {
  await tx
    .insert(invitations)
    .values({ companyId: invite.companyId, userId: invite.userId, role: invite.role, invitedBy: invite.invitedBy })
    .onConflictDoUpdate({
      target: [invitations.companyId, invitations.userId],
      set: { role: invite.role, invitedBy: invite.invitedBy, createdAt: new Date() },
    })
  const url = new URL(INVITATIONS_PATH, env().APP_URL).toString()
  await sendEmail(
    {
      to: invite.email,
      companyId: invite.companyId,
      template: 'join-invitation',
      props: { url, companyName: invite.companyName, roleLabel: ROLE_LABELS[invite.role] },
    },
    tx,
  )
}

export type OpenInvitation = { id: string; companyName: string; roleLabel: string; invitedBy: string | null }

/**
 * The invitations the user can accept now, and the trial company they would leave; null when the account cannot
 * join a company (a member of one, a customer, a platform admin).
 */
export async function listOpenInvitations(userId: string) {
  const account = await accountState(db(), userId)
  const joinable = account ? await joinableAs(db(), account) : null
  if (!joinable) return null
  const rows = await db()
    .select({
      id: invitations.id,
      role: invitations.role,
      companyName: companies.name,
      invitedBy: profiles.fullName,
    })
    .from(invitations)
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .leftJoin(profiles, eq(profiles.id, invitations.invitedBy))
    .where(eq(invitations.userId, userId))
    .orderBy(asc(invitations.createdAt))
  const [trial] = joinable.trialCompanyId
    ? await db().select({ name: companies.name }).from(companies).where(eq(companies.id, joinable.trialCompanyId))
    : []
  return {
    invitations: rows.map(
      (row): OpenInvitation => ({
        id: row.id,
        companyName: row.companyName,
        roleLabel: ROLE_LABELS[row.role],
        invitedBy: row.invitedBy,
      }),
    ),
    trialCompanyName: trial?.name ?? null,
  }
}

/** Whether the user has an invitation they can accept now (sign-in sends them to /invitations then). */
export async function hasOpenInvitation(userId: string) {
  const [row] = await db()
    .select({ id: invitations.id })
    .from(invitations)
    .where(eq(invitations.userId, userId))
    .limit(1)
  if (!row) return false
  const account = await accountState(db(), userId)
  return Boolean(account && (await joinableAs(db(), account)))
}

/**
 * Accepts one invitation, in one transaction: the user becomes a member of that company with its role (an owner
 * invitation makes the company's previous owners admins), and their other invitations close. A trial company they
 * leave keeps its data, without members, and its own open invitations close (decision 011).
 */
export async function acceptInvitation({
  userId,
  invitationId,
}: {
  userId: string
  invitationId: string
}): Promise<Result<{ companyId: string }>> {
  if (!isUuid(invitationId)) return failure('not-found', ACCEPT_MESSAGES.notFound)
  return db().transaction(async (tx): Promise<Result<{ companyId: string }>> => {
    const account = await accountState(tx, userId, { lock: true })
    const [invitation] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.id, invitationId), eq(invitations.userId, userId)))
    if (!account || !invitation) return failure('not-found', ACCEPT_MESSAGES.notFound)
    const joinable = await joinableAs(tx, account)
    if (!joinable) return failure('conflict', ACCEPT_MESSAGES.member)
    if (joinable.trialCompanyId) {
      await tx.delete(invitations).where(eq(invitations.companyId, joinable.trialCompanyId))
    }
    const { companyId, role } = invitation
    if (role === 'owner') {
      await tx
        .update(profiles)
        .set({ role: 'admin' })
        .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'owner'), ne(profiles.id, userId)))
    }
    await tx
      .insert(profiles)
      .values({ id: userId, email: account.email, fullName: account.name, role, companyId, hasCompletedSetup: true })
      .onConflictDoUpdate({
        target: profiles.id,
        set: {
          role,
          companyId,
          hasCompletedSetup: true,
          fullName: sql`coalesce(${profiles.fullName}, excluded.full_name)`,
        },
      })
    await tx.delete(invitations).where(eq(invitations.userId, userId))
    return success({ companyId })
  })
}

/** Declines one invitation: it closes, and nothing else about the account changes. */
export async function declineInvitation({
  userId,
  invitationId,
}: {
  userId: string
  invitationId: string
}): Promise<Result> {
  if (!isUuid(invitationId)) return failure('not-found', ACCEPT_MESSAGES.notFound)
  const closed = await db()
    .delete(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.userId, userId)))
    .returning({ id: invitations.id })
  return closed.length ? success({}) : failure('not-found', ACCEPT_MESSAGES.notFound)
}
