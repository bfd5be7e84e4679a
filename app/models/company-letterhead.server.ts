// The company as its customers see it on paper and in email (issue 31 items 4–5, docs/decisions/039-invoice-pdf.md):
// its name, and whatever else Settings → company gives (address lines, logo) as the columns arrive.
import { eq } from 'drizzle-orm'
import { companies } from '~/db/schema'
import { db } from '~/utils/db.server'

export type CompanyLetterhead = {
  name: string
  addressLines: string[]
  /** The logo's bytes (PNG), or null when the company has none. */
  logo: Buffer | null
}

export async function getCompanyLetterhead(companyId: string): Promise<CompanyLetterhead | null> {
  const [company] = await db().select({ name: companies.name }).from(companies).where(eq(companies.id, companyId))
  if (!company) return null
  return { name: company.name, addressLines: [], logo: null }
}
