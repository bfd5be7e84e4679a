// Approving a quote against the database (issue 33 item 3; docs/quotes.md): the approval is tied to the exact
// version shown — a stale version id is refused — the optional lines ticked count in the amounts kept, another
// customer's quote is not found, the signature is stored as a PNG, and the office is told once.
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { companies, emailOutbox, profiles, taxRates } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { getObject } from '~/utils/storage.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { getQuote } from './quote.server'
import { createQuote } from './quote-create.server'
import {
  approveQuote,
  DECISION_MESSAGES,
  declineQuote,
  getQuoteDecision,
  markQuoteApproved,
  signaturePngOf,
} from './quote-decision.server'
import { addQuoteLine } from './quote-edits.server'
import { sendQuote } from './quote-send.server'

const TZ = 'America/New_York'
const today = () => localDateAt(new Date(), TZ)
// A 1 × 1 transparent PNG, as a canvas would give it.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

async function sentQuote(name: string) {
  const [company] = await db().insert(companies).values({ name, timezone: TZ }).returning()
  if (!company) throw new Error('no company')
  await db().insert(taxRates).values({ companyId: company.id, name: 'Sales tax', milliPercent: 5000, isDefault: true })
  await createDemoLogin(db(), {
    email: `owner-${company.id}@example.test`,
    fullName: 'Olive Owner',
    role: 'owner',
    companyId: company.id,
  })
  const customer = await addTestCustomer(company.id, {
    customerName: 'Sam Signer',
    address: '3 Approve Ln, Tampa, FL 33606',
    email: 'sam@example.test',
  })
  const created = await createQuote({ companyId: company.id, customerId: customer.id, today: today() })
  if (!created.ok) throw new Error(created.message)
  const quoteId = created.quote.id
  const line = (description: string, unitPriceCents: number, optional: boolean) => ({
    description,
    quantityHundredths: 100,
    unitPriceCents,
    priceBookItemId: null,
    optional,
    taxable: true,
  })
  await addQuoteLine(company.id, quoteId, line('Replace pump', 100_000, false))
  await addQuoteLine(company.id, quoteId, line('Add salt cell', 50_000, true))
  await addQuoteLine(company.id, quoteId, line('LED light', 30_000, true))
  await sendQuote(company.id, quoteId)
  const quote = await getQuote({ companyId: company.id, quoteId, today: today() })
  if (!quote) throw new Error('no quote')
  return { companyId: company.id, customerId: customer.id, quoteId, quote }
}

describe('quote approval', () => {
  it('refuses a stale version, then approves the version shown with the ticked option, signature and amounts', async () => {
    const { companyId, customerId, quoteId, quote } = await sentQuote('Approve Pools')
    const v1 = quote.version.id
    const salt = quote.version.lines.find((l) => l.description === 'Add salt cell')?.id ?? ''
    // The office revises and re-sends: version 2. The customer's page still showed version 1.
    await addQuoteLine(companyId, quoteId, {
      description: 'Permit fee',
      quantityHundredths: 100,
      unitPriceCents: 5_000,
      priceBookItemId: null,
      optional: false,
      taxable: false,
    })
    const base = {
      companyId,
      customerId,
      quoteId,
      signerName: 'Sam Signer',
      signaturePng: signaturePngOf(PNG),
      ipAddress: '203.0.113.9',
      tickedLineIds: [salt],
      today: today(),
    }
    // While version 2 is a draft, and after it is sent, version 1 cannot be approved.
    expect(await approveQuote({ ...base, versionId: v1 })).toMatchObject({
      ok: false,
      message: DECISION_MESSAGES.stale,
    })
    await sendQuote(companyId, quoteId)
    expect(await approveQuote({ ...base, versionId: v1 })).toMatchObject({
      ok: false,
      message: DECISION_MESSAGES.stale,
    })
    expect(await getQuoteDecision(companyId, quoteId)).toBeNull()

    const v2 = await getQuote({ companyId, quoteId, customerId, today: today(), latestSent: true })
    const salt2 = v2?.version.lines.find((l) => l.description === 'Add salt cell')?.id ?? ''
    const approved = await approveQuote({ ...base, versionId: v2?.version.id ?? '', tickedLineIds: [salt2, salt] })
    // $1,000 + $500 (ticked) + $50 permit; 5 % tax on the taxable $1,500 = $75.
    expect(approved).toMatchObject({ ok: true, totalCents: 162_500 })
    const decision = await getQuoteDecision(companyId, quoteId)
    expect(decision).toMatchObject({
      decision: 'approved',
      source: 'customer',
      signerName: 'Sam Signer',
      signed: true,
      ipAddress: '203.0.113.9',
      version: 2,
      chosenLineIds: [salt2],
      subtotalCents: 155_000,
      taxCents: 7_500,
      totalCents: 162_500,
    })
    const png = await getObject(`quote-signatures/${companyId}/${quoteId}/${v2?.version.id}.png`)
    expect(png?.bytes.subarray(1, 4).toString()).toBe('PNG')
    expect((await getQuote({ companyId, quoteId, today: today() }))?.status).toBe('Approved')
    // Decided once: a second approval or a decline is refused, and the approved quote no longer changes.
    expect(await approveQuote({ ...base, versionId: v2?.version.id ?? '' })).toMatchObject({
      message: DECISION_MESSAGES.decided,
    })
    expect(await declineQuote({ ...base, versionId: v2?.version.id ?? '', reason: 'x' })).toMatchObject({ ok: false })
    expect(
      await addQuoteLine(companyId, quoteId, {
        ...base,
        description: 'x',
        quantityHundredths: 100,
        unitPriceCents: 1,
        priceBookItemId: null,
        optional: false,
        taxable: true,
      }),
    ).toMatchObject({ ok: false, code: 'conflict' })
    const mails = await db()
      .select({ to: emailOutbox.to, subject: emailOutbox.subject })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.noticeEvent, 'quote-decided')))
    expect(mails).toEqual([{ to: `owner-${companyId}@example.test`, subject: 'Quote approved: Q-0001' }])
  })

  it("never lets another customer approve the quote, and keeps the office's Mark as approved apart from signatures", async () => {
    const { companyId, customerId, quoteId, quote } = await sentQuote('Office Pools')
    const other = await addTestCustomer(companyId, { customerName: 'Nosy', address: '4 Other St, Tampa, FL 33606' })
    const attempt = {
      companyId,
      customerId: other.id,
      quoteId,
      versionId: quote.version.id,
      signerName: 'Nosy',
      signaturePng: null,
      ipAddress: null,
      tickedLineIds: [],
      today: today(),
    }
    expect(await approveQuote(attempt)).toMatchObject({ ok: false, code: 'not-found' })
    expect(signaturePngOf('data:image/png;base64,AAAA')).toBeNull()
    const [owner] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.companyId, companyId))
    const marked = await markQuoteApproved({
      companyId,
      quoteId,
      approvedBy: 'Sam Signer',
      method: 'phone',
      approvedAt: new Date(),
      recordedBy: owner?.id ?? '',
      tickedLineIds: [],
      today: today(),
    })
    expect(marked).toMatchObject({ ok: true, totalCents: 105_000 })
    expect(await getQuoteDecision(companyId, quoteId)).toMatchObject({
      source: 'office',
      officeMethod: 'phone',
      recordedByName: 'Olive Owner',
      signed: false,
      ipAddress: null,
    })
    expect(await approveQuote({ ...attempt, customerId })).toMatchObject({ message: DECISION_MESSAGES.decided })
  })
})
