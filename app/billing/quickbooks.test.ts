// "Export for QuickBooks", golden: a small month written out by hand, byte for byte — the IIF rows with their tabs
// and CRLFs, the CSV with its quoting — then the rules the files must keep whatever the month: each IIF transaction
// sums to zero, text that would break a row or a spreadsheet is made harmless, and the same rows give the same bytes.
import { describe, expect, it } from 'vitest'
import {
  amountText,
  type ExportPeriod,
  iifText,
  periodToIif,
  periodToQuickBooksOnlineCsv,
  quickBooksDate,
  quickBooksFileName,
  termsOf,
} from './quickbooks'

/** November 2026 at a small company: a month's invoice with chemicals, tax and a credit, an opening balance, three payments. */
const NOVEMBER: ExportPeriod = {
  invoices: [
    {
      number: 12,
      customerName: 'José O’Neil',
      periodLabel: 'November 2026',
      issuedOn: '2026-11-30',
      dueOn: '2026-12-15',
      taxCents: 1287,
      creditAppliedCents: 2000,
      lines: [
        {
          kind: 'visits',
          description: 'Pool service, 12 Palm Ave — 4 visits',
          quantity: '4',
          unitCents: 4000,
          amountCents: 16000,
        },
        {
          kind: 'chemicals',
          description: 'Liquid Chlorine (gal), 12 Palm Ave',
          quantity: '2.5',
          unitCents: 699,
          amountCents: 1748,
        },
        { kind: 'tax', description: 'Tax (7.25%)', quantity: '1', unitCents: 1287, amountCents: 1287 },
      ],
    },
    {
      number: 13,
      customerName: 'Gulf "Breeze"\tCondos',
      periodLabel: null,
      issuedOn: '2026-11-02',
      dueOn: '2026-11-02',
      taxCents: 0,
      creditAppliedCents: 0,
      lines: [
        {
          kind: 'opening-balance',
          description: 'Opening balance',
          quantity: '1',
          unitCents: 25000,
          amountCents: 25000,
        },
      ],
    },
  ],
  payments: [
    {
      customerName: 'Gulf "Breeze"\tCondos',
      receivedOn: '2026-11-20',
      amountCents: 25000,
      method: 'check',
      reference: '1045',
      invoiceNumber: 13,
    },
    {
      customerName: 'José O’Neil',
      receivedOn: '2026-11-25',
      amountCents: 2000,
      method: 'cash',
      reference: null,
      invoiceNumber: null,
    },
    {
      customerName: 'José O’Neil',
      receivedOn: '2026-11-30',
      amountCents: 17035,
      method: 'card',
      reference: 'cs_test_a1B2c3D4e5F6',
      invoiceNumber: 12,
    },
  ],
}

const tabs = (...cells: string[]) => cells.join('\t')

describe('IIF for QuickBooks Desktop', () => {
  it('writes the month exactly: headers, an INVOICE per invoice, a PAYMENT per payment, CRLF after every row', () => {
    const expected = [
      tabs('!TRNS', 'TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'AMOUNT', 'DOCNUM', 'MEMO', 'DUEDATE', 'TERMS', 'PAYMETH'),
      tabs('!SPL', 'TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'AMOUNT', 'DOCNUM', 'MEMO'),
      '!ENDTRNS',
      tabs(
        'TRNS',
        'INVOICE',
        '11/30/2026',
        'Accounts Receivable',
        "Jose O'Neil",
        '190.35',
        'INV-0012',
        'November 2026; credit applied 20.00',
        '12/15/2026',
        'Net 15',
        '',
      ),
      tabs(
        'SPL',
        'INVOICE',
        '11/30/2026',
        'Pool Service Income',
        "Jose O'Neil",
        '-160.00',
        'INV-0012',
        'Pool service, 12 Palm Ave - 4 visits',
      ),
      tabs(
        'SPL',
        'INVOICE',
        '11/30/2026',
        'Chemical Sales',
        "Jose O'Neil",
        '-17.48',
        'INV-0012',
        'Liquid Chlorine (gal), 12 Palm Ave',
      ),
      tabs('SPL', 'INVOICE', '11/30/2026', 'Sales Tax Payable', "Jose O'Neil", '-12.87', 'INV-0012', 'Tax (7.25%)'),
      'ENDTRNS',
      tabs(
        'TRNS',
        'INVOICE',
        '11/02/2026',
        'Accounts Receivable',
        "Gulf 'Breeze' Condos",
        '250.00',
        'INV-0013',
        'No period',
        '11/02/2026',
        'Due on receipt',
        '',
      ),
      tabs(
        'SPL',
        'INVOICE',
        '11/02/2026',
        'Opening Balance Equity',
        "Gulf 'Breeze' Condos",
        '-250.00',
        'INV-0013',
        'Opening balance',
      ),
      'ENDTRNS',
      tabs(
        'TRNS',
        'PAYMENT',
        '11/20/2026',
        'Undeposited Funds',
        "Gulf 'Breeze' Condos",
        '250.00',
        '1045',
        'Payment of INV-0013; ref 1045',
        '',
        '',
        'Check',
      ),
      tabs(
        'SPL',
        'PAYMENT',
        '11/20/2026',
        'Accounts Receivable',
        "Gulf 'Breeze' Condos",
        '-250.00',
        '1045',
        'Payment of INV-0013; ref 1045',
      ),
      'ENDTRNS',
      tabs(
        'TRNS',
        'PAYMENT',
        '11/25/2026',
        'Undeposited Funds',
        "Jose O'Neil",
        '20.00',
        '',
        'Account credit',
        '',
        '',
        'Cash',
      ),
      tabs('SPL', 'PAYMENT', '11/25/2026', 'Accounts Receivable', "Jose O'Neil", '-20.00', '', 'Account credit'),
      'ENDTRNS',
      // The card payment's reference is longer than QuickBooks' "No." field: it stays whole in the memo.
      tabs(
        'TRNS',
        'PAYMENT',
        '11/30/2026',
        'Undeposited Funds',
        "Jose O'Neil",
        '170.35',
        '',
        'Payment of INV-0012; ref cs_test_a1B2c3D4e5F6',
        '',
        '',
        'Card',
      ),
      tabs(
        'SPL',
        'PAYMENT',
        '11/30/2026',
        'Accounts Receivable',
        "Jose O'Neil",
        '-170.35',
        '',
        'Payment of INV-0012; ref cs_test_a1B2c3D4e5F6',
      ),
      'ENDTRNS',
      '',
    ].join('\r\n')
    expect(periodToIif(NOVEMBER)).toBe(expected)
  })

  it('balances: every transaction sums to zero, so debits equal credits in each and overall', () => {
    const text = periodToIif(NOVEMBER)
    let open = 0
    let debits = 0
    let credits = 0
    let transactions = 0
    for (const row of text.split('\r\n')) {
      const cells = row.split('\t')
      if (cells[0] === 'TRNS' || cells[0] === 'SPL') {
        const cents = Math.round(Number(cells[5]) * 100)
        open += cents
        if (cents > 0) debits += cents
        else credits -= cents
      }
      if (cells[0] === 'ENDTRNS') {
        expect(open).toBe(0)
        transactions += 1
      }
    }
    expect(transactions).toBe(5)
    expect(debits).toBe(credits)
    expect(debits).toBe(19035 + 25000 + 25000 + 2000 + 17035)
  })

  it('gives every row as many fields as its header, and no stray tab, quote, line break or non-ASCII character', () => {
    const text = periodToIif({
      invoices: [
        {
          ...(NOVEMBER.invoices[0] as ExportPeriod['invoices'][number]),
          customerName: 'Ünïcodé\r\nCustomer ×2 with a name far longer than forty-one characters',
        },
      ],
      payments: [],
    })
    const rows = text.split('\r\n')
    expect(rows.at(-1)).toBe('')
    for (const row of rows.slice(0, -1)) {
      expect(row).toMatch(/^[\t\x20-\x7e]*$/)
      expect(row).not.toContain('"')
      const fields = row.split('\t').length
      if (row.startsWith('TRNS') || row.startsWith('!TRNS')) expect(fields, row).toBe(11)
      if (row.startsWith('SPL') || row.startsWith('!SPL')) expect(fields, row).toBe(8)
    }
    // QuickBooks Desktop's 41-character customer name.
    expect(rows[3]?.split('\t')[4]).toBe('Unicode Customer x2 with a name far longe')
  })

  it('writes a header and nothing else for a month with no invoices or payments', () => {
    expect(periodToIif({ invoices: [], payments: [] })).toBe(
      `${tabs('!TRNS', 'TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'AMOUNT', 'DOCNUM', 'MEMO', 'DUEDATE', 'TERMS', 'PAYMETH')}\r\n${tabs('!SPL', 'TRNSTYPE', 'DATE', 'ACCNT', 'NAME', 'AMOUNT', 'DOCNUM', 'MEMO')}\r\n!ENDTRNS\r\n`,
    )
  })
})

describe('CSV for QuickBooks Online', () => {
  it("writes one row per invoice line in QuickBooks Online's invoice-import columns; tax is a flag, not a row", () => {
    const expected = [
      'InvoiceNo,Customer,InvoiceDate,DueDate,Terms,Memo,Item(Product/Service),ItemDescription,ItemQuantity,ItemRate,ItemAmount,Taxable',
      'INV-0012,José O’Neil,11/30/2026,12/15/2026,Net 15,November 2026; credit applied 20.00; sales tax 12.87,Pool Service,"Pool service, 12 Palm Ave — 4 visits",4,40.00,160.00,Y',
      'INV-0012,José O’Neil,11/30/2026,12/15/2026,Net 15,November 2026; credit applied 20.00; sales tax 12.87,Chemicals,"Liquid Chlorine (gal), 12 Palm Ave",2.5,6.99,17.48,Y',
      'INV-0013,"Gulf ""Breeze""\tCondos",11/02/2026,11/02/2026,Due on receipt,No period,Opening Balance,Opening balance,1,250.00,250.00,N',
      '',
    ].join('\r\n')
    expect(periodToQuickBooksOnlineCsv(NOVEMBER)).toBe(expected)
  })

  it('escapes text a spreadsheet would run as a formula, but keeps a negative amount a number', () => {
    const csv = periodToQuickBooksOnlineCsv({
      invoices: [
        {
          number: 1,
          customerName: '=HYPERLINK("http://evil.test","Pay here")',
          periodLabel: null,
          issuedOn: '2026-11-02',
          dueOn: '2026-11-17',
          taxCents: 0,
          creditAppliedCents: 0,
          lines: [
            { kind: 'opening-balance', description: '@SUM(1)', quantity: '1', unitCents: -1250, amountCents: -1250 },
          ],
        },
      ],
    })
    expect(csv.split('\r\n')[1]).toBe(
      `INV-0001,"'=HYPERLINK(""http://evil.test"",""Pay here"")",11/02/2026,11/17/2026,Net 15,No period,Opening Balance,'@SUM(1),1,-12.50,-12.50,N`,
    )
  })
})

describe('formulas in the IIF file (N2)', () => {
  it('makes a customer name, a memo and a reference inert, and keeps every amount a number', () => {
    const text = periodToIif({
      invoices: [
        {
          number: 7,
          customerName: "=cmd|' /C calc'!A0",
          periodLabel: 'November 2026',
          issuedOn: '2026-11-02',
          dueOn: '2026-11-17',
          taxCents: 0,
          creditAppliedCents: 0,
          lines: [{ kind: 'visits', description: '@SUM(1+1)', quantity: '1', unitCents: 9300, amountCents: 9300 }],
        },
      ],
      payments: [
        {
          customerName: '+HYPERLINK("http://evil.test")',
          receivedOn: '2026-11-20',
          amountCents: 9300,
          method: 'check',
          reference: '=1+1',
          invoiceNumber: 7,
        },
      ],
    })
    const rows = text
      .trimEnd()
      .split('\r\n')
      .map((row) => row.split('\t'))
    const [invoice, line, , payment, applied] = rows.slice(3)
    // TRNS/SPL, TRNSTYPE, DATE, ACCNT, NAME, AMOUNT, DOCNUM, MEMO…
    expect(invoice?.slice(4, 8)).toEqual(["'=cmd|' /C calc'!A0", '93.00', 'INV-0007', 'November 2026'])
    expect(line?.slice(4, 8)).toEqual(["'=cmd|' /C calc'!A0", '-93.00', 'INV-0007', "'@SUM(1+1)"])
    expect(payment?.slice(4, 8)).toEqual([
      "'+HYPERLINK('http://evil.test')",
      '93.00',
      "'=1+1",
      'Payment of INV-0007; ref =1+1',
    ])
    expect(applied?.slice(4, 7)).toEqual(["'+HYPERLINK('http://evil.test')", '-93.00', "'=1+1"])
    // No text cell of the file starts with a formula's trigger; amounts may start with "-".
    for (const row of rows) {
      row.forEach((field, column) => {
        if (column !== 5) expect(field, row.join('|')).not.toMatch(/^[=+\-@]/)
      })
    }
  })
})

describe('the pieces', () => {
  it('writes amounts with two decimals and dates as MM/DD/YYYY', () => {
    expect([amountText(0), amountText(5), amountText(-5), amountText(123456), amountText(-100)]).toEqual([
      '0.00',
      '0.05',
      '-0.05',
      '1234.56',
      '-1.00',
    ])
    expect(quickBooksDate('2027-01-09')).toBe('01/09/2027')
  })

  it('names the terms from the invoice’s own dates', () => {
    expect(termsOf({ issuedOn: '2026-11-30', dueOn: '2026-12-30' })).toBe('Net 30')
    expect(termsOf({ issuedOn: '2026-11-30', dueOn: '2026-11-30' })).toBe('Due on receipt')
  })

  it('folds text to one safe ASCII field', () => {
    expect(iifText('  Crème\tbrûlée\r\n“Pools” — 2×  ')).toBe("Creme brulee 'Pools' - 2x")
    expect(iifText('漢字')).toBe('??')
  })

  it('names the files after the month and the choice', () => {
    expect(quickBooksFileName('2026-11', 'service-period', 'iif')).toBe(
      'pool-bud-quickbooks-2026-11-by-service-period.iif',
    )
    expect(quickBooksFileName('2026-10', 'invoice-date', 'csv')).toBe('pool-bud-quickbooks-2026-10-by-invoice-date.csv')
  })

  it('gives the same bytes for the same month twice', () => {
    expect(periodToIif(structuredClone(NOVEMBER))).toBe(periodToIif(NOVEMBER))
    expect(periodToQuickBooksOnlineCsv(structuredClone(NOVEMBER))).toBe(periodToQuickBooksOnlineCsv(NOVEMBER))
  })
})
