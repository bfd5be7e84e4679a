// Where a customer finds each of their records in the portal. Emails, texts, PDFs, the portal's own pages and the
// office's link to an invoice in the portal all build these addresses, so they sit in the lowest layer, where every
// one of them may import them (docs/architecture.md "No cycles").

/** A completed visit's report (the customer signs in to the portal first if need be). */
export function visitReportPath(customerId: string, visitId: string) {
  return `/customer/${customerId}/visits/${visitId}`
}

/** Where the customer sees (and pays) an invoice. */
export function portalInvoicePath(customerId: string, invoiceId: string) {
  return `/customer/${customerId}/invoices/${invoiceId}`
}

/** Where the customer reviews and approves a quote. */
export function portalQuotePath(customerId: string, quoteId: string) {
  return `/customer/${customerId}/quotes/${quoteId}`
}
