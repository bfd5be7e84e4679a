// Quotes against the database (issue 33 items 1–3; docs/quotes.md): lines from the price book or typed, totals the
// sums of the lines, a sent quote revised as version 2 with version 1 left as sent, the customer seeing the latest
// version sent, and another company's quote or price book item not found.
import { and, eq } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lineAmountCents } from '~/billing/line-math'
import { quoteTotals } from '~/billing/quote-math'
import { companies, emailOutbox, quoteLines, quoteVersions, serviceLocations, taxRates } from '~/db/schema'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { createPriceBookItem, listPriceBook, setPriceBookItemArchived } from './price-book.server'
import { getQuote, recordQuoteViewed } from './quote.server'
import { createQuote } from './quote-create.server'
import { addQuoteLine, QUOTE_MESSAGES, removeQuoteLine, setQuoteTerms } from './quote-edits.server'
import { listQuotes } from './quote-list.server'
import { sendQuote } from './quote-send.server'
import { addTaxRate, setLocationTaxRate } from './tax-rate.server'

const TZ = 'America/New_York'
const today = () => localDateAt(new Date(), TZ)

async function newCompany(name: string, taxRateMilliPercent = 0) {
  const [company] = await db().insert(companies).values({ name, timezone: TZ }).returning()
  if (!company) throw new Error('no company')
  // The company's default tax rate (Settings → "Tax rates"), which a customer without a rate of their own pays.
  if (taxRateMilliPercent > 0) {
    await db()
      .insert(taxRates)
      .values({ companyId: company.id, name: 'Sales tax', milliPercent: taxRateMilliPercent, isDefault: true })
  }
  return company.id
}

async function newQuote(companyId: string, email: string | null = 'quote.customer@example.test') {
  const customer = await addTestCustomer(companyId, {
    customerName: `Quote Test ${crypto.randomUUID().slice(0, 6)}`,
    address: '9 Estimate Way, Tampa, FL 33606',
    email,
  })
  const created = await createQuote({ companyId, customerId: customer.id, today: today() })
  if (!created.ok) throw new Error(created.message)
  return { customerId: customer.id, quoteId: created.quote.id }
}

const typed = (description: string, quantityHundredths: number, unitPriceCents: number, optional = false) => ({
  description,
  quantityHundredths,
  unitPriceCents,
  priceBookItemId: null,
  optional,
  taxable: true,
})

describe('quotes', () => {
  it("taxes at the rate of the customer's pool when it has one of its own, else at the company's default", async () => {
    const companyId = await newCompany('Rated Quote Pools', 5000)
    const county = await addTaxRate(companyId, { name: 'County', milliPercent: 8500 })
    if (!county.ok) throw new Error(county.message)
    const own = await newQuote(companyId)
    const [place] = await db()
      .select({ id: serviceLocations.id })
      .from(serviceLocations)
      .where(eq(serviceLocations.customerId, own.customerId))
    expect((await setLocationTaxRate(companyId, place?.id ?? '', county.id)).ok).toBe(true)
    const plain = await newQuote(companyId)
    for (const { quoteId } of [own, plain]) await addQuoteLine(companyId, quoteId, typed('Heater repair', 100, 10_000))
    expect((await getQuote({ companyId, quoteId: own.quoteId, today: today() }))?.version.taxCents).toBe(850)
    expect((await getQuote({ companyId, quoteId: plain.quoteId, today: today() }))?.version.taxCents).toBe(500)
  })

  it('fills a line from the price book, rounds each line half up and keeps total = subtotal + tax', async () => {
    const companyId = await newCompany('Quote Pools', 7250)
    const pump = await createPriceBookItem(companyId, {
      name: 'Variable-speed pump',
      kind: 'part',
      priceCents: 129_900,
      costCents: 80_000,
      taxable: true,
      inventoryItemId: null,
    })
    const labor = await createPriceBookItem(companyId, {
      name: 'Install labor (hour)',
      kind: 'labor',
      priceCents: 9_500,
      costCents: 0,
      taxable: false,
      inventoryItemId: null,
    })
    if (!pump.ok || !labor.ok) throw new Error('no items')
    const { quoteId } = await newQuote(companyId)
    const fromBook = { description: null, unitPriceCents: null, optional: false, taxable: null }
    expect(
      (await addQuoteLine(companyId, quoteId, { ...fromBook, quantityHundredths: 100, priceBookItemId: pump.item.id }))
        .ok,
    ).toBe(true)
    await addQuoteLine(companyId, quoteId, { ...fromBook, quantityHundredths: 250, priceBookItemId: labor.item.id })
    await addQuoteLine(companyId, quoteId, typed('Filter cartridge', 250, 333, true))
    const quote = await getQuote({ companyId, quoteId, today: today() })
    expect(quote?.version.lines.map((l) => [l.description, l.amountCents, l.taxable, l.optional])).toEqual([
      ['Variable-speed pump', 129_900, true, false],
      ['Install labor (hour)', 23_750, false, false],
      ['Filter cartridge', 833, true, true],
    ])
    // The optional line counts only when ticked: $1,299.00 + $237.50; tax 7.25 % on the pump only.
    expect(quote?.version.subtotalCents).toBe(153_650)
    expect(quote?.version.taxCents).toBe(9418)
    expect(quote?.version.totalCents).toBe(163_068)
    expect(quote?.status).toBe('Draft')
  })

  it('revises a sent quote as version 2, leaving version 1 as sent; the customer sees the latest version sent', async () => {
    const companyId = await newCompany('Version Pools')
    const { customerId, quoteId } = await newQuote(companyId)
    await addQuoteLine(companyId, quoteId, typed('Heater repair', 100, 45_000))
    expect(await sendQuote(companyId, quoteId)).toMatchObject({ ok: true, version: 1 })
    // Sent once per version, however often the button is pressed.
    expect(await sendQuote(companyId, quoteId)).toMatchObject({ ok: true, version: 1 })
    const mails = await db()
      .select({ fromName: emailOutbox.fromName, subject: emailOutbox.subject, text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.noticeEvent, 'quote-sent')))
    expect(mails).toHaveLength(1)
    expect(mails[0]?.fromName).toBe('Version Pools')
    expect(mails[0]?.text).toContain(`/customer/${customerId}/quotes/${quoteId}`)

    await addQuoteLine(companyId, quoteId, typed('Heat exchanger', 100, 30_000))
    const office = await getQuote({ companyId, quoteId, today: today() })
    expect(office?.version.version).toBe(2)
    expect(office?.status).toBe('Draft')
    expect(office?.version.totalCents).toBe(75_000)
    // Version 1 is untouched, and it is what the customer still sees until version 2 is sent.
    const v1 = await getQuote({ companyId, quoteId, today: today(), version: 1 })
    expect(v1?.version.lines.map((l) => l.description)).toEqual(['Heater repair'])
    expect(v1?.version.totalCents).toBe(45_000)
    const portal = await getQuote({ companyId, quoteId, customerId, today: today(), latestSent: true })
    expect(portal?.version.version).toBe(1)
    expect(portal?.status).toBe('Sent')

    // A second change edits version 2 in place; sending it makes it the customer's.
    await removeQuoteLine(companyId, quoteId, 1)
    expect((await getQuote({ companyId, quoteId, today: today() }))?.version.version).toBe(2)
    await sendQuote(companyId, quoteId)
    const latest = await getQuote({ companyId, quoteId, customerId, today: today(), latestSent: true })
    expect(latest?.version.version).toBe(2)
    expect(latest?.version.lines.map((l) => l.description)).toEqual(['Heat exchanger'])
    const v1Lines = await db()
      .select({ id: quoteLines.id })
      .from(quoteLines)
      .innerJoin(quoteVersions, eq(quoteVersions.id, quoteLines.versionId))
      .where(and(eq(quoteVersions.quoteId, quoteId), eq(quoteVersions.version, 1)))
    expect(v1Lines).toHaveLength(1)

    // Viewed is recorded on the first portal view only.
    expect(await recordQuoteViewed(companyId, quoteId)).toBe(true)
    expect(await recordQuoteViewed(companyId, quoteId)).toBe(false)
    expect((await getQuote({ companyId, quoteId, today: today() }))?.status).toBe('Viewed')
  })

  it('shows a sent quote past its Valid until as Expired, and filters the list by status', async () => {
    const companyId = await newCompany('Expiry Pools')
    const { quoteId } = await newQuote(companyId)
    await addQuoteLine(companyId, quoteId, typed('Leak detection', 100, 25_000))
    await setQuoteTerms(companyId, quoteId, {
      deposit: { kind: 'percent', value: 30 },
      validUntil: '2020-01-31',
      customerNote: 'Price includes parts.',
    })
    await sendQuote(companyId, quoteId)
    const { quoteId: draftId } = await newQuote(companyId)
    const expired = await listQuotes({ companyId, status: 'Expired', today: today() })
    expect(expired.quotes.map((q) => q.id)).toEqual([quoteId])
    const drafts = await listQuotes({ companyId, status: 'Draft', today: today() })
    expect(drafts.quotes.map((q) => q.id)).toEqual([draftId])
    expect((await listQuotes({ companyId, status: 'Sent', today: today() })).quotes).toEqual([])
  })

  it('refuses sending a quote with no lines or to a customer without email, and keeps a refused change out', async () => {
    const companyId = await newCompany('Refusal Pools')
    const { quoteId } = await newQuote(companyId, null)
    expect(await sendQuote(companyId, quoteId)).toMatchObject({ ok: false, message: QUOTE_MESSAGES.noLines })
    await addQuoteLine(companyId, quoteId, typed('Tile repair', 100, 10_000))
    expect(await sendQuote(companyId, quoteId)).toMatchObject({ ok: false, message: QUOTE_MESSAGES.noEmail })
    const refused = await addQuoteLine(companyId, quoteId, { ...typed('', 100, 0), description: null })
    expect(refused).toMatchObject({ ok: false, message: QUOTE_MESSAGES.noDescription })
    // Lines of $1,000,000 each: the eleventh would take the quote (options ticked) past $10 million.
    for (let i = 0; i < 9; i++) await addQuoteLine(companyId, quoteId, typed('Big', 100, 100_000_000, i % 2 === 0))
    const tooMuch = await addQuoteLine(companyId, quoteId, typed('Big', 100, 100_000_000, true))
    expect(tooMuch).toMatchObject({ ok: false, message: QUOTE_MESSAGES.quoteTooLarge })
    expect((await getQuote({ companyId, quoteId, today: today() }))?.version.lines).toHaveLength(10)
  })

  it("never shows or changes another company's quote, customer or price book item", async () => {
    const mine = await newCompany('Mine Pools')
    const theirs = await newCompany('Theirs Pools')
    const { customerId, quoteId } = await newQuote(theirs)
    const item = await createPriceBookItem(theirs, {
      name: 'Their part',
      kind: 'part',
      priceCents: 100,
      costCents: 0,
      taxable: true,
      inventoryItemId: null,
    })
    if (!item.ok) throw new Error('no item')
    expect(await getQuote({ companyId: mine, quoteId, today: today() })).toBeNull()
    expect(await addQuoteLine(mine, quoteId, typed('X', 100, 100))).toMatchObject({ ok: false, code: 'not-found' })
    expect(await sendQuote(mine, quoteId)).toMatchObject({ ok: false, code: 'not-found' })
    expect(await createQuote({ companyId: mine, customerId, today: today() })).toMatchObject({ code: 'not-found' })
    const { quoteId: own } = await newQuote(mine)
    const fromTheirs = await addQuoteLine(mine, own, {
      description: null,
      quantityHundredths: 100,
      unitPriceCents: null,
      priceBookItemId: item.item.id,
      optional: false,
      taxable: null,
    })
    expect(fromTheirs).toMatchObject({ ok: false, message: QUOTE_MESSAGES.itemNotFound })
    expect(await setPriceBookItemArchived(mine, item.item.id, true)).toMatchObject({ code: 'not-found' })
    expect((await listPriceBook({ companyId: mine, page: 1 })).items).toEqual([])
    // A customer sees their own quotes only.
    const otherCustomer = await addTestCustomer(theirs, { customerName: 'Other', address: '1 A St, Tampa, FL 33606' })
    expect(
      await getQuote({ companyId: theirs, quoteId, customerId: otherCustomer.id, today: today(), latestSent: true }),
    ).toBeNull()
  })

  it('stores totals equal to the sums of the lines for any lines (property)', async () => {
    const companyId = await newCompany('Property Pools', 8125)
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            quantityHundredths: fc.integer({ min: 1, max: 5000 }),
            unitPriceCents: fc.integer({ min: 0, max: 200_000 }),
            optional: fc.boolean(),
            taxable: fc.boolean(),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        async (lines) => {
          const { quoteId } = await newQuote(companyId)
          for (const line of lines) {
            await addQuoteLine(companyId, quoteId, { ...line, description: 'Line', priceBookItemId: null })
          }
          const quote = await getQuote({ companyId, quoteId, today: today() })
          if (!quote) throw new Error('no quote')
          const stored = quote.version.lines
          for (const line of stored) {
            expect(line.amountCents).toBe(lineAmountCents(line.quantityHundredths, line.unitPriceCents))
          }
          const required = stored.filter((l) => !l.optional).reduce((sum, l) => sum + l.amountCents, 0)
          expect(quote.version.subtotalCents).toBe(required)
          expect(quote.version.totalCents).toBe(quote.version.subtotalCents + quote.version.taxCents)
          expect(quote.version).toMatchObject(quoteTotals(stored, 8125))
        },
      ),
      { numRuns: 15 },
    )
  })
})
