// "Export for QuickBooks" (docs/billing.md): a month's invoices and payments as the two files an accountant imports —
// IIF for QuickBooks Desktop, and CSV in QuickBooks Online's invoice-import layout. Pure: plain rows in, text out,
// so the same rows always give the same bytes (nothing here reads the clock or the database) and the files are
// golden-tested to the character (quickbooks.test.ts).
//
// IIF (Intuit Interchange Format): tab-separated, CRLF line ends; `!TRNS`/`!SPL`/`!ENDTRNS` rows name the columns,
// then each transaction is a TRNS row (the debit), its SPL rows (the credits) and ENDTRNS. Amounts are signed —
// debits positive, credits negative — and each transaction's amounts sum to zero, so the books balance:
// - INVOICE: debit "Accounts Receivable" the invoice's total; credit one income account per line, by its kind.
// - PAYMENT: debit "Undeposited Funds" the money received; credit "Accounts Receivable".
// A credit the customer had from an earlier overpayment needs no entry of its own: that overpayment was a PAYMENT
// already (it left the customer's receivable below zero), and this invoice's debit uses it up.
import { stringify } from 'csv-stringify/sync'
import { escapeFormula } from '~/customer-import/formula'
import { daysBetween, type LocalDate } from '~/schedule/local-date'
import { type InvoiceLineKind, invoiceNumberLabel, PAYMENT_METHOD_LABELS, type PaymentMethod } from './billing-fields'
import type { QuickBooksBasis } from './quickbooks-basis'

export const ACCOUNTS_RECEIVABLE = 'Accounts Receivable'
export const UNDEPOSITED_FUNDS = 'Undeposited Funds'

/** The account each kind of invoice line is credited to (QuickBooks' usual names; the accountant can rename them). */
export const LINE_ACCOUNTS: Record<InvoiceLineKind, string> = {
  visits: 'Pool Service Income',
  monthly: 'Pool Service Income',
  chemicals: 'Chemical Sales',
  tax: 'Sales Tax Payable',
  // What a customer owed before Pool Bud: QuickBooks books opening balances against this equity account.
  'opening-balance': 'Opening Balance Equity',
  // Lines added by hand on a draft (a repair part, labor) and discounts (negative amounts) — docs/billing.md.
  custom: 'Pool Service Income',
  discount: 'Discounts Given',
}

/** The product or service each kind of line is, in QuickBooks Online's "Item(Product/Service)" column. */
export const LINE_ITEMS: Record<Exclude<InvoiceLineKind, 'tax'>, string> = {
  visits: 'Pool Service',
  monthly: 'Pool Service',
  chemicals: 'Chemicals',
  'opening-balance': 'Opening Balance',
  custom: 'Other Service',
  discount: 'Discount',
}

export type ExportInvoiceLine = {
  kind: InvoiceLineKind
  description: string
  /** As stored: "4", "2.5". */
  quantity: string
  unitCents: number
  amountCents: number
}

export type ExportInvoice = {
  number: number
  customerName: string
  /** "November 2026", or null for an invoice of no period (an opening balance). */
  periodLabel: string | null
  issuedOn: LocalDate
  dueOn: LocalDate
  taxCents: number
  /** The customer's earlier overpayment applied to this invoice. */
  creditAppliedCents: number
  /** In their order on the invoice. */
  lines: ExportInvoiceLine[]
}

export type ExportPayment = {
  customerName: string
  receivedOn: LocalDate
  /** Net of refunds: what the company kept. */
  amountCents: number
  method: PaymentMethod
  reference: string | null
  /** The invoice it was recorded against; null for account credit. */
  invoiceNumber: number | null
}

export type ExportPeriod = { invoices: ExportInvoice[]; payments: ExportPayment[] }

/** Cents as a plain amount with two decimals: 16000 → "160.00", -1250 → "-12.50", 0 → "0.00". */
export function amountText(cents: number) {
  const abs = Math.abs(cents)
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
  return cents < 0 ? `-${text}` : text
}

/** "2026-11-30" → "11/30/2026", the date form both QuickBooks imports read. */
export function quickBooksDate(date: LocalDate) {
  return `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`
}

/** "Net 15": the terms the invoice was sent with, from its own dates (so a later change of terms changes nothing). */
export function termsOf(invoice: Pick<ExportInvoice, 'issuedOn' | 'dueOn'>) {
  const days = daysBetween(invoice.issuedOn, invoice.dueOn)
  return days === 0 ? 'Due on receipt' : `Net ${days}`
}

export {
  QUICKBOOKS_BASES,
  QUICKBOOKS_BASIS_LABELS,
  type QuickBooksBasis,
  readQuickBooksBasis,
} from './quickbooks-basis'

/** `pool-bud-quickbooks-2026-11-by-service-period.iif`: the file's name says the month ("2026-11") and the basis. */
export function quickBooksFileName(month: string, basis: QuickBooksBasis, extension: 'iif' | 'csv') {
  return `pool-bud-quickbooks-${month}-by-${basis}.${extension}`
}

// ---------------------------------------------------------------------------------------------------------------
// IIF

/** QuickBooks Desktop refuses a customer name longer than this. */
const IIF_NAME_MAX = 41
/** QuickBooks Desktop's "No." field (DOCNUM) holds at most this many characters. */
const IIF_DOCNUM_MAX = 11

const ASCII_FOR: Record<string, string> = {
  '—': '-',
  '–': '-',
  '‘': "'",
  '’': "'",
  '“': "'",
  '”': "'",
  '×': 'x',
  '…': '...',
}

/**
 * A value made safe for one IIF field. IIF has no quoting or escaping: a tab or line break inside a value would
 * start a new field or row, and QuickBooks drops double quotes around a value — so those become a space and an
 * apostrophe. QuickBooks Desktop reads IIF in the Windows code page, not UTF-8, so text is folded to ASCII
 * ("é" → "e", "—" → "-") rather than arriving garbled; anything left over becomes "?". Accountants open IIF files in
 * Excel, so a value a spreadsheet would run as a formula (`=cmd|' /C calc'!A0`) starts with an apostrophe, as in the
 * CSV exports (N2). Only text goes through here: amounts are written by `amountText` and stay numbers.
 */
export function iifText(value: string, max?: number) {
  const folded = value
    .replace(/[\t\r\n]+/g, ' ')
    .replace(/[—–‘’“”×…]/g, (char) => ASCII_FOR[char] ?? char)
    .replace(/"/g, "'")
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '?')
    .trim()
  const inert = escapeFormula(folded)
  return max === undefined ? inert : inert.slice(0, max).trimEnd()
}

const TRNS_COLUMNS = ['TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'AMOUNT', 'DOCNUM', 'MEMO', 'DUEDATE', 'TERMS', 'PAYMETH']
const SPL_COLUMNS = ['TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'AMOUNT', 'DOCNUM', 'MEMO']

type IifRow = Partial<Record<(typeof TRNS_COLUMNS)[number], string>>

function iifRow(kind: 'TRNS' | 'SPL', row: IifRow) {
  const columns = kind === 'TRNS' ? TRNS_COLUMNS : SPL_COLUMNS
  return [kind, ...columns.map((column) => row[column] ?? '')].join('\t')
}

function invoiceMemo(invoice: ExportInvoice) {
  const parts = [invoice.periodLabel ?? 'No period']
  if (invoice.creditAppliedCents > 0) parts.push(`credit applied ${amountText(invoice.creditAppliedCents)}`)
  return parts.join('; ')
}

function paymentMemo(payment: ExportPayment) {
  const parts = [
    payment.invoiceNumber === null ? 'Account credit' : `Payment of ${invoiceNumberLabel(payment.invoiceNumber)}`,
  ]
  if (payment.reference) parts.push(`ref ${payment.reference}`)
  return parts.join('; ')
}

/** One invoice's TRNS, SPL… and ENDTRNS rows; the debit is the sum of the credits, so the group sums to zero. */
function invoiceRows(invoice: ExportInvoice): string[] {
  const common = {
    TRNSTYPE: 'INVOICE',
    DATE: quickBooksDate(invoice.issuedOn),
    NAME: iifText(invoice.customerName, IIF_NAME_MAX),
    DOCNUM: invoiceNumberLabel(invoice.number),
  }
  const totalCents = invoice.lines.reduce((sum, line) => sum + line.amountCents, 0)
  return [
    iifRow('TRNS', {
      ...common,
      ACCNT: ACCOUNTS_RECEIVABLE,
      AMOUNT: amountText(totalCents),
      MEMO: iifText(invoiceMemo(invoice)),
      DUEDATE: quickBooksDate(invoice.dueOn),
      TERMS: termsOf(invoice),
    }),
    ...invoice.lines.map((line) =>
      iifRow('SPL', {
        ...common,
        ACCNT: LINE_ACCOUNTS[line.kind],
        AMOUNT: amountText(-line.amountCents),
        MEMO: iifText(line.description),
      }),
    ),
    'ENDTRNS',
  ]
}

function paymentRows(payment: ExportPayment): string[] {
  const reference = payment.reference ? iifText(payment.reference) : ''
  const common = {
    TRNSTYPE: 'PAYMENT',
    DATE: quickBooksDate(payment.receivedOn),
    NAME: iifText(payment.customerName, IIF_NAME_MAX),
    // A check number fits QuickBooks' "No." field; a long card-processor id stays whole in the memo instead.
    DOCNUM: reference.length <= IIF_DOCNUM_MAX ? reference : '',
    MEMO: iifText(paymentMemo(payment)),
  }
  return [
    iifRow('TRNS', {
      ...common,
      ACCNT: UNDEPOSITED_FUNDS,
      AMOUNT: amountText(payment.amountCents),
      PAYMETH: PAYMENT_METHOD_LABELS[payment.method],
    }),
    iifRow('SPL', { ...common, ACCNT: ACCOUNTS_RECEIVABLE, AMOUNT: amountText(-payment.amountCents) }),
    'ENDTRNS',
  ]
}

/**
 * The period as an IIF file for QuickBooks Desktop: the header rows, then every invoice (in the order given —
 * by number) and every payment (by date). Every line ends with CRLF, the last one too.
 */
export function periodToIif(period: ExportPeriod): string {
  const rows = [
    `!${['TRNS', ...TRNS_COLUMNS].join('\t')}`,
    `!${['SPL', ...SPL_COLUMNS].join('\t')}`,
    '!ENDTRNS',
    ...period.invoices.flatMap(invoiceRows),
    ...period.payments.flatMap(paymentRows),
  ]
  return `${rows.join('\r\n')}\r\n`
}

// ---------------------------------------------------------------------------------------------------------------
// QuickBooks Online CSV

/** QuickBooks Online's invoice-import columns (its sample file's names, which the import maps by itself). */
export const QBO_COLUMNS = [
  'InvoiceNo',
  'Customer',
  'InvoiceDate',
  'DueDate',
  'Terms',
  'Memo',
  'Item(Product/Service)',
  'ItemDescription',
  'ItemQuantity',
  'ItemRate',
  'ItemAmount',
  'Taxable',
] as const

type QboRecord = Record<(typeof QBO_COLUMNS)[number], string | number>

const MONEY_COLUMNS = new Set(['ItemRate', 'ItemAmount'])

/**
 * The period's invoices as CSV in QuickBooks Online's invoice-import layout, one row per invoice line (QuickBooks
 * Online imports invoices only; payments come in through its bank feed or "Receive payment"). The tax line is not
 * a row: QuickBooks Online works sales tax out itself from the lines marked "Taxable" (a "Sales Tax" product line
 * would book the tax as income); the memo keeps our tax amount so the two can be compared. Cells a spreadsheet
 * would run as a formula are escaped (docs/architecture.md "Shared rules"); amounts stay numbers, so a negative one is
 * not.
 */
export function periodToQuickBooksOnlineCsv(period: Pick<ExportPeriod, 'invoices'>): string {
  const records: QboRecord[] = []
  for (const invoice of period.invoices) {
    const memo = [invoiceMemo(invoice)]
    if (invoice.taxCents !== 0) memo.push(`sales tax ${amountText(invoice.taxCents)}`)
    for (const line of invoice.lines) {
      if (line.kind === 'tax') continue
      records.push({
        InvoiceNo: invoiceNumberLabel(invoice.number),
        Customer: invoice.customerName,
        InvoiceDate: quickBooksDate(invoice.issuedOn),
        DueDate: quickBooksDate(invoice.dueOn),
        Terms: termsOf(invoice),
        Memo: memo.join('; '),
        'Item(Product/Service)': LINE_ITEMS[line.kind],
        ItemDescription: line.description,
        ItemQuantity: line.quantity,
        ItemRate: line.unitCents,
        ItemAmount: line.amountCents,
        // The company's tax is on the whole subtotal (invoice-draft.ts), so every line of a taxed invoice is taxable.
        Taxable: invoice.taxCents !== 0 && line.kind !== 'opening-balance' ? 'Y' : 'N',
      })
    }
  }
  // No byte order mark: QuickBooks Online would read it as part of the first heading and not map "InvoiceNo".
  return stringify(records, {
    header: true,
    columns: [...QBO_COLUMNS],
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: {
      number: (value, context) => (MONEY_COLUMNS.has(String(context.column)) ? amountText(value) : String(value)),
    },
  })
}
