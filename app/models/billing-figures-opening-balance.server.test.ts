// "Invoiced this month" is this month's billing (issue 31, item 8): an opening-balance invoice — money owed from
// before Pool Bud, entered when the company starts — is owed ("Outstanding") but was not invoiced this month.
import { beforeAll, describe, expect, it } from 'vitest'
import { invoiceLines } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addBillingCompany, addCardCustomer, addSentInvoice } from '../../tests/helpers/card-payments'
import { getBillingFigures } from './billing-figures.server'

let companyId: string

beforeAll(async () => {
  companyId = await addBillingCompany('Opening Balance Pools')
  const customer = await addCardCustomer(companyId, 'Olive Opening')
  // Both issued 2026-11-01: the opening balance ($250.00) and November's service ($120.00).
  const opening = await addSentInvoice(companyId, customer.id, 25_000)
  const service = await addSentInvoice(companyId, customer.id, 12_000)
  await db()
    .insert(invoiceLines)
    .values([
      {
        companyId,
        invoiceId: opening.id,
        position: 1,
        kind: 'opening-balance',
        description: 'Opening balance',
        quantity: '1',
        unitCents: 25_000,
        amountCents: 25_000,
      },
      {
        companyId,
        invoiceId: service.id,
        position: 1,
        kind: 'monthly',
        description: 'Monthly pool service',
        quantity: '1',
        unitCents: 12_000,
        amountCents: 12_000,
      },
    ])
})

describe('"Invoiced this month"', () => {
  it('leaves opening balances out, while "Outstanding" still counts them', async () => {
    const figures = await getBillingFigures({ companyId, today: '2026-11-20' })
    expect(figures.invoicedThisMonthCents).toBe(12_000)
    expect(figures.outstandingCents).toBe(37_000)
  })
})
