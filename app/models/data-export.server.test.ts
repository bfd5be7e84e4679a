// "Export all data" across page boundaries: a company with more customers than one page of the export still comes
// out whole (every row once, in files that each start with their header), and nothing of another company does.
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { companies } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { applyImport } from './customer-import.server'
import { previewImport } from './customer-import-preview.server'
import { EXPORT_PAGE_ROWS, exportAllData } from './data-export.server'
import { recordPayment } from './payment.server'
import { getQuote } from './quote.server'
import { createQuote } from './quote-create.server'
import { approveQuote } from './quote-decision.server'
import { addQuoteLine, setQuoteTerms } from './quote-edits.server'
import { sendQuote } from './quote-send.server'

async function companyWith(customerCount: number, tag: string) {
  const [company] = await db()
    .insert(companies)
    .values({ name: `Export Pools ${tag}` })
    .returning()
  const companyId = company?.id as string
  const rows = Array.from(
    { length: customerCount },
    (_, i) => `Customer ${tag} ${i},c${i}@${tag}.test,${i + 1} Palm Ave,Tampa,FL,33602,15000`,
  )
  const file = new TextEncoder().encode(['Customer Name,Email,Address,City,State,Zip,Gallons', ...rows].join('\n'))
  const preview = await previewImport(companyId, file)
  if (!preview.ok) throw new Error(preview.message)
  const applied = await applyImport(companyId, preview.plan)
  if (!applied.ok) throw new Error(applied.message)
  return companyId
}

async function unzip(stream: ReadableStream<Uint8Array>) {
  const files = unzipSync(new Uint8Array(await new Response(stream).arrayBuffer()))
  return Object.fromEntries(
    Object.entries(files).map(([name, bytes]) => [name, new TextDecoder().decode(bytes).replace(/^\uFEFF/, '')]),
  )
}

describe('Export all data', () => {
  it('writes every row of a company larger than one page, once, and nothing of another company', async () => {
    const count = EXPORT_PAGE_ROWS + 7
    const big = await companyWith(count, 'big')
    await companyWith(3, 'other')
    const files = await unzip(exportAllData(big))
    const lines = (name: string) => (files[name] ?? '').trim().split('\r\n')
    for (const name of ['customers.csv', 'locations.csv', 'bodies-of-water.csv']) {
      const [header, ...rows] = lines(name)
      expect(header, name).toMatch(/ID,/)
      expect(rows, name).toHaveLength(count)
      expect(new Set(rows.map((row) => row.split(',')[0])).size, name).toBe(count)
    }
    expect(files['customers.csv']).not.toContain('Customer other')
    expect(lines('visits.csv')).toHaveLength(1)
    expect(lines('payments.csv')).toEqual([
      'Payment ID,Invoice ID,Customer ID,Received on,Amount,Refunded,Method,Reference,Voided at,Void reason',
    ])
  })

  it('makes text a spreadsheet would run as a formula inert, and keeps a negative balance a number (N2)', async () => {
    const [company] = await db().insert(companies).values({ name: 'Export Pools formulas' }).returning()
    const companyId = company?.id as string
    const customer = await addTestCustomer(companyId, {
      customerName: "=cmd|' /C calc'!A0",
      address: '1 Palm Ave, Tampa, FL 33602',
      phone: '@SUM(1+1)',
    })
    const paid = await recordPayment({
      companyId,
      customerId: customer.id,
      invoiceId: null,
      amountCents: 5000,
      receivedOn: '2026-11-02',
      method: 'check',
      reference: '=1+1',
      recordedBy: null,
      now: new Date('2026-11-28T12:00:00Z'),
    })
    expect(paid.ok).toBe(true)
    const files = await unzip(exportAllData(companyId))
    const table = (name: string) => {
      const [header, ...rows] = (files[name] ?? '').trim().split('\r\n')
      const names = (header ?? '').split(',')
      return rows.map((row) => Object.fromEntries(row.split(',').map((value, i) => [names[i], value])))
    }
    const [row] = table('customers.csv')
    expect(row?.Name).toBe("'=cmd|' /C calc'!A0")
    expect(row?.Phone).toBe("'@SUM(1+1)")
    // A payment to no invoice is a credit: the balance is a negative amount, and stays one.
    expect(row?.Balance).toBe('-50.00')
    expect(table('payments.csv')[0]).toMatchObject({ Amount: '50.00', Reference: "'=1+1" })
  })

  it('writes quotes.csv: number, customer, status (Expired included), version, amounts approved, sent and decided', async () => {
    const [company] = await db()
      .insert(companies)
      .values({ name: 'Export Pools quotes', timezone: 'America/New_York' })
      .returning()
    const companyId = company?.id as string
    const customer = await addTestCustomer(companyId, {
      customerName: 'Quinn Quote',
      address: '4 Quote St, Tampa, FL 33602',
      email: 'quinn@example.test',
    })
    const line = (description: string, unitPriceCents: number, optional: boolean) => ({
      description,
      quantityHundredths: 100,
      unitPriceCents,
      priceBookItemId: null,
      optional,
      taxable: true,
    })
    const start = async () => {
      const created = await createQuote({ companyId, customerId: customer.id, today: '2026-11-01' })
      if (!created.ok) throw new Error(created.message)
      return created.quote.id
    }
    // Q-0001: approved with its optional line ticked — the approved amounts, not the version's required lines.
    const approved = await start()
    await addQuoteLine(companyId, approved, line('Replace heater', 120_000, false))
    await addQuoteLine(companyId, approved, line('Heat pump cover', 10_005, true))
    await sendQuote(companyId, approved)
    const shown = await getQuote({ companyId, quoteId: approved, today: '2026-11-01' })
    const cover = shown?.version.lines.find((l) => l.optional)?.id ?? ''
    const decided = await approveQuote({
      companyId,
      customerId: customer.id,
      quoteId: approved,
      versionId: shown?.version.id ?? '',
      signerName: 'Quinn Quote',
      signaturePng: null,
      ipAddress: null,
      tickedLineIds: [cover],
      today: '2026-11-01',
      now: new Date('2026-11-03T15:00:00Z'),
    })
    expect(decided.ok).toBe(true)
    // Q-0002: sent, and valid until a day long past: Expired. Q-0003: a draft with a formula-looking line.
    const expired = await start()
    await addQuoteLine(companyId, expired, line('Filter clean', 9_500, false))
    await setQuoteTerms(companyId, expired, {
      deposit: { kind: 'none', value: 0 },
      validUntil: '2020-01-31',
      customerNote: null,
    })
    await sendQuote(companyId, expired)
    await start()
    const files = await unzip(exportAllData(companyId))
    const [header, ...rows] = (files['quotes.csv'] ?? '').trim().split('\r\n')
    expect(header).toBe(
      'Quote ID,Customer ID,Number,Customer,Status,Version,Subtotal,Tax,Total,Valid until,Sent at,Decided at',
    )
    const byNumber = Object.fromEntries(
      rows.map((row) => {
        const cells = row.split(',')
        return [cells[2], cells]
      }),
    )
    expect(byNumber['Q-0001']?.slice(1, 10)).toEqual([
      customer.id,
      'Q-0001',
      'Quinn Quote',
      'Approved',
      '1',
      '1300.05',
      '0.00',
      '1300.05',
      '2026-12-01',
    ])
    expect(byNumber['Q-0001']?.[10]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(byNumber['Q-0001']?.[11]).toBe('2026-11-03T15:00:00Z')
    expect(byNumber['Q-0002']?.slice(4, 10)).toEqual(['Expired', '1', '95.00', '0.00', '95.00', '2020-01-31'])
    expect(byNumber['Q-0002']?.[11]).toBe('')
    expect(byNumber['Q-0003']?.slice(4, 12)).toEqual(['Draft', '1', '0.00', '0.00', '0.00', '2026-12-01', '', ''])
    expect(rows).toHaveLength(3)
  })
})
