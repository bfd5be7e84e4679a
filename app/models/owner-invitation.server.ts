// Platform administrators invite company owners (SPEC §5 "Invite owner", ARCHITECTURE §4): for an
// existing company or a new one. The company, the owner's login and profile, and the demotion of
// previous owners to admin happen in one transaction; then a one-time link lands on /welcome.
import { randomUUID } from 'node:crypto'
import { and, eq, ne, sql } from 'drizzle-orm'
import { companies, profiles, user } from '~/db/schema'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { EMAIL_TAKEN, type InviteResult, sendInviteLink, tooManyRecentEmails } from './invitation.server'

export const OWNER_INVITE_MESSAGES = {
  sent: 'Invitation sent. The owner will receive an email to finish setting up their account.',
  noCompany: 'Select a company to assign the owner to.',
  failed: 'Unable to invite owner.',
  tooMany: 'Several invitations went to this address in the last hour. Try again later.',
} as const

export type OwnerInvite = {
  owner: { fullName: string; email: string; phone: string | null }
} & ({ mode: 'existing'; companyId: string } | { mode: 'new'; companyName: string; stripeAccountId: string | null })

/** Thrown inside the transaction to undo it and answer with a message. */
class Refusal extends Error {}

export async function inviteOwner(invite: OwnerInvite): Promise<InviteResult & { companyId?: string }> {
  const email = invite.owner.email.trim().toLowerCase()
  if (invite.mode === 'existing' && !isUuid(invite.companyId)) {
    return { ok: false, message: OWNER_INVITE_MESSAGES.noCompany }
  }
  if (await tooManyRecentEmails(email)) return { ok: false, message: OWNER_INVITE_MESSAGES.tooMany }

  let companyId: string
  let companyName: string
  try {
    ;({ companyId, companyName } = await db().transaction(async (tx) => {
      const company =
        invite.mode === 'new'
          ? (
              await tx
                .insert(companies)
                .values({ name: invite.companyName, stripeAccountId: invite.stripeAccountId })
                .returning({ id: companies.id, name: companies.name })
            )[0]
          : (
              await tx
                .select({ id: companies.id, name: companies.name })
                .from(companies)
                .where(eq(companies.id, invite.companyId))
            )[0]
      if (!company) throw new Refusal(OWNER_INVITE_MESSAGES.noCompany)

      const [existing] = await tx
        .select({ id: user.id, profileId: profiles.id, companyId: profiles.companyId, role: profiles.role })
        .from(user)
        .leftJoin(profiles, eq(profiles.id, user.id))
        .where(sql`lower(${user.email}) = ${email}`)
        .limit(1)
      // Someone of another company, a customer or a platform admin is never moved or demoted.
      // A member of this company may be promoted; a signed-up user with no role may be given one.
      const belongsElsewhere =
        existing?.role != null && (existing.companyId !== company.id || existing.role === 'customer')
      if (belongsElsewhere) throw new Refusal(EMAIL_TAKEN)

      const ownerId = existing?.id ?? randomUUID()
      if (!existing) {
        await tx.insert(user).values({ id: ownerId, email, name: invite.owner.fullName, emailVerified: false })
      }
      await tx
        .update(profiles)
        .set({ role: 'admin' })
        .where(and(eq(profiles.companyId, company.id), eq(profiles.role, 'owner'), ne(profiles.id, ownerId)))
      const details = { fullName: invite.owner.fullName, phone: invite.owner.phone }
      if (existing?.profileId) {
        await tx
          .update(profiles)
          .set({ companyId: company.id, role: 'owner', ...details })
          .where(eq(profiles.id, ownerId))
      } else {
        await tx
          .insert(profiles)
          .values({ id: ownerId, companyId: company.id, role: 'owner', email, hasCompletedSetup: false, ...details })
      }
      return { companyId: company.id, companyName: company.name }
    }))
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.message }
    logger.error({ err: error }, 'owner invite failed')
    return { ok: false, message: OWNER_INVITE_MESSAGES.failed }
  }

  try {
    await sendInviteLink(email, '/welcome', { kind: 'owner', companyId, companyName })
  } catch (error) {
    logger.error({ err: error, companyId }, 'owner invite email failed')
    return { ok: false, message: OWNER_INVITE_MESSAGES.failed, companyId }
  }
  return { ok: true, message: OWNER_INVITE_MESSAGES.sent, companyId }
}
