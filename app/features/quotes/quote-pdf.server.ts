// "Download PDF" of a quote (issue 33 item 2; docs/quotes.md): the same formatted quote the page shows, drawn by the
// invoice PDF's builder with the company's letterhead, handed over as a download nobody caches.
import { quotePdf } from '~/billing/invoice-pdf.server'
import { pdfResponse } from '~/features/billing/invoice-pdf.server'
import type { CompanyLetterhead } from '~/models/company-letterhead.server'
import type { QuoteView } from '~/models/quote.server'
import { env } from '~/utils/env.server'
import { portalQuotePath } from '~/utils/portal-paths'
import { presentQuote } from './quote-page.server'

export async function quotePdfResponse(quote: QuoteView, company: CompanyLetterhead) {
  const document = presentQuote(quote)
  const notes = [
    ...(document.note ? [document.note] : []),
    ...document.lines.filter((line) => line.optional).map((line) => `Optional: ${line.description} (${line.amount})`),
    `Review and approve online: ${env().APP_URL}${portalQuotePath(quote.customerId, quote.id)}`,
  ]
  const bytes = await quotePdf({
    company,
    customer: { name: document.customerName, addressLines: document.customerAddressLines },
    subject: document.equipment
      ? [`For: ${document.equipment.label}`, ...(document.equipment.underWarranty ? ['Under warranty'] : [])]
      : [],
    quote: {
      numberLabel: document.numberLabel,
      status: document.status,
      version: document.version,
      validUntil: document.validUntil,
    },
    lines: document.lines.map((line) => ({
      description: line.optional ? `${line.description} (optional)` : line.description,
      quantity: line.quantity,
      unit: line.unitPrice,
      amount: line.amount,
    })),
    totals: {
      subtotal: document.subtotal,
      taxLabel: document.taxLabel,
      tax: document.tax,
      total: document.total,
      deposit: document.depositText,
    },
    notes,
  })
  return pdfResponse(bytes, `quote-${document.numberLabel}-v${document.version}.pdf`)
}
