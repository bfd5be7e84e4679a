// A company's staff: inviting teammates, changing their role, deactivating them (docs/product.md "Forms", "Roles";
// docs/product.md "Roles"). Roles and companies are only ever set here, by accepting an invitation
// (account-invitation.server.ts) and by ownership transfer.
import { randomUUID } from 'node:crypto'
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import { companies, type InvitationRole, profiles, servicePlans, session, user, visits } from '~/db/schema'
import { sendEmail } from '~/outbox/email.server'
import { kickOutboxWorker } from '~/outbox/worker.server'
import { db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { logger } from '~/utils/logger.server'
import { INVITABLE_ROLES, ROLE_LABELS, type Role, type StaffRole } from '~/utils/permissions'
import { failure, type Result, success } from '~/utils/result'
import type { TeamMember, TeamMemberStatus } from '~/utils/team'
import { joinableAs, offerInvitation } from './account-invitation.server'
import {
  findInvitee,
  INVITE_LIMIT_MESSAGES,
  type Invitee,
  isUnverifiedSignUp,
  queueInviteLink,
  revokeAccountAccess,
  spendInvitation,
  tooManyRecentEmails,
} from './invitation.server'

export const STAFF_ROLES = ['owner', 'admin', 'dispatcher', 'tech'] as const satisfies readonly StaffRole[]
/** Roles an owner may give a member (ownership itself moves only by transfer). */
export const ASSIGNABLE_ROLES = ['admin', 'dispatcher', 'tech'] as const satisfies readonly StaffRole[]
/** Display order: who runs the company first. */
const ROLE_ORDER = sql`array_position(array['owner','admin','dispatcher','tech']::text[], ${profiles.role})`

function statusOf(row: { hasCompletedSetup: boolean; deactivatedAt: Date | null }): TeamMemberStatus {
  if (row.deactivatedAt) return 'deactivated'
  return row.hasCompletedSetup ? 'active' : 'pending'
}

const MEMBER_COLUMNS = {
  id: profiles.id,
  fullName: profiles.fullName,
  email: profiles.email,
  phone: profiles.phone,
  role: profiles.role,
  hasCompletedSetup: profiles.hasCompletedSetup,
  deactivatedAt: profiles.deactivatedAt,
}

function toMember(row: {
  id: string
  fullName: string | null
  email: string
  phone: string | null
  role: string | null
  hasCompletedSetup: boolean
  deactivatedAt: Date | null
}): TeamMember {
  return {
    id: row.id,
    fullName: row.fullName ?? '',
    email: row.email,
    phone: row.phone,
    role: row.role as StaffRole,
    status: statusOf(row),
  }
}

function staffOf(companyId: string, roles: readonly StaffRole[]) {
  return and(eq(profiles.companyId, companyId), inArray(profiles.role, [...roles]))
}

/** The company's staff (never customers), owners first, then by name. */
export async function listTeamMembers(companyId: string, roles: readonly StaffRole[] = STAFF_ROLES) {
  const rows = await db()
    .select(MEMBER_COLUMNS)
    .from(profiles)
    .where(staffOf(companyId, roles))
    .orderBy(ROLE_ORDER, asc(profiles.fullName), asc(profiles.email))
  return rows.map(toMember)
}

/**
 * The first `limit` of the staff list and how many there are in all, in one statement: a dashboard shows a short
 * roster and links to the team page for the rest (a 50-technician company's whole list was half the page).
 */
export async function listTeamPreview(companyId: string, roles: readonly StaffRole[], limit: number) {
  const rows = await db()
    .select({ ...MEMBER_COLUMNS, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(profiles)
    .where(staffOf(companyId, roles))
    .orderBy(ROLE_ORDER, asc(profiles.fullName), asc(profiles.email))
    .limit(limit)
  return { members: rows.map(toMember), total: rows[0]?.total ?? 0 }
}

export const INVITE_MESSAGES = {
  roleNotAllowed: 'You cannot invite someone with that role.',
  alreadyMember: 'This person is already on your team.',
  deactivated: 'This person was deactivated. Reactivate them from the team list instead.',
  failed: 'Unable to send invite.',
} as const

type TeamInvite = {
  companyId: string
  inviter: { id: string; role: Role }
  role: StaffRole
  fullName: string
  email: string
  phone: string | null
}

/**
 * Invites a teammate, in one transaction with the email it queues (fault drill #3). What happens depends on the
 * address, but the inviter is told the same for every address outside their own team (security review F4):
 * - new: their login and profile are created (role and company set here) with a one-time link to /welcome;
 * - a pending member of this company: a new link (older ones stop working);
 * - someone who signed up but never confirmed the address: the account is taken over as if new — its password
 *   and sessions are removed, so only the link and the password chosen on /welcome open it (F3);
 * - a verified account with no company, or with only an abandoned trial of its own: an invitation they accept or
 *   decline after signing in (F14, decision 011);
 * - anyone else (another company, a customer, a platform admin): nothing changes for them; the address is told
 *   that the company tried to invite it.
 * Every one of them counts against the company's invitation limits.
 */
export async function inviteTeamMember(invite: TeamInvite): Promise<Result<{ message: string }>> {
  const { companyId, inviter, role, fullName, phone } = invite
  if (!INVITABLE_ROLES[inviter.role]?.includes(role)) return failure('forbidden', INVITE_MESSAGES.roleNotAllowed)
  const email = invite.email.trim().toLowerCase()
  const sent = success({ message: `Invitation sent to ${email}.` })
  try {
    const outcome = await db().transaction(async (tx): Promise<Result<{ message: string }>> => {
      const existing = await findInvitee(tx, email)
      const pendingHere = existing ? pendingTeammate(existing, companyId) : null
      if (pendingHere && !pendingHere.ok) return pendingHere
      // A pending teammate may only be re-sent what this inviter could have invited them as.
      if (pendingHere?.ok && !INVITABLE_ROLES[inviter.role]?.includes(existing?.role as StaffRole)) {
        return failure('forbidden', INVITE_MESSAGES.roleNotAllowed)
      }
      if (await tooManyRecentEmails(email, tx)) return failure('rate-limited', INVITE_LIMIT_MESSAGES.perAddress)
      const limited = await spendInvitation(tx, companyId)
      if (limited) return limited

      const [company] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId))
      const companyName = company?.name ?? ''
      const welcome = (invitedRole: StaffRole) =>
        queueInviteLink(tx, {
          email,
          callbackURL: '/welcome',
          invite: { kind: 'staff', companyName, roleLabel: ROLE_LABELS[invitedRole] },
          companyId,
        })

      if (existing && pendingHere) {
        await welcome(existing.role as StaffRole)
        return success({ message: `A new invitation was sent to ${email}.` })
      }
      if (!existing || isUnverifiedSignUp(existing)) {
        const id = existing?.id ?? randomUUID()
        if (existing) await revokeAccountAccess(tx, id)
        else await tx.insert(user).values({ id, email, name: fullName, emailVerified: false })
        const member = { companyId, role, fullName, email, phone, hasCompletedSetup: false }
        await tx
          .insert(profiles)
          .values({ id, ...member })
          .onConflictDoUpdate({ target: profiles.id, set: member })
        await welcome(role)
        return sent
      }
      if (await joinableAs(tx, existing)) {
        // INVITABLE_ROLES (checked above) holds company roles only.
        const invitedAs = role as InvitationRole
        await offerInvitation(tx, {
          companyId,
          companyName,
          userId: existing.id,
          email,
          role: invitedAs,
          invitedBy: inviter.id,
        })
        return sent
      }
      await sendEmail({ to: email, companyId, template: 'address-taken', props: { companyName } }, tx)
      return sent
    })
    // Committed: deliver without waiting for the worker's next tick.
    if (outcome.ok) kickOutboxWorker()
    return outcome
  } catch (error) {
    logger.error({ err: error, companyId }, 'team invite failed')
    return failure('failed', INVITE_MESSAGES.failed)
  }
}

/**
 * For a staff member of this company: success when they are still pending (a new link may go), else why not.
 * Null for anyone else. The inviter sees their own team, so these answers reveal nothing new.
 */
function pendingTeammate(existing: Invitee, companyId: string): Result | null {
  if (existing.companyId !== companyId || existing.role == null || existing.role === 'customer') return null
  if (existing.deactivatedAt) return failure('invalid', INVITE_MESSAGES.deactivated)
  if (existing.hasCompletedSetup) return failure('invalid', INVITE_MESSAGES.alreadyMember)
  return success({})
}

export const MEMBER_MESSAGES = {
  notFound: 'That teammate was not found.',
  ownerFixed: 'Owners change only by ownership transfer.',
} as const

/** A change to one member: not found (another company's, or the owner themselves), or refused for an owner. */
export type MemberChange = Result

/** Whom an owner acts on: a member of their own company, never themselves. */
type MemberTarget = { companyId: string; actorId: string; memberId: string }

/** A staff member of the company other than `actorId`, or null. */
async function changeableMember(companyId: string, actorId: string, memberId: string) {
  if (memberId === actorId) return null
  const [member] = await db()
    .select({ id: profiles.id, role: profiles.role })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.id, memberId), inArray(profiles.role, [...STAFF_ROLES])))
  return member ?? null
}

/** Gives a member another role (admin, dispatcher or tech). Owners are moved only by transfer. */
export async function changeMemberRole({
  companyId,
  actorId,
  memberId,
  role,
}: MemberTarget & { role: StaffRole }): Promise<MemberChange> {
  const member = await changeableMember(companyId, actorId, memberId)
  if (!member) return failure('not-found', MEMBER_MESSAGES.notFound)
  if (member.role === 'owner' || !(ASSIGNABLE_ROLES as readonly string[]).includes(role)) {
    return failure('forbidden', MEMBER_MESSAGES.ownerFixed)
  }
  await db()
    .update(profiles)
    // A new role ends the calendar link for good (N5): moved back to technician later, they create a new one, and
    // the old URL on a phone stays dead. The same role again changes nothing.
    .set({ role, calendarFeedHash: sql`case when ${profiles.role} = ${role} then ${profiles.calendarFeedHash} end` })
    .where(and(eq(profiles.companyId, companyId), eq(profiles.id, memberId), ne(profiles.role, 'owner')))
  return success({})
}

/**
 * Deactivates a member in one transaction: they are signed out everywhere, can no longer sign
 * in, their calendar link is revoked (not suspended: reactivated, they create a new one), and their open visits go back
 * to the unassigned list — and so do their service plans, so visits generated later
 * are unassigned too (visible on the board), never given to someone who cannot sign in. Their history stays.
 */
export async function deactivateMember({ companyId, actorId, memberId }: MemberTarget): Promise<MemberChange> {
  const member = await changeableMember(companyId, actorId, memberId)
  if (!member) return failure('not-found', MEMBER_MESSAGES.notFound)
  if (member.role === 'owner') return failure('forbidden', MEMBER_MESSAGES.ownerFixed)
  const unassigned = await db().transaction(async (tx) => {
    await tx
      .update(profiles)
      .set({ deactivatedAt: new Date(), calendarFeedHash: null })
      .where(and(eq(profiles.companyId, companyId), eq(profiles.id, memberId)))
    await tx.delete(session).where(eq(session.userId, memberId))
    await tx
      .update(servicePlans)
      .set({ technicianId: null })
      .where(and(eq(servicePlans.companyId, companyId), eq(servicePlans.technicianId, memberId)))
    return tx
      .update(visits)
      .set({ technicianId: null })
      .where(and(eq(visits.companyId, companyId), eq(visits.technicianId, memberId), isNull(visits.completedAt)))
      .returning({ id: visits.id })
  })
  if (unassigned.length) await publishCompanyEvent({ companyId, type: 'visit.updated' })
  return success({})
}

/** Lets a deactivated member sign in again (their old visits stay with whoever has them now). */
export async function reactivateMember({ companyId, actorId, memberId }: MemberTarget): Promise<MemberChange> {
  const member = await changeableMember(companyId, actorId, memberId)
  if (!member) return failure('not-found', MEMBER_MESSAGES.notFound)
  await db()
    .update(profiles)
    .set({ deactivatedAt: null })
    .where(and(eq(profiles.companyId, companyId), eq(profiles.id, memberId)))
  return success({})
}

/** Active staff per role (deactivated members and pending invitations not counted). */
export async function countTeamByRole(companyId: string) {
  const rows = await db()
    .select({ role: profiles.role, n: sql<number>`count(*)::int` })
    .from(profiles)
    .where(
      and(
        eq(profiles.companyId, companyId),
        inArray(profiles.role, [...STAFF_ROLES]),
        isNull(profiles.deactivatedAt),
        eq(profiles.hasCompletedSetup, true),
      ),
    )
    .groupBy(profiles.role)
  const counts: Record<(typeof STAFF_ROLES)[number], number> = { owner: 0, admin: 0, dispatcher: 0, tech: 0 }
  for (const row of rows) counts[row.role as (typeof STAFF_ROLES)[number]] = row.n
  return counts
}
