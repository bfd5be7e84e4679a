// "Download PDF" (issue 31 item 4, docs/decisions/039-invoice-pdf.md): an invoice the office or its customer may see,
// drawn as the page draws it (the same formatted document) with the company's letterhead and how to pay, and the
// response that hands it over as a download nobody caches.
import { type InvoicePdfProps, invoicePdf, invoicesPdf } from '~/billing/invoice-pdf.server'
import type { CompanyLetterhead } from '~/models/company-letterhead.server'
import type { InvoiceDetail } from '~/models/invoice.server'
import { env } from '~/utils/env.server'
import { portalInvoicePath } from '~/utils/portal-paths'
import { presentInvoiceDocument } from './invoice-view'

/** The props of one invoice's pages. */
export function invoicePdfProps(invoice: InvoiceDetail, company: CompanyLetterhead): InvoicePdfProps {
  const document = presentInvoiceDocument(invoice)
  const howToPay =
    invoice.state === 'sent' && invoice.outstandingCents > 0
      ? [
          `Pay online: ${env().APP_URL}${portalInvoicePath(invoice.customerId, invoice.id)}`,
          `Or pay by check payable to ${company.name}, writing ${document.numberLabel} on it.`,
        ]
      : []
  return {
    company,
    customer: {
      name: document.customerName,
      addressLines: (document.billingAddress ?? '')
        .split(/\r?\n|,\s*(?=[^,]*$)/)
        .map((line) => line.trim())
        .filter(Boolean),
    },
    invoice: {
      numberLabel: document.numberLabel,
      status: document.status,
      period: document.period,
      issuedOn: document.issuedOn,
      dueOn: document.dueOn,
    },
    lines: document.lines,
    totals: document.totals,
    howToPay,
  }
}

/** A PDF as a download: `attachment`, never cached (invoices are private). */
export function pdfResponse(bytes: Buffer, filename: string) {
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'private, no-store',
    },
  })
}

/** One invoice's PDF download. */
export async function invoicePdfResponse(invoice: InvoiceDetail, company: CompanyLetterhead) {
  return pdfResponse(await invoicePdf(invoicePdfProps(invoice, company)), `invoice-${invoice.number}.pdf`)
}

/** The print batch: every invoice given, each from a new page, in one PDF named after the month. */
export async function printBatchResponse(list: InvoiceDetail[], company: CompanyLetterhead, month: string) {
  const props = list.map((invoice) => ({
    ...invoicePdfProps(invoice, company),
    invoice: { ...invoicePdfProps(invoice, company).invoice, deliveryNote: 'Not emailed — print' },
  }))
  return pdfResponse(await invoicesPdf(props), `invoices-to-print-${month}.pdf`)
}
