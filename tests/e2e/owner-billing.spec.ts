// The owner's side of billing in Chromium (issue #21 items 5, 7), on a server of the spec's own (its database is
// written and read here: billing-db.ts): the dashboard's "Invoiced this month", "Collected", "Outstanding" and
// "Past due" equal the database's sums; "Change prices" previews and applies a raise once (issue 31: a second tab
// or the back button gets "Already applied"), shows what changed, and undoes it; Settings shows the plan
// and saves the billing terms.
import type { Browser, Page } from '@playwright/test'
import { moneySums, serverWithDatabase, writeMonthOfMoney } from './billing-db'
import { capture, expect, gotoHydrated, loginAs, test } from './fixtures'

const BLUE = 'Blue Lagoon Pool Co.'
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const dollars = (cents: number) => usd.format(cents / 100)

/** The value shown under a stat's label in the dashboard's "Money" figures. */
function moneyFigure(page: Page, label: string) {
  return page
    .locator('dl[aria-label="Money"] > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd')
    .first()
}

type Sums = Awaited<ReturnType<typeof moneySums>>

test.describe('the owner’s billing', () => {
  // One server for the whole file: its start (and the seeding) is the slow part.
  test.describe.configure({ mode: 'serial' })
  let server: { origin: string; value: Sums; stop: () => Promise<void> }

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    server = await serverWithDatabase(async (query) => {
      await writeMonthOfMoney(query, BLUE)
      return moneySums(query, BLUE)
    })
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  const openAs = async (browser: Browser, extraHTTPHeaders: Record<string, string> | undefined) => {
    const context = await browser.newContext({
      baseURL: server.origin,
      extraHTTPHeaders,
      viewport: { width: 1280, height: 900 },
    })
    const page = await context.newPage()
    await loginAs(page, 'owner@bluelagoon.test')
    return { context, page }
  }

  test('the dashboard’s money equals the database’s sums', async ({ browser, extraHTTPHeaders }, testInfo) => {
    const sums = server.value
    // The month written above counts: an invoice issued today and one on the 1st, three payments.
    expect(sums.invoiced).toBeGreaterThanOrEqual(12345 + 20000)
    expect(sums.collected).toBeGreaterThanOrEqual(5000 + 1500 + 2000)
    const { context, page } = await openAs(browser, extraHTTPHeaders)
    try {
      await gotoHydrated(page, '/app')
      await expect(page.getByRole('heading', { name: 'Money' })).toBeVisible()
      await expect(moneyFigure(page, 'Invoiced this month')).toHaveText(dollars(sums.invoiced))
      await expect(moneyFigure(page, 'Collected')).toHaveText(dollars(sums.collected))
      await expect(moneyFigure(page, 'Outstanding')).toHaveText(dollars(sums.outstanding))
      await expect(moneyFigure(page, 'Past due')).toHaveText(dollars(sums.pastDue))
      await expect(moneyFigure(page, 'Monthly recurring revenue')).toHaveText(/^\$[\d,]+\.\d\d$/)
      await expect(page.getByText('$120', { exact: false })).toHaveCount(0)
      await capture(page, testInfo, 'owner-dashboard-money')
      await page.setViewportSize({ width: 360, height: 740 })
      await capture(page, testInfo, 'owner-dashboard-money')
    } finally {
      await context.close()
    }
  })

  test('"Change prices": preview every plan, refuse −100 %, apply once (a second tab: "Already applied"), undo', async ({
    browser,
    extraHTTPHeaders,
  }, testInfo) => {
    const { context, page } = await openAs(browser, extraHTTPHeaders)
    try {
      await gotoHydrated(page, '/app')
      await page.getByRole('link', { name: 'Change prices' }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Change prices' })).toBeVisible()
      await page.getByLabel('Rate type').selectOption({ label: 'Monthly' })
      await page.getByLabel('Current rate').selectOption({ label: 'Between' })
      await page.getByLabel('Rate from ($)').fill('300')
      await page.getByLabel('Rate to ($)').fill('400')
      const increase = page.getByLabel('Increase', { exact: true })

      // −100 % is refused where it was typed.
      await increase.fill('-100')
      await page.getByRole('button', { name: 'Preview' }).click()
      await expect(
        page.getByText('A decrease of 100 % or more would make every price $0.00.', { exact: false }),
      ).toBeVisible()

      await increase.fill('3')
      await page.getByRole('button', { name: 'Preview' }).click()
      const preview = page.getByRole('region', { name: 'Preview' })
      await expect(preview.getByRole('status')).toContainText('2 plans will change: +3 %')
      const plans = preview.getByRole('list', { name: 'Plans that will change' }).getByRole('listitem')
      await expect(plans).toHaveCount(2)
      await expect(plans.first()).toContainText('$320.00')
      await expect(plans.first()).toContainText('$329.60')
      await capture(page, testInfo, 'change-prices-preview')
      await page.setViewportSize({ width: 360, height: 740 })
      await capture(page, testInfo, 'change-prices-preview')

      // The same preview open in a second tab (issue 31 item 3: the rise was applied twice).
      const otherTab = await context.newPage()
      await gotoHydrated(otherTab, '/app/billing/prices')
      await otherTab.getByLabel('Rate type').selectOption({ label: 'Monthly' })
      await otherTab.getByLabel('Current rate').selectOption({ label: 'Between' })
      await otherTab.getByLabel('Rate from ($)').fill('300')
      await otherTab.getByLabel('Rate to ($)').fill('400')
      await otherTab.getByLabel('Increase', { exact: true }).fill('3')
      await otherTab.getByRole('button', { name: 'Preview' }).click()
      await expect(otherTab.getByRole('region', { name: 'Preview' }).getByRole('status')).toContainText(
        '2 plans will change',
      )

      await page.setViewportSize({ width: 1280, height: 900 })
      await preview.getByRole('button', { name: 'Apply to 2 plans' }).click()
      await expect(page.getByText(/^Prices changed for 2 plans, billed from \w+ \d{4}\.$/)).toBeVisible()
      // The page shows what changed, and a new, empty form: nothing of the change is left to send again.
      const changed = page.getByRole('region', { name: 'What changed' })
      await expect(changed.getByRole('listitem')).toHaveCount(2)
      await expect(changed.getByRole('listitem').first()).toContainText('$320.00')
      await expect(changed.getByRole('listitem').first()).toContainText('$329.60')
      await expect(page.getByRole('button', { name: 'Apply to 2 plans' })).toHaveCount(0)
      const history = page.getByRole('region', { name: 'Price changes' })
      await expect(history.getByRole('listitem', { name: /^\+3 % from/ })).toHaveCount(1)
      await expect(history.getByRole('button', { name: 'Undo' })).toBeVisible()
      await capture(page, testInfo, 'change-prices-applied')

      // The second tab's "Apply": already applied, nothing changed again.
      await otherTab.getByRole('button', { name: 'Apply to 2 plans' }).click()
      await expect(otherTab.getByText('Already applied', { exact: false })).toBeVisible()
      await expect(
        otherTab.getByRole('region', { name: 'Price changes' }).getByRole('listitem', { name: /^\+3 % from/ }),
      ).toHaveCount(1)
      await otherTab.close()

      // The back button, then "Apply" again if the old preview is still on screen: never a second change.
      await page.goBack()
      const stale = page.getByRole('button', { name: 'Apply to 2 plans' })
      if (await stale.isVisible()) {
        await stale.click()
        await expect(page.getByText('Already applied', { exact: false })).toBeVisible()
      }
      await gotoHydrated(page, '/app/billing/prices')
      await expect(history.getByRole('listitem', { name: /^\+3 % from/ })).toHaveCount(1)
      await expect(history.getByRole('listitem', { name: /^\+3 % from/ })).toContainText('customers')

      // Undo (not yet in effect): the old rates are back.
      await history.getByRole('button', { name: 'Undo' }).click()
      await expect(page.getByText(/^Price change undone: 2 plans are back to the old rate\./)).toBeVisible()
      await expect(history.getByRole('listitem', { name: /^\+3 % from/ })).toContainText('Undone')
      await expect(history.getByRole('button', { name: 'Undo' })).toHaveCount(0)
      await page.getByLabel('Rate type').selectOption({ label: 'Monthly' })
      await page.getByLabel('Current rate').selectOption({ label: 'Between' })
      await page.getByLabel('Rate from ($)').fill('300')
      await page.getByLabel('Rate to ($)').fill('400')
      await page.getByLabel('Increase', { exact: true }).fill('3')
      await page.getByRole('button', { name: 'Preview' }).click()
      await expect(page.getByRole('region', { name: 'Preview' }).getByRole('listitem').first()).toContainText('$320.00')
    } finally {
      await context.close()
    }
  })

  test('Settings shows the plan, saves the payment terms and leads to "Tax rates"', async ({
    browser,
    extraHTTPHeaders,
  }, testInfo) => {
    const { context, page } = await openAs(browser, extraHTTPHeaders)
    try {
      await gotoHydrated(page, '/app/settings')
      const plan = page.getByRole('region', { name: 'Plan' })
      await expect(plan).toContainText('Business')
      await expect(plan).toContainText('$199/month')
      const billing = page.getByRole('region', { name: 'Billing' })
      const terms = billing.getByLabel('Payment terms')
      await terms.fill('121')
      await billing.getByRole('button', { name: 'Save billing settings' }).click()
      await expect(billing.getByText('Enter payment terms from 0 to 120 days.')).toBeVisible()
      await terms.fill('30')
      await billing.getByRole('button', { name: 'Save billing settings' }).click()
      await expect(billing.getByText('Billing settings saved.')).toBeVisible()
      await page.reload()
      await expect(terms).toHaveValue('30')
      // Tax rates have a page of their own (docs/decisions/052-tax-rates.md).
      await expect(billing.getByRole('link', { name: 'Tax rates', exact: true })).toHaveAttribute(
        'href',
        '/app/settings/tax-rates',
      )
      await capture(page, testInfo, 'settings-plan-billing')
    } finally {
      await context.close()
    }
  })
})
