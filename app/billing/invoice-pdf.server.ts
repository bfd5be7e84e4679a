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
  lines: { description: string; quantity: string; unit: string; amount: string }[]
  totals: {
    subtotal: string
    tax: string | null
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
  for (const invoice of list) drawInvoice(doc, invoice)
  doc.end()
  return done
}

function drawInvoice(doc: PDFKit.PDFDocument, props: InvoicePdfProps) {
  doc.addPage()
  const top = MARGIN
  let left = MARGIN
  if (props.company.logo) {
    try {
      doc.image(props.company.logo, MARGIN, top, { fit: [150, 60] })
      left = MARGIN + 160
    } catch {
      // A logo pdfkit cannot read is left out rather than failing the invoice.
    }
  }
  doc.font('Helvetica-Bold').fontSize(16).text(props.company.name, left, top, { width: 260 })
  doc.font('Helvetica').fontSize(10)
  for (const line of props.company.addressLines) doc.text(line, { width: 260 })
  const companyBottom = Math.max(doc.y, props.company.logo ? top + 64 : 0)

  // The heading facts, on the right.
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(`Invoice ${props.invoice.numberLabel}`, 330, top, {
      width: PAGE_WIDTH - MARGIN - 330,
      align: 'right',
    })
  doc.font('Helvetica').fontSize(10)
  const facts: string[] = [`Status: ${props.invoice.status}`]
  if (props.invoice.period) facts.push(`Period: ${props.invoice.period}`)
  if (props.invoice.issuedOn) facts.push(`Issued: ${props.invoice.issuedOn}`)
  if (props.invoice.dueOn) facts.push(`Due: ${props.invoice.dueOn}`)
  if (props.invoice.deliveryNote) facts.push(props.invoice.deliveryNote)
  for (const fact of facts) doc.text(fact, 330, doc.y, { width: PAGE_WIDTH - MARGIN - 330, align: 'right' })

  // Bill to.
  let y = Math.max(companyBottom, doc.y) + 24
  doc.font('Helvetica-Bold').fontSize(10).text('Bill to', MARGIN, y)
  doc.font('Helvetica').text(props.customer.name)
  for (const line of props.customer.addressLines) doc.text(line)

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
    if (y + height > doc.page.height - MARGIN - 40) {
      doc.addPage()
      y = MARGIN
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
  const totals: [string, string, boolean][] = [['Subtotal', props.totals.subtotal, false]]
  if (props.totals.tax) totals.push(['Tax', props.totals.tax, false])
  totals.push(['Total', props.totals.total, true])
  if (props.totals.creditApplied) totals.push(['Credit applied', `-${props.totals.creditApplied}`, false])
  totals.push(['Paid', props.totals.paid, false])
  totals.push(['Amount due', props.totals.amountDue, true])
  for (const [label, value, bold] of totals) {
    if (y > doc.page.height - MARGIN - 20) {
      doc.addPage()
      y = MARGIN
    }
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica')
    doc.text(label, COLUMNS.unit - 60, y, { width: 130, align: 'right' })
    doc.text(value, COLUMNS.amount, y, { width: NUMBER_WIDTH, align: 'right' })
    y = doc.y + 4
  }

  // How to pay.
  if (props.howToPay.length > 0) {
    y += 16
    if (y > doc.page.height - MARGIN - 60) {
      doc.addPage()
      y = MARGIN
    }
    doc.font('Helvetica-Bold').text('How to pay', MARGIN, y)
    doc.font('Helvetica')
    for (const line of props.howToPay) doc.text(line, MARGIN, doc.y, { width: CONTENT_WIDTH })
  }
}
