import { eq } from 'drizzle-orm'
import { companies } from '~/db/schema'
import { db } from '~/utils/db.server'

/** The company's name and timezone, which every dated page needs. */
export async function getCompanySummary(companyId: string) {
  const [row] = await db()
    .select({ id: companies.id, name: companies.name, timezone: companies.timezone })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1)
  return row ?? null
}
