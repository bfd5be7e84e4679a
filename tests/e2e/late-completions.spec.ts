// "Late completions" in Chromium (issue 31 item 8; docs/billing.md, "Late completions"), on a server of the spec's own
// (billing-db.ts): January's invoice was sent, then a January visit was completed; February's invoice bills it once,
// under "Late completions", and making February again adds nothing.
import { serverWithDatabase } from './billing-db'
import { expect, gotoHydrated, loginAs, test } from './fixtures'

const BLUE = 'Blue Lagoon Pool Co.'
/** Months long before the demo's plans: the spec's customer is the one they bill. */
const JANUARY = ['2024-01-01', '2024-01-08', '2024-01-15', '2024-01-22', '2024-01-29']
const FEBRUARY = ['2024-02-05', '2024-02-12']

test.describe('late completions', () => {
  test.describe.configure({ mode: 'serial' })
  let server: { origin: string; value: { name: string; january: number }; stop: () => Promise<void> }

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    server = await serverWithDatabase(async (query) => {
      const [company] = await query(`select id, next_invoice_number as next from companies where name = $1`, [BLUE])
      if (!company) throw new Error('no company')
      const name = `Lou Latewood ${Math.random().toString(36).slice(2, 7)}`
      const [customer] = await query(`insert into customers (company_id, customer_name) values ($1, $2) returning id`, [
        company.id,
        name,
      ])
      const [location] = await query(
        `insert into service_locations (company_id, customer_id, street, city, state) values ($1, $2, '7 Late Ln',
         'Tampa', 'FL') returning id`,
        [company.id, customer?.id],
      )
      const [plan] = await query(
        `insert into service_plans (company_id, location_id, weekday, starts_on, ends_on, rate_cents, rate_type)
         values ($1, $2, 1, '2024-01-01', '2024-02-29', 4000, 'per-visit') returning id`,
        [company.id, location?.id],
      )
      for (const day of [...JANUARY, ...FEBRUARY]) {
        // Jan 29's visit is completed now: after January's invoice counted the month.
        await query(
          `insert into visits (company_id, customer_id, location_id, customer_name, address, plan_id, occurrence_date,
           scheduled_at, completed_at) values ($1, $2, $3, $4, '7 Late Ln, Tampa, FL', $5, $6::date, $7,
           case when $6::date = '2024-01-29'::date then now() else $8::timestamptz end)`,
          [company.id, customer?.id, location?.id, name, plan?.id, day, `${day}T14:00:00Z`, `${day}T15:00:00Z`],
        )
      }
      const number = Number(company.next)
      const [invoice] = await query(
        `insert into invoices (company_id, customer_id, number, state, period_start, period_end, issued_on, due_on,
         subtotal_cents, total_cents, sent_at, delivery, visits_counted_at)
         values ($1, $2, $3, 'sent', '2024-01-01', '2024-01-31', '2024-02-01', '2024-02-16', 16000, 16000,
         '2024-02-01T12:00:00Z', 'print', '2024-02-01T12:00:00Z') returning id`,
        [company.id, customer?.id, number],
      )
      await query(
        `insert into invoice_lines (company_id, invoice_id, position, kind, description, quantity, unit_cents,
         amount_cents, location_id, plan_id) values ($1, $2, 1, 'visits', 'Pool service, 7 Late Ln — 4 visits', 4,
         4000, 16000, $3, $4)`,
        [company.id, invoice?.id, location?.id, plan?.id],
      )
      await query(`update companies set next_invoice_number = $2 where id = $1`, [company.id, number + 1])
      return { name, january: number }
    })
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  test('a January visit completed after January was invoiced is billed once, on February', async ({
    browser,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(300_000)
    const context = await browser.newContext({ baseURL: server.origin, extraHTTPHeaders })
    const page = await context.newPage()
    try {
      await loginAs(page, 'owner@bluelagoon.test')
      for (const run of [1, 2]) {
        await gotoHydrated(page, '/app/billing?month=2024-02')
        await page.getByRole('button', { name: 'Create invoices' }).click()
        if (run === 1) {
          await page.getByRole('button', { name: /^Create \d+ invoices?$/ }).click()
          await expect(page.getByText(/^Created \d+ invoices?\.$/)).toBeVisible()
        } else {
          // Made again: the customer's February invoice exists, so nothing of theirs is billed twice.
          await expect(page.getByRole('heading', { name: /^Invoices to create for/ })).toBeVisible()
          await expect(page.getByRole('row', { name: new RegExp(server.value.name) })).toHaveCount(0)
        }
      }
      await gotoHydrated(page, '/app/billing?month=2024-02')
      // January's invoice (issued Feb 1) is listed too; February's is the next number.
      const february = `INV-${String(server.value.january + 1).padStart(4, '0')}`
      await page.getByRole('link', { name: new RegExp(`^${february} , ${server.value.name}$`) }).click()
      await expect(page.getByText('Late completions', { exact: true })).toHaveCount(1)
      const late = page.getByRole('row', { name: /Jan 29 \(completed late\)/ })
      await expect(late).toHaveCount(1)
      await expect(late).toContainText('$40.00')
      await expect(page.getByRole('row', { name: /2 visits/ })).toContainText('$80.00')
      const totals = page.locator('dl').filter({ hasText: 'Subtotal' })
      await expect(totals.getByRole('definition').first()).toHaveText('$120.00')
    } finally {
      await context.close()
    }
  })
})
