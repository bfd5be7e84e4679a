// "QuickBooks exports you can reconcile" (issue 31 item 6): October's service invoices were sent on 1 November and
// landed in November's file. "By service period" (the default) puts an invoice in the month it bills, "By invoice
// date" in the month it was issued; payments are always in the month they were received. A company of its own, with
// fixed dates, so the months hold exactly what the test made whatever day it runs.
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import { addBillableCustomer, addBillingCompany } from '../../tests/helpers/billing'
import { useDemoData } from '../../tests/helpers/test-database'
import { createInvoices } from './invoice-create.server'
import { sendInvoices } from './invoice-send.server'
import { recordPayment } from './payment.server'
import { exportQuickBooksIif, loadQuickBooksPeriod } from './quickbooks-export.server'

const october = monthOf('2026-10-01')
const november = monthOf('2026-11-01')
let company: string
let octoberNumbers: number[]

beforeAll(async () => {
  await useDemoData()
  company = await addBillingCompany('Reconcile Pools', 'owner@reconcile.test')
  const first = await addBillableCustomer(company, { name: 'Ledger Lane', month: october.start, completed: 4 })
  await addBillableCustomer(company, { name: 'Audit Avenue', month: october.start, completed: 2 })
  expect((await createInvoices({ companyId: company, period: october })).created).toBe(2)
  // Sent on 1 November (10:00 in New York): issued in November, for October's services.
  expect(
    (await sendInvoices({ companyId: company, period: october, now: new Date('2026-11-01T14:00:00Z') })).sent,
  ).toBe(2)
  octoberNumbers = (
    await loadQuickBooksPeriod({ companyId: company, period: november, basis: 'invoice-date' })
  ).invoices.map((invoice) => invoice.number)
  expect(octoberNumbers).toHaveLength(2)
  const paid = await recordPayment({
    companyId: company,
    customerId: first.id,
    invoiceId: null,
    amountCents: 16000,
    receivedOn: '2026-11-03',
    method: 'check',
    reference: 'CHK-1103',
    recordedBy: null,
  })
  expect(paid.ok).toBe(true)
})

describe('QuickBooks export by service period or by invoice date', () => {
  it("puts October's invoices issued on 1 November in October's file by service period (the default)", async () => {
    const byDefault = await loadQuickBooksPeriod({ companyId: company, period: october })
    expect(byDefault.invoices.map((invoice) => invoice.number)).toEqual(octoberNumbers)
    expect(byDefault.invoices.map((invoice) => invoice.periodLabel)).toEqual(['October 2026', 'October 2026'])
    // The invoice keeps its own date: QuickBooks books it on 1 November.
    expect(byDefault.invoices.map((invoice) => invoice.issuedOn)).toEqual(['2026-11-01', '2026-11-01'])
    const explicit = await loadQuickBooksPeriod({ companyId: company, period: october, basis: 'service-period' })
    expect(explicit).toEqual(byDefault)
    const novemberByService = await loadQuickBooksPeriod({ companyId: company, period: november })
    expect(novemberByService.invoices).toEqual([])
  })

  it('puts them in November by invoice date, and none in October', async () => {
    const octoberByDate = await loadQuickBooksPeriod({ companyId: company, period: october, basis: 'invoice-date' })
    expect(octoberByDate.invoices).toEqual([])
    const iif = await exportQuickBooksIif({ companyId: company, period: november, basis: 'invoice-date' })
    expect(iif.split('\r\n').filter((row) => row.startsWith('TRNS\tINVOICE\t'))).toHaveLength(2)
  })

  it('puts payments in the month they were received, whichever the choice', async () => {
    for (const basis of ['service-period', 'invoice-date'] as const) {
      const nov = await loadQuickBooksPeriod({ companyId: company, period: november, basis })
      expect(nov.payments.map((payment) => payment.reference)).toEqual(['CHK-1103'])
      const oct = await loadQuickBooksPeriod({ companyId: company, period: october, basis })
      expect(oct.payments).toEqual([])
    }
  })
})
