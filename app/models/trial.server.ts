// Self-serve trial (issue #6): someone who signed up on their own, with no role and no company,
// starts their own company and becomes its owner. It never grants any other role, and never
// touches a user who already has one. The company is marked a trial (`trial_ends_at`): trial
// companies have a daily cap on invitation emails (decision 011).
import { eq } from 'drizzle-orm'
import { DEFAULT_POOL_BUD_PLAN, type PoolBudPlan } from '~/billing/pool-bud-plans'
import { companies, profiles, user } from '~/db/schema'
import { db } from '~/utils/db.server'
import { failure, type Result, success } from '~/utils/result'
import { TRIAL_DAYS } from '~/utils/trial'
import { addDefaultChecklist } from './checklist.server'

/** Why no trial starts: the account already has a role or a company (or is gone). */
export const HAS_ROLE = 'This account already belongs to a company.'

export async function startTrialCompany({
  userId,
  companyName,
  timezone,
  plan = DEFAULT_POOL_BUD_PLAN,
}: {
  userId: string
  companyName: string
  timezone: string
  /** The plan chosen on the pricing page (Settings → "Plan" shows it); the entry plan when none was. */
  plan?: PoolBudPlan
}): Promise<Result<{ companyId: string }>> {
  return db().transaction(async (tx) => {
    const [account] = await tx
      .select({ email: user.email, name: user.name, role: profiles.role, companyId: profiles.companyId })
      .from(user)
      .leftJoin(profiles, eq(profiles.id, user.id))
      .where(eq(user.id, userId))
      .for('update', { of: user })
    if (!account || account.role || account.companyId) return failure('conflict', HAS_ROLE)
    const trialEndsAt = new Date(Date.now() + TRIAL_DAYS * 24 * 60 * 60 * 1000)
    const [company] = await tx
      .insert(companies)
      .values({ name: companyName, timezone, trialEndsAt, plan })
      .returning({ id: companies.id })
    const companyId = company?.id as string
    await addDefaultChecklist(tx, companyId)
    await tx
      .insert(profiles)
      .values({
        id: userId,
        email: account.email,
        fullName: account.name,
        role: 'owner',
        companyId,
        hasCompletedSetup: true,
      })
      .onConflictDoUpdate({ target: profiles.id, set: { role: 'owner', companyId, hasCompletedSetup: true } })
    return success({ companyId })
  })
}
