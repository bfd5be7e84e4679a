// The quote PDF read back as a PDF (docs/quotes.md): the invoice's builder with the quote's heading, facts, optional
// lines, totals, deposit and notes.
import { describe, expect, it } from 'vitest'
import { readPdf } from '../../tests/helpers/pdf'
import { quotePdf } from './invoice-pdf.server'

describe('quotePdf', () => {
  it('is a one-page PDF with the company, the quote number and version, lines, totals, deposit and notes', async () => {
    const pdf = await readPdf(
      await quotePdf({
        company: { name: 'Blue Lagoon Pool Co.', addressLines: ['12 Harbor Way'], logo: null },
        customer: { name: 'Dana Whitfield', addressLines: [] },
        quote: { numberLabel: 'Q-0007', status: 'Sent', version: 2, validUntil: '2026-12-31' },
        lines: [
          { description: 'Replace pump motor', quantity: '1', unit: '$850.00', amount: '$850.00' },
          { description: 'Salt cell upgrade (optional)', quantity: '1', unit: '$400.00', amount: '$400.00' },
        ],
        totals: {
          subtotal: '$850.00',
          taxLabel: 'Tax (7%)',
          tax: '$59.50',
          total: '$909.50',
          deposit: '30% ($272.85)',
        },
        notes: ['Parts carry a one-year warranty.', 'Review and approve online: https://example.test/q'],
      }),
    )
    expect(pdf.header).toBe('%PDF-')
    expect(pdf.pages).toBe(1)
    for (const words of [
      'Blue Lagoon Pool Co.',
      'Quote Q-0007',
      'Version: 2',
      'Valid until: 2026-12-31',
      'Prepared for',
      'Dana Whitfield',
      'Salt cell upgrade (optional)',
      'Tax (7%)',
      '$909.50',
      'Deposit',
      '30% ($272.85)',
      'Parts carry a one-year warranty.',
    ]) {
      expect(pdf.text).toContain(words)
    }
    expect(pdf.text).not.toContain('Amount due')
  })
})
