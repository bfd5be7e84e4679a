// The first platform administrator of a production install (docs/architecture.md "Stack"): created from
// PLATFORM_ADMIN_EMAIL at start-up when there is none, or on demand by `npm run create-admin`.
// They get an invitation link to /welcome, like any invitee, created and queued in the same transaction.
import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { profiles, user } from '~/db/schema'
import { kickOutboxWorker } from '~/outbox/worker.server'
import { db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { queueInviteLink, revokeAccountAccess } from './invitation.server'

export type CreateAdminResult =
  | { created: true; email: string }
  | { created: false; reason: 'exists' | 'taken' | 'already-admin' }

/** Serializes concurrent start-ups of several instances (any fixed number works). */
const BOOTSTRAP_LOCK = 7_424_001

/**
 * Makes `email` a platform admin and emails them an invitation. With `onlyIfNone`, does nothing
 * when a platform admin exists already (start-up runs this on every boot and every instance).
 * An address that belongs to a company member or a customer is never turned into an admin. An account without a
 * role (someone signed up with the address) loses its password and sessions first: only the emailed link, and the
 * password chosen on /welcome, open an administrator account (security review F3).
 */
export async function createPlatformAdmin(
  rawEmail: string,
  { onlyIfNone = false }: { onlyIfNone?: boolean } = {},
): Promise<CreateAdminResult> {
  const email = rawEmail.trim().toLowerCase()
  const outcome = await db().transaction(async (tx): Promise<CreateAdminResult> => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`)
    if (onlyIfNone) {
      const [admin] = await tx
        .select({ id: profiles.id })
        .from(profiles)
        .where(eq(profiles.role, 'platform_admin'))
        .limit(1)
      if (admin) return { created: false, reason: 'exists' }
    }
    const [existing] = await tx
      .select({ id: user.id, role: profiles.role, profileId: profiles.id })
      .from(user)
      .leftJoin(profiles, eq(profiles.id, user.id))
      .where(sql`lower(${user.email}) = ${email}`)
      .limit(1)
    if (existing?.role === 'platform_admin') return { created: false, reason: 'already-admin' }
    if (existing?.role) return { created: false, reason: 'taken' }
    const id = existing?.id ?? randomUUID()
    if (existing) await revokeAccountAccess(tx, id)
    else await tx.insert(user).values({ id, email, name: email.split('@')[0] ?? email, emailVerified: false })
    if (existing?.profileId) {
      await tx
        .update(profiles)
        .set({ role: 'platform_admin', companyId: null, hasCompletedSetup: false })
        .where(eq(profiles.id, id))
    } else {
      await tx.insert(profiles).values({ id, role: 'platform_admin', email, hasCompletedSetup: false })
    }
    await queueInviteLink(tx, { email, callbackURL: '/welcome', invite: { kind: 'platform-admin' }, companyId: null })
    return { created: true, email }
  })
  if (outcome.created) {
    kickOutboxWorker()
    logger.info({ email }, 'platform administrator created; invitation emailed')
  }
  return outcome
}
