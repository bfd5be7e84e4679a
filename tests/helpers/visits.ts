// "Skip visit" as the office does it, for tests that need a skipped visit: through applyFieldChange, the one way a
// visit is skipped (the visit page's plain form and the phone's queue both reach it), as the company's owner.
import { and, eq } from 'drizzle-orm'
import { profiles } from '~/db/schema'
import { applyFieldChange } from '~/models/visit-work.server'
import { db } from '~/utils/db.server'

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
