// The company's side of billing (docs/billing.md): its Pool Bud plan and trial (Settings → "Plan"), and the terms its
// invoices are made with (Settings → "Billing": payment terms; tax rates are app/models/tax-rate.server.ts). The
// range is checked by the form and again by the table's constraint (companies_payment_terms_range).
import { eq } from 'drizzle-orm'
import { companies } from '~/db/schema'
import { db } from '~/utils/db.server'

/** The plan, the trial's end and the invoice terms, in one read. */
export async function getCompanyBilling(companyId: string) {
  const [row] = await db()
    .select({
      plan: companies.plan,
      trialEndsAt: companies.trialEndsAt,
      paymentTermsDays: companies.paymentTermsDays,
    })
    .from(companies)
    .where(eq(companies.id, companyId))
  return row ?? null
}

/** Saves the payment terms; false when the company is not there. */
export async function saveBillingTerms(companyId: string, terms: { paymentTermsDays: number }) {
  const rows = await db()
    .update(companies)
    .set(terms)
    .where(eq(companies.id, companyId))
    .returning({ id: companies.id })
  return rows.length > 0
}
