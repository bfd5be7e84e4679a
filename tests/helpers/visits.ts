// Visits a test makes for itself: one at a known place and hour (for a day's route or balance, whatever day the run
// falls on), and "Skip visit" as the office does it.
import { and, eq } from 'drizzle-orm'
import { profiles, serviceLocations } from '~/db/schema'
import { createCustomerWithLocation } from '~/models/customer-changes.server'
import { createVisit } from '~/models/visit-changes.server'
import { applyFieldChange } from '~/models/visit-work.server'
import { instantAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'

/** A new customer of `companyId` at `position` (a pin set by hand) and its visit on `date` at `hour` in `zone`. */
export async function visitAt({
  companyId,
  name,
  position: [lat, lng],
  technicianId,
  date,
  hour,
  zone = 'America/New_York',
}: {
  companyId: string
  name: string
  position: readonly [number, number]
  technicianId: string | null
  date: string
  hour: number
  zone?: string
}) {
  const added = await createCustomerWithLocation(companyId, {
    customerName: name,
    location: { street: `${hour} Test St`, postalCode: '33606', dogOnSite: false },
  })
  if (!added.ok) throw new Error(added.message)
  await db()
    .update(serviceLocations)
    .set({ lat, lng, positionSource: 'manual' })
    .where(eq(serviceLocations.id, added.locationId))
  const visit = await createVisit({
    companyId,
    customerId: added.customerId,
    locationId: added.locationId,
    scheduledAt: instantAt(date, `${String(hour).padStart(2, '0')}:00`, zone),
    technicianId,
  })
  if (!visit) throw new Error('no visit')
  return visit.id as string
}

/**
 * "Skip visit" as the office does it, for tests that need a skipped visit: through applyFieldChange, the one way a
 * visit is skipped (the visit page's plain form and the phone's queue both reach it), as the company's owner.
 */

export async function skipAsOffice({
  companyId,
  visitId,
  reason,
  otherReason,
  now = new Date(),
}: {
  companyId: string
  visitId: string
  reason: string
  otherReason?: string
  now?: Date
}) {
  const [owner] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'owner')))
    .limit(1)
  if (!owner) throw new Error('The company has no owner to skip the visit as.')
  const fields: Record<string, string> = otherReason === undefined ? { reason } : { reason, otherReason }
  return applyFieldChange(
    { id: owner.id, role: 'owner', companyId },
    { key: crypto.randomUUID(), visitId: visitId, madeAt: now.toISOString(), change: { type: 'skip', fields } },
    now,
  )
}
