// The QuickBooks downloads as a browser gets them: the month's file as an attachment named after the month, last
// month when none is asked for, a plain 400 for a month written any other way, and the office's owners and admins
// only (the permission matrix walks every persona; these check what the files say about themselves).
import { beforeAll, describe, expect, it } from 'vitest'
import { lastMonth } from '~/features/reports/report-period'
import { localDateAt } from '~/schedule/local-date'
import { pageRequest, routeArgs, settle } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader as csvLoader } from './quickbooks-csv'
import { loader as iifLoader } from './quickbooks-iif'

let owner: string
let admin: string
let dispatcher: string

beforeAll(async () => {
  await useDemoData()
  ;[owner, admin, dispatcher] = await Promise.all([
    signInAs('owner@bluelagoon.test'),
    signInAs('office@bluelagoon.test'),
    signInAs('dispatch@bluelagoon.test'),
  ])
})

describe('QuickBooks downloads', () => {
  it('sends the IIF as an attachment named after the month and "By service period" (the default)', async () => {
    const response = (await iifLoader(
      routeArgs(pageRequest('/app/billing/quickbooks.iif?month=2026-11', owner)),
    )) as Response
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Disposition')).toBe(
      'attachment; filename="pool-bud-quickbooks-2026-11-by-service-period.iif"',
    )
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=us-ascii')
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    expect(await response.text()).toMatch(/^!TRNS\tTRNSTYPE\t/)
  })

  it('sends the CSV for QuickBooks Online to an admin too, by invoice date when asked', async () => {
    const response = (await csvLoader(
      routeArgs(pageRequest('/app/billing/quickbooks.csv?month=2026-10&basis=invoice-date', admin)),
    )) as Response
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Disposition')).toBe(
      'attachment; filename="pool-bud-quickbooks-2026-10-by-invoice-date.csv"',
    )
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(await response.text()).toMatch(/^InvoiceNo,Customer,InvoiceDate,DueDate,/)
  })

  it("exports last month (the company's) when no month is given", async () => {
    const month = lastMonth(localDateAt(new Date(), 'America/New_York')).start.slice(0, 7)
    const response = (await iifLoader(routeArgs(pageRequest('/app/billing/quickbooks.iif', owner)))) as Response
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="pool-bud-quickbooks-${month}-by-service-period.iif"`,
    )
  })

  it('answers 400 to a month written any other way', async () => {
    for (const month of ['2026-13', '2026-1', 'november', '2026-11-01', '0000-01', '9999-12', '1999-12']) {
      const response = (await csvLoader(
        routeArgs(pageRequest(`/app/billing/quickbooks.csv?month=${encodeURIComponent(month)}`, owner)),
      )) as Response
      expect(response.status, month).toBe(400)
      expect(await response.text()).toBe('Choose a month written like 2026-11.')
    }
  })

  it('refuses a dispatcher (billing is for owners and admins)', async () => {
    const result = await settle(
      iifLoader(routeArgs(pageRequest('/app/billing/quickbooks.iif?month=2026-11', dispatcher))),
    )
    expect((result.thrown as { init?: { status?: number } })?.init?.status).toBe(403)
  })
})
