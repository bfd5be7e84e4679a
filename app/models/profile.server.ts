import { and, asc, eq, isNull, ne } from 'drizzle-orm'
import { profiles, user } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import type { Role } from '~/utils/permissions'

export type Profile = typeof profiles.$inferSelect

/** Who is acting, as a model checks it: the guards' company member has these (models import nothing from auth/). */
export type Actor = { id: string; role: Role; companyId: string }

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

/** The company's technicians who can take visits (for assignment pickers), by name. */
export async function listTechnicians(companyId: string) {
  return db()
    .select({ id: profiles.id, fullName: profiles.fullName, email: profiles.email, phone: profiles.phone })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'tech'), isNull(profiles.deactivatedAt)))
    .orderBy(asc(profiles.fullName))
}

/** Whether `technicianId` is an active technician of `companyId` (assignment must never cross companies). */
export async function isCompanyTechnician(
  companyId: string,
  technicianId: string,
  executor: Pick<Database, 'select'> = db(),
) {
  const [row] = await executor
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

/** Whether `email` is already the sign-in email of a user (other than `exceptUserId`). */
export async function isEmailTaken(email: string, exceptUserId?: string) {
  const address = eq(user.email, email.trim().toLowerCase())
  const [row] = await db()
    .select({ id: user.id })
    .from(user)
    .where(exceptUserId ? and(address, ne(user.id, exceptUserId)) : address)
    .limit(1)
  return Boolean(row)
}

/** Whether `userId` belongs to a deactivated member (checked before any session is created). */
export async function isDeactivated(userId: string) {
  const [row] = await db()
    .select({ deactivatedAt: profiles.deactivatedAt })
    .from(profiles)
    .where(eq(profiles.id, userId))
  return Boolean(row?.deactivatedAt)
}
