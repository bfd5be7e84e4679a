// The company as its customers see it on paper and in email (issue 31 items 4–5, docs/decisions/039-invoice-pdf.md,
// docs/decisions/044-company-brand.md): its name, mailing address, email and logo from Settings → company.
import { eq } from 'drizzle-orm'
import { companies } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addressLines } from './company-brand'
import { readLogo } from './company-brand.server'

export type CompanyLetterhead = {
  name: string
  addressLines: string[]
  /** Settings → "Company email", printed under the address; null when not set. */
  email: string | null
  /** The logo's bytes (PNG or JPEG), or null when the company has none. */
  logo: Buffer | null
}

export async function getCompanyLetterhead(companyId: string): Promise<CompanyLetterhead | null> {
  const [company] = await db()
    .select({
      name: companies.name,
      email: companies.email,
      mailingAddress: companies.mailingAddress,
      logoKey: companies.logoKey,
    })
    .from(companies)
    .where(eq(companies.id, companyId))
  if (!company) return null
  return {
    name: company.name,
    addressLines: addressLines(company.mailingAddress),
    email: company.email,
    logo: await readLogo(company.logoKey),
  }
}
