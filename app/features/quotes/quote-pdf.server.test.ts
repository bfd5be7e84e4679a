// The quote PDF of a quote in the database (docs/quotes.md "Quotes (office)"): the customer's address — their first
// service location — under their name, and, for a quote started from an equipment item, "For: …" with "Under
// warranty" while the quote's day is within the item's warranty.
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { bodiesOfWater, companies, equipment, quotes } from '~/db/schema'
import { addEquipment } from '~/models/equipment.server'
import { getQuote } from '~/models/quote.server'
import { createQuote } from '~/models/quote-create.server'
import { addQuoteLine } from '~/models/quote-edits.server'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../../tests/helpers/customers'
import { readPdf } from '../../../tests/helpers/pdf'
import { quotePdfResponse } from './quote-pdf.server'

const TZ = 'America/Chicago'
const letterhead = {
  name: 'Gulf Coast Pools',
  addressLines: ['1 Harbor Way', 'Tampa, FL 33602'],
  email: null,
  logo: null,
}

async function pdfText(companyId: string, quoteId: string) {
  const quote = await getQuote({ companyId, quoteId, today: '2027-01-15' })
  if (!quote) throw new Error('no quote')
  const response = await quotePdfResponse(quote, letterhead)
  return (await readPdf(new Uint8Array(await response.arrayBuffer()))).text
}

describe('quote PDF', () => {
  it('prints the customer’s address, the equipment it is for and "Under warranty" by the quote’s day', async () => {
    const [company] = await db().insert(companies).values({ name: 'PDF Pools', timezone: TZ }).returning()
    const companyId = company?.id as string
    const customer = await addTestCustomer(companyId, {
      customerName: 'Pat Pdf',
      address: '77 Coral Way, Sarasota, FL 34236',
    })
    const [body] = await db()
      .select({ id: bodiesOfWater.id })
      .from(bodiesOfWater)
      .where(and(eq(bodiesOfWater.companyId, companyId), eq(bodiesOfWater.locationId, customer.locationId)))
    const added = await addEquipment({
      companyId,
      bodyOfWaterId: body?.id ?? '',
      input: { kind: 'pump', make: 'Pentair', model: 'IntelliFlo', serial: 'P-9920', warrantyUntil: '2027-01-15' },
    })
    if (!added.ok) throw new Error(added.message)
    const created = await createQuote({
      companyId,
      customerId: customer.id,
      equipmentId: added.equipmentId,
      today: '2027-01-15',
    })
    if (!created.ok) throw new Error(created.message)
    const quoteId = created.quote.id
    await addQuoteLine(companyId, quoteId, {
      description: 'Replace pump seal',
      quantityHundredths: 100,
      unitPriceCents: 18_000,
      priceBookItemId: null,
      optional: false,
      taxable: false,
    })
    // The last day of the warranty, late evening in Chicago (already the 16th in UTC).
    await db()
      .update(quotes)
      .set({ createdAt: new Date('2027-01-16T04:00:00Z') })
      .where(eq(quotes.id, quoteId))
    const within = await pdfText(companyId, quoteId)
    for (const words of [
      'Prepared for',
      'Pat Pdf',
      '77 Coral Way',
      'Sarasota, FL 34236',
      'For: Pentair IntelliFlo pump (SN P-9920)',
      'Under warranty',
      'Replace pump seal',
    ]) {
      expect(within).toContain(words)
    }
    await db()
      .update(quotes)
      .set({ createdAt: new Date('2027-01-16T07:00:00Z') })
      .where(eq(quotes.id, quoteId))
    const after = await pdfText(companyId, quoteId)
    expect(after).toContain('For: Pentair IntelliFlo pump (SN P-9920)')
    expect(after).not.toContain('Under warranty')
    // Without equipment (removed), the quote is for nothing in particular.
    await db().delete(equipment).where(eq(equipment.id, added.equipmentId))
    const plain = await pdfText(companyId, quoteId)
    expect(plain).not.toContain('For:')
    expect(plain).toContain('77 Coral Way')
  })
})
