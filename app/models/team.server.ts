// A company's staff: inviting teammates, changing their role, deactivating them (SPEC §5, §6;
// ARCHITECTURE §4). Roles and companies are only ever set here and by ownership transfer.
import { randomUUID } from 'node:crypto'
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import { companies, jobs, profiles, session, user } from '~/db/schema'
import { db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { logger } from '~/utils/logger.server'
import { INVITABLE_ROLES, ROLE_LABELS, type Role, type StaffRole } from '~/utils/permissions'
import type { TeamMember, TeamMemberStatus } from '~/utils/team'
import { EMAIL_TAKEN, type InviteResult, sendInviteLink, tooManyRecentEmails } from './invitation.server'

const STAFF_ROLES = ['owner', 'admin', 'dispatcher', 'tech'] as const satisfies readonly StaffRole[]
/** Roles an owner may give a member (ownership itself moves only by transfer). */
export const ASSIGNABLE_ROLES = ['admin', 'dispatcher', 'tech'] as const satisfies readonly StaffRole[]
/** Display order: who runs the company first. */
const ROLE_ORDER = sql`array_position(array['owner','admin','dispatcher','tech']::text[], ${profiles.role})`

function statusOf(row: { hasCompletedSetup: boolean; deactivatedAt: Date | null }): TeamMemberStatus {
  if (row.deactivatedAt) return 'deactivated'
  return row.hasCompletedSetup ? 'active' : 'pending'
}

/** The company's staff (never customers), owners first, then by name. */
export async function listTeamMembers(companyId: string, roles: readonly StaffRole[] = STAFF_ROLES) {
  const rows = await db()
    .select({
      id: profiles.id,
      fullName: profiles.fullName,
      email: profiles.email,
      phone: profiles.phone,
      role: profiles.role,
      hasCompletedSetup: profiles.hasCompletedSetup,
      deactivatedAt: profiles.deactivatedAt,
    })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), inArray(profiles.role, [...roles])))
    .orderBy(ROLE_ORDER, asc(profiles.fullName), asc(profiles.email))
  return rows.map(
    (row): TeamMember => ({
      id: row.id,
      fullName: row.fullName ?? '',
      email: row.email,
      phone: row.phone,
      role: row.role as StaffRole,
      status: statusOf(row),
    }),
  )
}

export const INVITE_MESSAGES = {
  roleNotAllowed: 'You cannot invite someone with that role.',
  alreadyMember: 'This person is already on your team.',
  deactivated: 'This person was deactivated. Reactivate them from the team list instead.',
  tooMany: 'Several invitations went to this address in the last hour. Try again later.',
  failed: 'Unable to send invite.',
} as const

/**
 * Invites a teammate: creates their login and profile (role and company set here), then emails
 * a one-time link that lands on /welcome. A pending member of the same company is sent a new
 * link; anyone else's address (another company, a customer, a platform admin) is refused and
 * left untouched.
 */
export async function inviteTeamMember({
  companyId,
  inviter,
  role,
  fullName,
  email: rawEmail,
  phone,
}: {
  companyId: string
  inviter: { id: string; role: Role }
  role: StaffRole
  fullName: string
  email: string
  phone: string | null
}): Promise<InviteResult> {
  if (!INVITABLE_ROLES[inviter.role]?.includes(role)) return { ok: false, message: INVITE_MESSAGES.roleNotAllowed }
  const email = rawEmail.trim().toLowerCase()
  const [existing] = await db()
    .select({
      id: user.id,
      companyId: profiles.companyId,
      role: profiles.role,
      hasCompletedSetup: profiles.hasCompletedSetup,
      deactivatedAt: profiles.deactivatedAt,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(sql`lower(${user.email}) = ${email}`)
    .limit(1)
  if (existing) {
    const sameCompanyStaff = existing.companyId === companyId && existing.role != null && existing.role !== 'customer'
    if (!sameCompanyStaff) return { ok: false, message: EMAIL_TAKEN }
    if (existing.deactivatedAt) return { ok: false, message: INVITE_MESSAGES.deactivated }
    if (existing.hasCompletedSetup) return { ok: false, message: INVITE_MESSAGES.alreadyMember }
    // A pending teammate may only be re-sent what this inviter could have invited them as.
    if (!INVITABLE_ROLES[inviter.role]?.includes(existing.role as StaffRole)) {
      return { ok: false, message: INVITE_MESSAGES.roleNotAllowed }
    }
  }
  if (await tooManyRecentEmails(email)) return { ok: false, message: INVITE_MESSAGES.tooMany }

  try {
    if (!existing) {
      const id = randomUUID()
      await db().transaction(async (tx) => {
        await tx.insert(user).values({ id, email, name: fullName, emailVerified: false })
        await tx.insert(profiles).values({ id, companyId, role, fullName, email, phone, hasCompletedSetup: false })
      })
    }
    const [names] = await db()
      .select({ companyName: companies.name, inviterName: profiles.fullName })
      .from(companies)
      .leftJoin(profiles, eq(profiles.id, inviter.id))
      .where(eq(companies.id, companyId))
    const invitedRole = (existing?.role as StaffRole | undefined) ?? role
    await sendInviteLink(email, '/welcome', {
      kind: 'staff',
      companyId,
      companyName: names?.companyName ?? 'your company',
      roleLabel: ROLE_LABELS[invitedRole],
      inviterName: names?.inviterName ?? 'Your colleague',
    })
    return { ok: true, message: existing ? `A new invitation was sent to ${email}.` : `Invitation sent to ${email}.` }
  } catch (error) {
    logger.error({ err: error, companyId }, 'team invite failed')
    return { ok: false, message: INVITE_MESSAGES.failed }
  }
}

export type MemberChange = 'ok' | 'not-found' | 'refused'

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
  if (!member) return 'not-found'
  if (member.role === 'owner' || !(ASSIGNABLE_ROLES as readonly string[]).includes(role)) return 'refused'
  await db()
    .update(profiles)
    .set({ role })
    .where(and(eq(profiles.companyId, companyId), eq(profiles.id, memberId), ne(profiles.role, 'owner')))
  return 'ok'
}

/**
 * Deactivates a member in one transaction: they are signed out everywhere, can no longer sign
 * in, and their open jobs go back to the unassigned list. Their history stays.
 */
export async function deactivateMember({ companyId, actorId, memberId }: MemberTarget): Promise<MemberChange> {
  const member = await changeableMember(companyId, actorId, memberId)
  if (!member) return 'not-found'
  if (member.role === 'owner') return 'refused'
  const unassigned = await db().transaction(async (tx) => {
    await tx
      .update(profiles)
      .set({ deactivatedAt: new Date() })
      .where(and(eq(profiles.companyId, companyId), eq(profiles.id, memberId)))
    await tx.delete(session).where(eq(session.userId, memberId))
    return tx
      .update(jobs)
      .set({ technicianId: null })
      .where(and(eq(jobs.companyId, companyId), eq(jobs.technicianId, memberId), isNull(jobs.completedAt)))
      .returning({ id: jobs.id })
  })
  if (unassigned.length) await publishCompanyEvent({ companyId, type: 'job.updated' })
  return 'ok'
}

/** Lets a deactivated member sign in again (their old jobs stay with whoever has them now). */
export async function reactivateMember({ companyId, actorId, memberId }: MemberTarget): Promise<MemberChange> {
  const member = await changeableMember(companyId, actorId, memberId)
  if (!member) return 'not-found'
  await db()
    .update(profiles)
    .set({ deactivatedAt: null })
    .where(and(eq(profiles.companyId, companyId), eq(profiles.id, memberId)))
  return 'ok'
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
