// Team → technician and "Profit per pool" together (issue 31 item 7, issue 32 item 4, issue 35 item 3), on a server of
// the spec's own (billing-db.ts): a pool gets two visits by Tyler last month with chemicals from stock; the owner
// sets Tyler's hourly cost and start address in the form, and the report's last month (its default) shows that
// pool's chemical cost and labor cost to the cent — one visit from his approved timesheet, one estimated, and says so
// — and "No invoice" rather than a loss. Both screens at phone
// (390 px) and desktop widths, axe-clean; a technician is turned away from the form.
import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { serverWithDatabase } from './billing-db'
import { capture, expect, gotoHydrated, loginAs, test } from './fixtures'

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]

async function axeClean(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect(serious, `${name}: serious or critical axe violations`).toEqual([])
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0)
}

test.describe('Team → technician and Profit per pool', () => {
  test.describe.configure({ mode: 'serial' })
  let server: { origin: string; value: { tyler: string }; stop: () => Promise<void> }

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    server = await serverWithDatabase(async (query) => {
      const [company] = await query(
        `select c.id, c.timezone, p.id as tyler, it.id as item, it.name as item_name
         from companies c
         join profiles p on p.company_id = c.id and p.email = 'tech@bluelagoon.test'
         join inventory_items it on it.company_id = c.id and it.sku = 'CHL-LIQ-1G'
         where c.name = 'Blue Lagoon Pool Co.'`,
      )
      if (!company) throw new Error('no demo company')
      const [customer] = await query(
        `insert into customers (company_id, customer_name) values ($1, 'Profit Spec Pool') returning id`,
        [company.id],
      )
      const [location] = await query(
        `insert into service_locations (company_id, customer_id, street, city, state, postal_code, minutes_on_site)
         values ($1, $2, '77 Ledger Ln', 'Tampa', 'FL', '33629', 40) returning id`,
        [company.id, customer?.id],
      )
      // Two visits on the 3rd and 10th of last month (the company's calendar), 10:00 AM, done by Tyler.
      const visits: Array<{ id: string; at: Date }> = []
      for (const day of [2, 9]) {
        const [visit] = await query(
          `insert into visits (company_id, customer_id, location_id, customer_name, address, scheduled_at, completed_at,
             technician_id, completed_by)
           select $1, $2, $3, 'Profit Spec Pool', '77 Ledger Ln, Tampa, FL 33629', at, at + interval '45 minutes', $5, $5
           from (select ((date_trunc('month', now() at time zone $4) - interval '1 month' + make_interval(days => $6)
             + interval '10 hours') at time zone $4) as at) t
           returning id, scheduled_at as at`,
          [company.id, customer?.id, location?.id, company.timezone, company.tyler, day],
        )
        visits.push({ id: String(visit?.id), at: visit?.at as Date })
        // Two 1 gal jugs of liquid chlorine at the demo's unit cost ($3.89) a visit.
        await query(
          `insert into visit_chemical_additions (company_id, visit_id, inventory_item_id, product, quantity, unit)
           values ($1, $2, $3, $4, 2, 'each')`,
          [company.id, visit?.id, company.item, company.item_name],
        )
      }
      // The 3rd's visit on the phone: "On my way" at 9:50, the chemicals at 10:00, "Mark Complete" at 10:30 (30 min on
      // site); Tyler's day 8:00 AM to 3:00 PM, and the office approved that week: it counts 30 approved minutes.
      const first = visits[0] as { id: string; at: Date }
      await query(
        `update visits set on_my_way_at = $2::timestamptz - interval '10 minutes',
           completed_on_phone_at = $2::timestamptz + interval '30 minutes' where id = $1`,
        [first.id, first.at],
      )
      await query(`update visit_chemical_additions set added_at = $2 where visit_id = $1`, [first.id, first.at])
      const [day] = await query(`select (($1::timestamptz) at time zone $2)::date::text as date`, [
        first.at,
        company.timezone,
      ])
      await query(
        `insert into time_events (company_id, technician_id, work_date, kind, at, source, recorded_by)
         values ($1, $2, $3, 'start', $4::timestamptz - interval '2 hours', 'phone', $2),
                ($1, $2, $3, 'end', $4::timestamptz + interval '5 hours', 'phone', $2)`,
        [company.id, company.tyler, day?.date, first.at],
      )
      await query(
        `insert into timesheet_approvals (company_id, technician_id, week_start, seq, action, acted_by)
         values ($1, $2, ($3::date - (extract(isodow from $3::date)::int - 1)), 1, 'approve', $2)`,
        [company.id, company.tyler, day?.date],
      )
      return { tyler: String(company.tyler) }
    })
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  const open = async (browser: Browser, email: string, extraHTTPHeaders: Record<string, string> | undefined) => {
    const context = await browser.newContext({ baseURL: server.origin, extraHTTPHeaders, viewport: WIDTHS[1] })
    const page = await context.newPage()
    await loginAs(page, email)
    return { context, page }
  }

  test('the owner sets Tyler’s hourly cost and start address; the report counts his labor and the chemicals', async ({
    browser,
    extraHTTPHeaders,
  }, testInfo) => {
    const { context, page } = await open(browser, 'owner@bluelagoon.test', extraHTTPHeaders)
    try {
      await gotoHydrated(page, '/app/team')
      await page.getByRole('link', { name: 'Tyler Brooks' }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Tyler Brooks' })).toBeVisible()
      await expect(page.getByLabel('Start address')).toHaveAttribute('placeholder', /^Company address: .*Tampa/)

      // A cost that is not money is refused at its field.
      await page.getByLabel('Hourly cost').fill('thirty')
      await page.getByRole('button', { name: 'Save technician' }).click()
      await expect(page.getByText('Enter an amount in dollars, like 24.50')).toBeVisible()

      await page.getByLabel('Hourly cost').fill('30.00')
      await page.getByLabel('Start address').fill('100 N Osceola Ave, Clearwater, FL 33755')
      await page.getByLabel('Starts').fill('07:30')
      await page.getByLabel('Ends').fill('16:00')
      await page.getByRole('radio', { name: 'Per stop' }).check()
      await page.getByLabel('Rate per completed visit').fill('18')
      await page.getByRole('button', { name: 'Save technician' }).click()
      await expect(page.getByText('Saved. Routes and “Profit per pool” use these from now on.')).toBeVisible()
      await expect(page.getByText('Approximate: ZIP center')).toBeVisible()

      // Kept after a reload.
      await gotoHydrated(page, `/app/team/${server.value.tyler}`)
      await expect(page.getByLabel('Hourly cost')).toHaveValue('30.00')
      await expect(page.getByLabel('Start address')).toHaveValue('100 N Osceola Ave, Clearwater, FL 33755')
      await expect(page.getByLabel('Rate per completed visit')).toHaveValue('18.00')
      for (const size of WIDTHS) {
        await page.setViewportSize(size)
        await axeClean(page, `technician ${size.width}`)
        await capture(page, testInfo, 'team-technician')
      }

      // Last month by default: the approved visit's 30 min and the other's 40-minute estimate at $30.00 an hour =
      // $35.00; 2 × 2 jugs × $3.89 = $15.56.
      await page.setViewportSize(WIDTHS[1] as { width: number; height: number })
      await gotoHydrated(page, '/app/reports/profit')
      await expect(
        page.getByRole('navigation', { name: 'Periods' }).getByRole('link', { name: 'Last month' }),
      ).toHaveAttribute('aria-current', 'page')
      const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '77 Ledger Ln, Tampa' }) })
      // The demo's pools fill the first pages too (their visits record chemicals): page on until this pool's row.
      for (let pageNumber = 1; pageNumber < 20 && (await row.count()) === 0; pageNumber++) {
        await page.getByRole('link', { name: 'Next', exact: true }).click()
        await expect(page).toHaveURL(new RegExp(`page=${pageNumber + 1}`))
        // The address changes before the new page's rows are drawn: wait for them before looking again.
        await expect(page.getByText(new RegExp(`^Page ${pageNumber + 1} of \\d+$`))).toBeVisible()
      }
      await expect(row.getByRole('cell').nth(2)).toContainText('$15.56')
      await expect(row.getByRole('cell').nth(3)).toContainText('$35.00')
      await expect(row.getByRole('cell').nth(3)).toContainText('1 of 2 visits from approved timesheets')
      await expect(row.getByRole('cell').nth(1)).toContainText('No invoice')
      await expect(row.getByRole('cell').nth(6)).toContainText('No invoice')
      for (const size of WIDTHS) {
        await page.setViewportSize(size)
        await axeClean(page, `profit ${size.width}`)
        await capture(page, testInfo, 'profit-labor')
      }
      await expect(row).toContainText('Labor cost$35.00')
    } finally {
      await context.close()
    }
  })

  test('a technician cannot open Team → technician', async ({ browser, extraHTTPHeaders }) => {
    const { context, page } = await open(browser, 'tech@bluelagoon.test', extraHTTPHeaders)
    try {
      const response = await gotoHydrated(page, `/app/team/${server.value.tyler}`)
      expect(response?.status()).toBe(403)
      await expect(page.getByLabel('Hourly cost')).toHaveCount(0)
    } finally {
      await context.close()
    }
  })
})
