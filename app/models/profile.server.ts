import { and, asc, eq, isNull } from 'drizzle-orm'
import { profiles } from '~/db/schema'
import { db } from '~/utils/db.server'

export type Profile = typeof profiles.$inferSelect

/** The profile that shares the auth user's id, or null when none exists yet. */
export async function getProfile(userId: string): Promise<Profile | null> {
  const [profile] = await db().select().from(profiles).where(eq(profiles.id, userId)).limit(1)
  return profile ?? null
}

export type ProfileUpdate = Partial<
  Pick<
    Profile,
    | 'fullName'
    | 'email'
    | 'phone'
    | 'addressLine1'
    | 'addressLine2'
    | 'city'
    | 'state'
    | 'postalCode'
    | 'country'
    | 'hasCompletedSetup'
  >
>

/** Updates the user's own fields; role and company are never changed here. */
export async function updateOwnProfile(userId: string, update: ProfileUpdate) {
  await db().update(profiles).set(update).where(eq(profiles.id, userId))
}

/** The company's technicians who can take jobs (for assignment pickers), by name. */
export async function listTechnicians(companyId: string) {
  return db()
    .select({ id: profiles.id, fullName: profiles.fullName, email: profiles.email, phone: profiles.phone })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'tech'), isNull(profiles.deactivatedAt)))
    .orderBy(asc(profiles.fullName))
}

/** Whether `technicianId` is an active technician of `companyId` (assignment must never cross companies). */
export async function isCompanyTechnician(companyId: string, technicianId: string) {
  const [row] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(
      and(
        eq(profiles.companyId, companyId),
        eq(profiles.id, technicianId),
        eq(profiles.role, 'tech'),
        isNull(profiles.deactivatedAt),
      ),
    )
    .limit(1)
  return Boolean(row)
}
