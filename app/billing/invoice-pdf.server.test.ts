// The invoice PDF read back as a PDF (docs/decisions/039-invoice-pdf.md): its header, its pages and its words.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { readPdf } from '../../tests/helpers/pdf'
import { type InvoicePdfProps, invoicePdf, invoicesPdf } from './invoice-pdf.server'

function props(numberLabel: string, overrides: Partial<InvoicePdfProps> = {}): InvoicePdfProps {
  return {
    company: { name: 'Blue Lagoon Pool Co.', addressLines: ['12 Harbor Way', 'Tampa, FL 33602'], logo: null },
    customer: { name: 'Dana Whitfield', addressLines: ['88 Palm Ave', 'Tampa, FL 33606'] },
    invoice: {
      numberLabel,
      status: 'Sent',
      period: 'November 2026',
      issuedOn: 'Dec 1, 2026',
      dueOn: 'Dec 16, 2026',
    },
    lines: [
      { description: 'Weekly service — 88 Palm Ave (4 visits)', quantity: '4', unit: '$40.00', amount: '$160.00' },
      { description: 'Chlorine tablets', quantity: '2.5', unit: '$3.10', amount: '$7.75' },
    ],
    totals: {
      subtotal: '$167.75',
      taxes: [{ label: 'Sales tax 7.25 %', value: '$12.16' }],
      total: '$179.91',
      creditApplied: null,
      paid: '$0.00',
      amountDue: '$179.91',
    },
    howToPay: ['Pay online: https://bluelagoon.example/customer/abc', 'Checks payable to Blue Lagoon Pool Co.'],
    ...overrides,
  }
}

describe('invoicePdf', () => {
  it('is a one-page PDF with the company, number, period, lines, tax, totals and how to pay', async () => {
    const pdf = await readPdf(await invoicePdf(props('#1042')))
    expect(pdf.header).toBe('%PDF-')
    expect(pdf.pages).toBe(1)
    for (const words of [
      'Blue Lagoon Pool Co.',
      '12 Harbor Way',
      'Invoice #1042',
      'November 2026',
      'Dana Whitfield',
      'Chlorine tablets',
      '$7.75',
      'Sales tax 7.25 %',
      '$12.16',
      '$179.91',
      'Amount due',
      'How to pay',
      'Checks payable to Blue Lagoon Pool Co.',
    ]) {
      expect(pdf.text).toContain(words)
    }
  })

  it('puts the late completions under their own "Late completions" heading', async () => {
    const late = {
      description: 'Weekly service — Oct 26 (completed late)',
      quantity: '1',
      unit: '$40.00',
      amount: '$40.00',
    }
    const pdf = await readPdf(
      await invoicePdf(props('#8', { lines: [...props('#8').lines, { ...late, lateGroupStart: true }] })),
    )
    expect(pdf.text).toContain('Late completions')
    expect(pdf.text.indexOf('Late completions')).toBeLessThan(pdf.text.indexOf('Oct 26 (completed late)'))
    // Without late lines there is no heading.
    expect((await readPdf(await invoicePdf(props('#9')))).text).not.toContain('Late completions')
  })

  it('draws the company logo when there is one, and says "Not emailed — print" when so delivered', async () => {
    const logo = await sharp({ create: { width: 200, height: 80, channels: 3, background: '#0af' } })
      .png()
      .toBuffer()
    const bytes = await invoicePdf(
      props('#7', {
        company: { name: 'Blue Lagoon Pool Co.', addressLines: [], logo },
        invoice: { ...props('#7').invoice, deliveryNote: 'Not emailed — print' },
      }),
    )
    const pdf = await readPdf(bytes)
    expect(pdf.text).toContain('Not emailed — print')
    // The image is embedded as an XObject.
    expect(Buffer.from(bytes).toString('latin1')).toContain('/Subtype /Image')
  })

  it('embeds a batch’s one logo once, however many invoices draw it, with the company’s email under its address', async () => {
    const logo = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#0af' } })
      .jpeg()
      .toBuffer()
    const company = {
      name: 'Blue Lagoon Pool Co.',
      addressLines: ['12 Harbor Way'],
      email: 'office@bluelagoon.example',
      logo,
    }
    const bytes = await invoicesPdf([props('#1', { company }), props('#2', { company }), props('#3', { company })])
    const pdf = await readPdf(bytes)
    expect(pdf.pages).toBe(3)
    expect(pdf.text).toContain('12 Harbor Way office@bluelagoon.example')
    expect(
      Buffer.from(bytes)
        .toString('latin1')
        .match(/\/Subtype \/Image/g),
    ).toHaveLength(1)
  })

  it('puts each invoice of a batch on its own page, and a long invoice runs onto more pages', async () => {
    const batch = await readPdf(await invoicesPdf([props('#1'), props('#2'), props('#3')]))
    expect(batch.pages).toBe(3)
    expect(batch.text).toContain('Invoice #1')
    expect(batch.text).toContain('Invoice #3')
    const many = Array.from({ length: 80 }, (_, i) => ({
      description: `Visit ${i + 1}`,
      quantity: '1',
      unit: '$40.00',
      amount: '$40.00',
    }))
    const long = await readPdf(await invoicePdf(props('#9', { lines: many })))
    expect(long.pages).toBeGreaterThan(1)
    expect(long.text).toContain('Visit 80')
  })
})
