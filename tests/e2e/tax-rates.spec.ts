// Tax rates in Chromium (issue 31 item 9; docs/billing.md, "Tax"), on a server of the spec's own (billing-db.ts):
// Settings → "Tax rates" gets two rates, one of a customer's two pools is given the county's rate on its form, and
// the month's invoice shows one tax line per rate with the right cents. The Settings page is checked on a 360 px
// phone too, with axe.
import AxeBuilder from '@axe-core/playwright'
import { serverWithDatabase } from './billing-db'
import { capture, expect, gotoHydrated, loginAs, test } from './fixtures'

const BLUE = 'Blue Lagoon Pool Co.'
/** A month long before the demo's plans: the spec's customer is the one it bills. */
const MONTH = '2024-03'
const MONDAYS = ['2024-03-04', '2024-03-11', '2024-03-18', '2024-03-25']

test.describe('tax rates', () => {
  test.describe.configure({ mode: 'serial' })
  let server: {
    origin: string
    value: { customerId: string; countyLocationId: string; name: string }
    stop: () => Promise<void>
  }

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    server = await serverWithDatabase(async (query) => {
      const [company] = await query(`select id from companies where name = $1`, [BLUE])
      if (!company) throw new Error('no company')
      const name = `Tara Taxwell ${Math.random().toString(36).slice(2, 7)}`
      const [customer] = await query(
        `insert into customers (company_id, customer_name, email) values ($1, $2, null) returning id`,
        [company.id, name],
      )
      // A pool in the city at $43.33 a visit and one in the county at $55.55, four visits each in March.
      const pools = [
        { street: '12 Palm Ave', city: 'Tampa', rate: 4333, position: 0 },
        { street: '4 Bay Rd', city: 'Brandon', rate: 5555, position: 1 },
      ]
      const locationIds: string[] = []
      for (const pool of pools) {
        const [location] = await query(
          `insert into service_locations (company_id, customer_id, street, city, state, position)
           values ($1, $2, $3, $4, 'FL', $5) returning id`,
          [company.id, customer?.id, pool.street, pool.city, pool.position],
        )
        const [plan] = await query(
          `insert into service_plans (company_id, location_id, weekday, starts_on, ends_on, rate_cents, rate_type)
           values ($1, $2, 1, '2024-03-04', '2024-03-31', $3, 'per-visit') returning id`,
          [company.id, location?.id, pool.rate],
        )
        for (const day of MONDAYS) {
          await query(
            `insert into visits (company_id, customer_id, location_id, customer_name, address, plan_id, occurrence_date,
             scheduled_at, completed_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              company.id,
              customer?.id,
              location?.id,
              name,
              `${pool.street}, ${pool.city}, FL`,
              plan?.id,
              day,
              `${day}T14:00:00Z`,
              `${day}T15:00:00Z`,
            ],
          )
        }
        locationIds.push(String(location?.id))
      }
      return { customerId: String(customer?.id), countyLocationId: locationIds[1] ?? '', name }
    })
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  test('two rates, a pool on the county rate, and an invoice with one tax line per rate', async ({
    browser,
    extraHTTPHeaders,
  }, testInfo) => {
    test.setTimeout(300_000)
    const context = await browser.newContext({ baseURL: server.origin, extraHTTPHeaders })
    const page = await context.newPage()
    try {
      await loginAs(page, 'owner@bluelagoon.test')
      // Settings → Billing leads to "Tax rates".
      await gotoHydrated(page, '/app/settings')
      await page.getByRole('link', { name: 'Tax rates', exact: true }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Tax rates' })).toBeVisible()
      // A percent out of range is refused at its field, keeping what was typed.
      await page.getByLabel('Name').last().fill('Tampa')
      await page.getByLabel('Percent').last().fill('31')
      await page.getByRole('button', { name: 'Add rate' }).click()
      await expect(page.getByText('Enter a percent from 0 to 30')).toBeVisible()
      await expect(page.getByLabel('Name').last()).toHaveValue('Tampa')
      await page.getByLabel('Percent').last().fill('7.5')
      await page.getByRole('button', { name: 'Add rate' }).click()
      await expect(page.getByText('Tax rate added.')).toBeVisible()
      await page.getByLabel('Name').last().fill('Hillsborough County')
      await page.getByLabel('Percent').last().fill('8.5')
      await page.getByRole('button', { name: 'Add rate' }).click()
      await expect(page.getByText('Tax rate added.')).toBeVisible()
      const rates = page.getByRole('list', { name: 'Tax rates' })
      await expect(rates.getByRole('listitem')).toHaveCount(2)
      // The first rate added is the default.
      await expect(rates.getByRole('listitem').filter({ hasText: 'Tampa 7.5 %' })).toContainText('Default')

      // The county pool's form: "Tax rate", the company default unless set.
      await gotoHydrated(
        page,
        `/app/customers/${server.value.customerId}?edit=location:${server.value.countyLocationId}`,
      )
      const select = page.getByLabel('Tax rate')
      await expect(select.locator('option').first()).toHaveText('Company default (Tampa 7.5 %)')
      await select.selectOption({ label: 'Hillsborough County 8.5 %' })
      await page.getByRole('button', { name: 'Save changes' }).click()
      await expect(page.getByText('Service location saved.')).toBeVisible()
      await expect(page.getByRole('definition').filter({ hasText: 'Hillsborough County 8.5 %' })).toBeVisible()

      // A rate in use cannot be removed: the page says where it is used.
      await gotoHydrated(page, '/app/settings/tax-rates')
      const county = rates.getByRole('listitem').filter({ hasText: 'Hillsborough County 8.5 %' })
      await expect(county).toContainText('4 Bay Rd')
      await county.locator('summary', { hasText: 'Remove' }).click()
      await county.getByRole('button', { name: 'Yes, remove' }).click()
      await expect(page.getByRole('alert').filter({ hasText: 'This rate is used by' })).toContainText('4 Bay Rd')
      await expect(rates.getByRole('listitem')).toHaveCount(2)

      // The month's invoices: the customer's has a tax line per rate, each rounded half up on its own pools.
      await gotoHydrated(page, `/app/billing?month=${MONTH}`)
      await page.getByRole('button', { name: 'Create invoices' }).click()
      await page.getByRole('button', { name: /^Create \d+ invoices?$/ }).click()
      await expect(page.getByText(/^Created \d+ invoices?\.$/)).toBeVisible()
      await page.getByRole('link', { name: new RegExp(`, ${server.value.name}$`) }).click()
      // $173.32 × 7.5 % = $12.999 → $13.00; $222.20 × 8.5 % = $18.887 → $18.89; total $427.41.
      const totals = page.locator('dl').filter({ hasText: 'Subtotal' })
      await expect(totals.getByRole('definition').nth(0)).toHaveText('$395.52')
      const amountOf = (term: string) =>
        totals
          .getByRole('term')
          .filter({ hasText: new RegExp(`^${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
          .locator('xpath=following-sibling::dd[1]')
      await expect(amountOf('Tampa 7.5 % tax')).toHaveText('$13.00')
      await expect(amountOf('Hillsborough County 8.5 % tax')).toHaveText('$18.89')
      await expect(totals.getByRole('term').filter({ hasText: / tax$/ })).toHaveCount(2)
      await expect(amountOf('Total')).toHaveText('$427.41')
      // The PDF carries both lines.
      const pdf = await page.request.get(`${page.url().split('?')[0]}.pdf`)
      expect(pdf.headers()['content-type']).toBe('application/pdf')
      const { extractText, getDocumentProxy } = await import('unpdf')
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), { mergePages: true })
      expect(text.replace(/\s+/g, ' ')).toContain('Hillsborough County 8.5 % tax')
      expect(text).toContain('$18.89')
      await capture(page, testInfo, 'tax-rates-invoice')
    } finally {
      await context.close()
    }
  })

  test('Settings → "Tax rates" on a 360 px phone: fits, axe clean', async ({ browser, extraHTTPHeaders }, testInfo) => {
    const context = await browser.newContext({
      baseURL: server.origin,
      extraHTTPHeaders,
      viewport: { width: 360, height: 780 },
    })
    const page = await context.newPage()
    try {
      await loginAs(page, 'owner@bluelagoon.test', { open: '/app/settings/tax-rates' })
      await expect(page.getByRole('list', { name: 'Tax rates' }).getByRole('listitem')).toHaveCount(2)
      await page.locator('summary', { hasText: 'Edit' }).first().click()
      await capture(page, testInfo, 'tax-rates-settings')
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])
    } finally {
      await context.close()
    }
  })
})
