// "Profit per pool" and "Export for QuickBooks" as the office uses them (issue #21 items 4–5): the owner opens the
// report, sorts it by a column heading, changes the period, downloads its CSV; downloads a month's IIF and CSV for
// QuickBooks and finds them well formed and balanced; a dispatcher is turned away. Read-only: other specs change Blue
// Lagoon's data meanwhile, so nothing here counts rows of the whole company.
import fs from 'node:fs'
import { capture, expect, gotoHydrated, test, VIEWPORTS } from './fixtures'
import { addDays, todayInNewYork } from './visits'

test('the owner reads Profit per pool, sorts it, changes the period and downloads the CSV', async ({
  page,
  loginAs,
}, testInfo) => {
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/reports/profit' })
  await expect(page.getByRole('heading', { level: 1, name: 'Profit per pool' })).toBeVisible()
  // Last month, most profitable first, by default; the demo's completed visits give it rows and a total.
  await expect(page.getByRole('columnheader', { name: /^Margin, sort/ })).toHaveAttribute('aria-sort', 'descending')
  await expect(page.getByRole('rowheader', { name: /^Total \(\d+ pools?\)$/ })).toBeVisible()

  await page.getByRole('link', { name: /^Visits, sort descending$/ }).click()
  await expect(page).toHaveURL(/sort=visits&dir=desc/)
  await expect(page.getByRole('columnheader', { name: /^Visits, sort/ })).toHaveAttribute('aria-sort', 'descending')
  await page.getByRole('link', { name: /^Visits, sort ascending$/ }).click()
  await expect(page.getByRole('columnheader', { name: /^Visits, sort/ })).toHaveAttribute('aria-sort', 'ascending')

  // Last month keeps the order.
  const lastMonth = page.getByRole('navigation', { name: 'Periods' }).getByRole('link', { name: 'Last month' })
  await lastMonth.click()
  await expect(lastMonth).toHaveAttribute('aria-current', 'page')
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-01&to=\d{4}-\d{2}-\d{2}&sort=visits&dir=asc/)
  const from = new URL(page.url()).searchParams.get('from') ?? ''
  const to = new URL(page.url()).searchParams.get('to') ?? ''

  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe(`profit-per-pool-${from}-to-${to}.csv`)
  const text = await fs.promises.readFile((await file.path()) as string, 'utf8')
  expect(
    text.startsWith(
      '\ufeffLocation,Customer,Revenue,Chemical cost,Labor cost,Labor basis,Visits,Minutes on site,Margin,Margin %\r\n',
    ),
  ).toBe(true)

  // A period that is not one: the form keeps it and says what is wrong.
  await gotoHydrated(page, `/app/reports/profit?from=${to}&to=${from}`)
  await expect(page.getByText('“From” must be on or before “To”.')).toBeVisible()
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(to)

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport)
    await gotoHydrated(page, '/app/reports/profit')
    await capture(page, testInfo, 'profit-per-pool')
  }
})

test('the owner downloads a month for QuickBooks: an IIF that balances and a CSV for QuickBooks Online', async ({
  page,
  loginAs,
}) => {
  await loginAs(page, 'owner@bluelagoon.test')
  // The demo's opening balances were issued 30 days before the company's today (New York), and a month's export files
  // them by that date: that month is checked, and the company's current month beside it (the same one, some days).
  const today = todayInNewYork()
  const months = [...new Set([addDays(today, -30).slice(0, 7), today.slice(0, 7)])]
  let transactions = 0
  for (const month of months) {
    const iif = await page.request.get(`/app/billing/quickbooks.iif?month=${month}`)
    expect(iif.status()).toBe(200)
    expect(iif.headers()['content-disposition']).toBe(
      `attachment; filename="pool-bud-quickbooks-${month}-by-service-period.iif"`,
    )
    const text = await iif.text()
    expect(text.startsWith('!TRNS\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\t')).toBe(true)
    // Debits equal credits in every transaction.
    let open = 0
    for (const row of text.split('\r\n')) {
      const cells = row.split('\t')
      if (cells[0] === 'TRNS' || cells[0] === 'SPL') open += Math.round(Number(cells[5]) * 100)
      if (cells[0] === 'ENDTRNS') {
        expect(open).toBe(0)
        transactions += 1
      }
    }
    // The same month again: the same bytes.
    expect(await (await page.request.get(`/app/billing/quickbooks.iif?month=${month}`)).text()).toBe(text)

    const csv = await page.request.get(`/app/billing/quickbooks.csv?month=${month}`)
    expect(csv.headers()['content-disposition']).toBe(
      `attachment; filename="pool-bud-quickbooks-${month}-by-service-period.csv"`,
    )
    expect(await csv.text()).toMatch(/^InvoiceNo,Customer,InvoiceDate,DueDate,Terms,Memo,Item\(Product\/Service\),/)
  }
  expect(transactions).toBeGreaterThan(0)
})

test('the billing page downloads QuickBooks files named after the month and the choice', async ({ page, loginAs }) => {
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/billing' })
  const tools = page.getByRole('navigation', { name: 'Billing tools' })
  const month = new URL(page.url()).searchParams.get('month')
  // By service period unless chosen otherwise.
  await expect(tools.getByRole('combobox', { name: 'QuickBooks export' })).toHaveValue('service-period')
  const first = page.waitForEvent('download')
  await tools.getByRole('button', { name: 'Export for QuickBooks (IIF)' }).click()
  expect((await first).suggestedFilename()).toMatch(/^pool-bud-quickbooks-\d{4}-\d{2}-by-service-period\.iif$/)
  if (month) expect((await first).suggestedFilename()).toContain(month)
  await tools.getByRole('combobox', { name: 'QuickBooks export' }).selectOption({ label: 'By invoice date' })
  const second = page.waitForEvent('download')
  await tools.getByRole('button', { name: 'Export for QuickBooks (CSV)' }).click()
  expect((await second).suggestedFilename()).toMatch(/^pool-bud-quickbooks-\d{4}-\d{2}-by-invoice-date\.csv$/)
})

test('a dispatcher cannot open Profit per pool', async ({ page, loginAs }) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  const response = await gotoHydrated(page, '/app/reports/profit')
  expect(response?.status()).toBe(403)
  expect((await page.request.get('/app/reports/profit.csv')).status()).toBe(403)
})
