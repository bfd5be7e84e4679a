// Invoices on paper (issue 31 item 4, docs/decisions/039-invoice-pdf.md): "Download PDF" on an invoice, and the
// print batch of "Send invoices" (one PDF, each invoice starting on its own page). The lowest layer: it takes plain,
// already formatted props and returns the PDF's bytes; it reads no database and knows no route. Drawn with pdfkit
// and its built-in Helvetica (no font files, no network).
import PDFDocument from 'pdfkit'

export type InvoicePdfProps = {
  company: {
    name: string
    /** Lines of the company's address, as the company writes it; none when not set. */
    addressLines: string[]
    /** The company's email (Settings → "Company email"), printed under the address; null when not set. */
    email?: string | null
    /** The company logo (PNG or JPEG bytes), drawn at the top left; null when the company has none. */
    logo: Buffer | null
  }
  customer: { name: string; addressLines: string[] }
  invoice: {
    numberLabel: string
    /** "Not emailed — print" and the like: said under the heading when set. */
    deliveryNote?: string | null
    status: string
    period: string | null
    issuedOn: string | null
    dueOn: string | null
  }
  /** `lateGroupStart`: the first "Late completions" line, with the group's heading above it (docs/billing.md). */
  lines: { description: string; quantity: string; unit: string; amount: string; lateGroupStart?: boolean }[]
  totals: {
    subtotal: string
    /** One per tax rate: "Tampa 7.5 % tax". */
    taxes: { label: string; value: string }[]
    total: string
    creditApplied: string | null
    paid: string
    amountDue: string
  }
  /** How to pay, one sentence a line ("Pay online at …", "Checks payable to …"). */
  howToPay: string[]
}

const MARGIN = 50
const PAGE_WIDTH = 612 // US Letter
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN
const COLUMNS = { description: MARGIN, quantity: 330, unit: 390, amount: 470 }
const NUMBER_WIDTH = 92

/** One invoice as a PDF. */
export function invoicePdf(invoice: InvoicePdfProps): Promise<Buffer> {
  return invoicesPdf([invoice])
}

/** Several invoices in one PDF, each starting on a new page (the print batch). */
export function invoicesPdf(list: InvoicePdfProps[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: list.length === 1 ? `Invoice ${list[0]?.invoice.numberLabel}` : 'Invoices to print' },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  if (list.length === 0) {
    doc.addPage()
    doc.font('Helvetica').fontSize(12).text('No invoices to print.')
  }
  // One logo drawn on a hundred pages is embedded once: pdfkit reuses an image it has opened.
  const opened = new Map<Buffer, PDFKit.Mixins.ImageSrc>()
  const logoOf = (bytes: Buffer) => {
    let image = opened.get(bytes)
    if (!image) {
      image = (doc as unknown as { openImage(src: Buffer): PDFKit.Mixins.ImageSrc }).openImage(bytes)
      opened.set(bytes, image)
    }
    return image
  }
  for (const invoice of list) drawDocument(doc, invoicePage(invoice), logoOf)
  doc.end()
  return done
}

/** What one document's page shows, invoice or quote: the one layout both are drawn with. */
type PageProps = {
  company: InvoicePdfProps['company']
  heading: string
  facts: string[]
  partyLabel: string
  customer: InvoicePdfProps['customer']
  /** Lines under the customer's block (a quote's equipment); none on an invoice. */
  subject?: string[]
  lines: InvoicePdfProps['lines']
  totals: [label: string, value: string, bold: boolean][]
  notesHeading: string
  notes: string[]
}

function invoicePage(props: InvoicePdfProps): PageProps {
  const facts: string[] = [`Status: ${props.invoice.status}`]
  if (props.invoice.period) facts.push(`Period: ${props.invoice.period}`)
  if (props.invoice.issuedOn) facts.push(`Issued: ${props.invoice.issuedOn}`)
  if (props.invoice.dueOn) facts.push(`Due: ${props.invoice.dueOn}`)
  if (props.invoice.deliveryNote) facts.push(props.invoice.deliveryNote)
  const totals: [string, string, boolean][] = [['Subtotal', props.totals.subtotal, false]]
  for (const tax of props.totals.taxes) totals.push([tax.label, tax.value, false])
  totals.push(['Total', props.totals.total, true])
  if (props.totals.creditApplied) totals.push(['Credit applied', `-${props.totals.creditApplied}`, false])
  totals.push(['Paid', props.totals.paid, false])
  totals.push(['Amount due', props.totals.amountDue, true])
  return {
    company: props.company,
    heading: `Invoice ${props.invoice.numberLabel}`,
    facts,
    partyLabel: 'Bill to',
    customer: props.customer,
    lines: props.lines,
    totals,
    notesHeading: 'How to pay',
    notes: props.howToPay,
  }
}

/** A quote on paper (docs/quotes.md): the invoice's layout, with the quote's facts, totals and note. */
export type QuotePdfProps = {
  company: InvoicePdfProps['company']
  customer: InvoicePdfProps['customer']
  /** What the quote is for ("For: Pentair IntelliFlo pump (SN …)", "Under warranty"), under the customer. */
  subject?: string[]
  quote: { numberLabel: string; status: string; version: number; validUntil: string | null }
  lines: InvoicePdfProps['lines']
  totals: { subtotal: string; taxLabel: string; tax: string; total: string; deposit: string | null }
  /** "Note for customer", and where to approve it. */
  notes: string[]
}

export function quotePdf(props: QuotePdfProps): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: `Quote ${props.quote.numberLabel}` },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const facts = [`Status: ${props.quote.status}`, `Version: ${props.quote.version}`]
  if (props.quote.validUntil) facts.push(`Valid until: ${props.quote.validUntil}`)
  const totals: [string, string, boolean][] = [
    ['Subtotal', props.totals.subtotal, false],
    [props.totals.taxLabel, props.totals.tax, false],
    ['Total', props.totals.total, true],
  ]
  if (props.totals.deposit) totals.push(['Deposit', props.totals.deposit, false])
  drawDocument(
    doc,
    {
      company: props.company,
      heading: `Quote ${props.quote.numberLabel}`,
      facts,
      partyLabel: 'Prepared for',
      customer: props.customer,
      subject: props.subject ?? [],
      lines: props.lines,
      totals,
      notesHeading: 'Notes',
      notes: props.notes,
    },
    (bytes) => (doc as unknown as { openImage(src: Buffer): PDFKit.Mixins.ImageSrc }).openImage(bytes),
  )
  doc.end()
  return done
}

function drawDocument(doc: PDFKit.PDFDocument, props: PageProps, logoOf: (bytes: Buffer) => PDFKit.Mixins.ImageSrc) {
  doc.addPage()
  const top = MARGIN
  // The logo at the top left, the company's name, address and email under it; the heading facts on the right.
  let nameTop = top
  if (props.company.logo) {
    try {
      doc.image(logoOf(props.company.logo), MARGIN, top, { fit: [180, 60] })
      nameTop = top + 68
    } catch {
      // A logo pdfkit cannot read is left out rather than failing the invoice.
    }
  }
  doc.font('Helvetica-Bold').fontSize(16).text(props.company.name, MARGIN, nameTop, { width: 270 })
  doc.font('Helvetica').fontSize(10)
  for (const line of props.company.addressLines) doc.text(line, { width: 270 })
  if (props.company.email) doc.text(props.company.email, { width: 270 })
  const companyBottom = doc.y

  // The heading facts, on the right.
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(props.heading, 330, top, {
      width: PAGE_WIDTH - MARGIN - 330,
      align: 'right',
    })
  doc.font('Helvetica').fontSize(10)
  for (const fact of props.facts) doc.text(fact, 330, doc.y, { width: PAGE_WIDTH - MARGIN - 330, align: 'right' })

  // Bill to.
  let y = Math.max(companyBottom, doc.y) + 24
  doc.font('Helvetica-Bold').fontSize(10).text(props.partyLabel, MARGIN, y)
  doc.font('Helvetica').text(props.customer.name)
  for (const line of props.customer.addressLines) doc.text(line)
  if (props.subject?.length) {
    doc.moveDown(0.5)
    for (const line of props.subject) doc.text(line, MARGIN, doc.y, { width: CONTENT_WIDTH })
  }

  // The lines.
  y = doc.y + 20
  doc.font('Helvetica-Bold')
  doc.text('Description', COLUMNS.description, y, { width: COLUMNS.quantity - COLUMNS.description - 10 })
  doc.text('Qty', COLUMNS.quantity, y, { width: 50, align: 'right' })
  doc.text('Unit price', COLUMNS.unit, y, { width: 70, align: 'right' })
  doc.text('Amount', COLUMNS.amount, y, { width: NUMBER_WIDTH, align: 'right' })
  y = doc.y + 4
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + CONTENT_WIDTH, y)
    .stroke()
  y += 6
  doc.font('Helvetica')
  for (const line of props.lines) {
    const height = doc.heightOfString(line.description, { width: COLUMNS.quantity - COLUMNS.description - 10 })
    if (y + height + (line.lateGroupStart ? 20 : 0) > doc.page.height - MARGIN - 40) {
      doc.addPage()
      y = MARGIN
    }
    if (line.lateGroupStart) {
      doc.font('Helvetica-Bold').text('Late completions', COLUMNS.description, y + 4)
      doc.font('Helvetica')
      y = doc.y + 6
    }
    doc.text(line.description, COLUMNS.description, y, { width: COLUMNS.quantity - COLUMNS.description - 10 })
    doc.text(line.quantity, COLUMNS.quantity, y, { width: 50, align: 'right' })
    doc.text(line.unit, COLUMNS.unit, y, { width: 70, align: 'right' })
    doc.text(line.amount, COLUMNS.amount, y, { width: NUMBER_WIDTH, align: 'right' })
    y += height + 6
  }
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + CONTENT_WIDTH, y)
    .stroke()
  y += 8

  // The totals.
  for (const [label, value, bold] of props.totals) {
    if (y > doc.page.height - MARGIN - 20) {
      doc.addPage()
      y = MARGIN
    }
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica')
    doc.text(label, COLUMNS.unit - 60, y, { width: 130, align: 'right' })
    doc.text(value, COLUMNS.amount, y, { width: NUMBER_WIDTH, align: 'right' })
    y = doc.y + 4
  }

  // How to pay (an invoice), or the notes (a quote).
  if (props.notes.length > 0) {
    y += 16
    if (y > doc.page.height - MARGIN - 60) {
      doc.addPage()
      y = MARGIN
    }
    doc.font('Helvetica-Bold').text(props.notesHeading, MARGIN, y)
    doc.font('Helvetica')
    for (const line of props.notes) doc.text(line, MARGIN, doc.y, { width: CONTENT_WIDTH })
  }
}
