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

export type CompanySettings = {
  name: string
  timezone: string
  defaultServiceWindow: (typeof companies.$inferSelect)['defaultServiceWindow']
  cardPublishableKey: string | null
  customerPortalUrl: string | null
}

/** The settings page's fields (SPEC §2 Settings) for one company, or null when it is gone. */
export async function getCompanySettings(companyId: string): Promise<CompanySettings | null> {
  const [row] = await db()
    .select({
      name: companies.name,
      timezone: companies.timezone,
      defaultServiceWindow: companies.defaultServiceWindow,
      cardPublishableKey: companies.cardPublishableKey,
      customerPortalUrl: companies.customerPortalUrl,
    })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1)
  return row ?? null
}

/**
 * Saves settings of exactly one company (the caller's, from their profile). Fields left out
 * are not touched. Returns whether the company existed.
 */
export async function updateCompanySettings(companyId: string, fields: Partial<CompanySettings>) {
  const update: Partial<CompanySettings> = {}
  for (const key of ['name', 'timezone', 'defaultServiceWindow', 'cardPublishableKey', 'customerPortalUrl'] as const) {
    if (fields[key] !== undefined) Object.assign(update, { [key]: fields[key] })
  }
  if (Object.keys(update).length === 0) return (await getCompanySettings(companyId)) !== null
  const rows = await db()
    .update(companies)
    .set(update)
    .where(eq(companies.id, companyId))
    .returning({ id: companies.id })
  return rows.length > 0
}
