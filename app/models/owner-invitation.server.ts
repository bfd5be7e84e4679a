// Platform administrators invite company owners (docs/product.md "Forms" "Invite owner", docs/product.md "Roles"): for
// an existing company or a new one. The company, the owner's login and profile, the demotion of previous
// owners to admin, the one-time link to /welcome and its email all happen in one transaction.
import { randomUUID } from 'node:crypto'
import { and, eq, ne } from 'drizzle-orm'
import { companies, profiles, user } from '~/db/schema'
import { kickOutboxWorker } from '~/outbox/worker.server'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { type Failure, failure, type Result, success } from '~/utils/result'
import { joinableAs, offerInvitation } from './account-invitation.server'
import { addDefaultChecklist } from './checklist.server'
import {
  EMAIL_TAKEN,
  findInvitee,
  INVITE_LIMIT_MESSAGES,
  isUnverifiedSignUp,
  queueInviteLink,
  revokeAccountAccess,
  tooManyRecentEmails,
} from './invitation.server'

export const OWNER_INVITE_MESSAGES = {
  sent: 'Invitation sent. The owner will receive an email to finish setting up their account.',
  offered:
    'Invitation sent. This address already has a Pool Bud account: they become the owner once they sign in and accept.',
  noCompany: 'Select a company to assign the owner to.',
  failed: 'Unable to invite owner.',
} as const

/** The card-provider account id is not set here: only the company's owner sets payment settings (F12). */
export type OwnerInvite = {
  owner: { fullName: string; email: string; phone: string | null }
  invitedBy: string
} & ({ mode: 'existing'; companyId: string } | { mode: 'new'; companyName: string })

type OwnerInviteResult = Result<{ message: string; companyId: string }>

/** Thrown inside the transaction to undo it (a new company included) and answer with the failure. */
class Refusal extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message)
  }
}

/**
 * Invites the owner. A member of the company may be promoted; an address nobody has confirmed is taken over as if
 * new (its password and sessions removed, F3); a verified account with no company, or with only an abandoned trial
 * of its own, gets an invitation to accept (F14). Someone of another company, a customer or a platform admin is
 * never moved or demoted: refused with a message (the platform admin sees every account anyway).
 */
export async function inviteOwner(invite: OwnerInvite): Promise<OwnerInviteResult> {
  const email = invite.owner.email.trim().toLowerCase()
  if (invite.mode === 'existing' && !isUuid(invite.companyId))
    return failure('invalid', OWNER_INVITE_MESSAGES.noCompany)
  try {
    const outcome = await db().transaction(async (tx): Promise<OwnerInviteResult> => {
      if (await tooManyRecentEmails(email, tx)) return failure('rate-limited', INVITE_LIMIT_MESSAGES.perAddress)
      const company =
        invite.mode === 'new'
          ? (
              await tx
                .insert(companies)
                .values({ name: invite.companyName })
                .returning({ id: companies.id, name: companies.name })
            )[0]
          : (
              await tx
                .select({ id: companies.id, name: companies.name })
                .from(companies)
                .where(eq(companies.id, invite.companyId))
            )[0]
      if (!company) throw new Refusal(failure('invalid', OWNER_INVITE_MESSAGES.noCompany))
      if (invite.mode === 'new') await addDefaultChecklist(tx, company.id)

      const existing = await findInvitee(tx, email)
      const memberHere = existing?.role != null && existing.companyId === company.id && existing.role !== 'customer'
      if (existing && !memberHere && !isUnverifiedSignUp(existing)) {
        if (!(await joinableAs(tx, existing))) throw new Refusal(failure('invalid', EMAIL_TAKEN))
        await offerInvitation(tx, {
          companyId: company.id,
          companyName: company.name,
          userId: existing.id,
          email,
          role: 'owner',
          invitedBy: invite.invitedBy,
        })
        return success({ message: OWNER_INVITE_MESSAGES.offered, companyId: company.id })
      }

      const ownerId = existing?.id ?? randomUUID()
      if (!existing) {
        await tx.insert(user).values({ id: ownerId, email, name: invite.owner.fullName, emailVerified: false })
      } else if (!memberHere) {
        await revokeAccountAccess(tx, ownerId)
      }
      await tx
        .update(profiles)
        .set({ role: 'admin' })
        .where(and(eq(profiles.companyId, company.id), eq(profiles.role, 'owner'), ne(profiles.id, ownerId)))
      const details = { fullName: invite.owner.fullName, phone: invite.owner.phone }
      if (existing?.profileId) {
        await tx
          .update(profiles)
          .set({ companyId: company.id, role: 'owner', calendarFeedHash: null, ...details })
          .where(eq(profiles.id, ownerId))
      } else {
        await tx
          .insert(profiles)
          .values({ id: ownerId, companyId: company.id, role: 'owner', email, hasCompletedSetup: false, ...details })
      }
      await queueInviteLink(tx, {
        email,
        callbackURL: '/welcome',
        invite: { kind: 'owner', companyName: company.name },
        companyId: company.id,
      })
      return success({ message: OWNER_INVITE_MESSAGES.sent, companyId: company.id })
    })
    // Committed: deliver without waiting for the worker's next tick.
    if (outcome.ok) kickOutboxWorker()
    return outcome
  } catch (error) {
    if (error instanceof Refusal) return error.failure
    logger.error({ err: error }, 'owner invite failed')
    return failure('failed', OWNER_INVITE_MESSAGES.failed)
  }
}
