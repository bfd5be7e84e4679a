// Billing end to end (issue #21, docs/billing.md): the office signs up a customer on a per-visit plan and completes
// today's visit; on /app/billing it previews this month's invoices, creates them and sends them; the customer gets
// "Invoice sent" by email; the office records a check on the invoice (a mistyped amount and a repeated reference
// are refused first); the customer signs in to the portal and sees the invoice, partly paid, and the new balance,
// with "Pay invoice" disabled ("Online payment is not set up": the e2e server has no Stripe).
//
// Other specs change Blue Lagoon at the same time, and creating a month's invoices creates them for every Blue
// Lagoon customer with billable work: the counts are read from the page, and only this spec's customer is asserted on.
import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { capture, expect, gotoHydrated, test, VIEWPORTS, waitForHydration } from './fixtures'
import { extractLink, waitForEmail } from './mail'

const ZONE = 'America/New_York'
/** Mark Complete waits 10 s for "Undo", then the queue sends it. */
const COMPLETED_SOON = 30_000

/** Today in Blue Lagoon's calendar: its weekday ("Thursday") and its month ("2026-11", "November 2026"). */
function companyToday() {
  const now = new Date()
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: ZONE, ...options }).format(now)
  const [month, , year] = new Intl.DateTimeFormat('en-US', {
    timeZone: ZONE,
    month: '2-digit',
    day: '2-digit',
    year: 'numeric',
  })
    .format(now)
    .split('/')
  return {
    weekday: part({ weekday: 'long' }),
    month: `${year}-${month}`,
    monthLabel: part({ month: 'long', year: 'numeric' }),
  }
}

/** Screenshots at the phone and the desktop width, ending back on the phone. */
async function captureBoth(page: Page, testInfo: Parameters<typeof capture>[1], name: string) {
  for (const viewport of [...VIEWPORTS].reverse()) {
    await page.setViewportSize(viewport)
    await capture(page, testInfo, name)
  }
}

test('the office invoices a month, records a check, and the customer sees the invoice and the new balance', async ({
  browser,
  page,
  loginAs,
  extraHTTPHeaders,
}, testInfo) => {
  test.setTimeout(240_000)
  const suffix = randomBytes(3).toString('hex')
  const name = `Billing Harbor ${suffix}`
  const email = `billing.${suffix}@example.com`
  const today = companyToday()
  // Live updates from other specs' changes would reload the pages under the test's hands.
  await page.route('**/app/events', (route) => route.abort())

  // A new customer with an email: the portal invite goes out.
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/customers/new' })
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address').fill('7 Ledger Lane')
  await page.getByLabel('City').fill('Tampa')
  await page.getByLabel('State').fill('FL')
  await page.getByLabel('Email (optional)').fill(email)
  const invitedAfter = new Date()
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  const record = new URL(page.url()).pathname
  const invite = extractLink(await waitForEmail({ to: email, after: invitedAfter }), '/api/auth/magic-link/verify')

  // A weekly plan on today's weekday at $85 a visit: today's visit is the first one.
  await page.getByRole('link', { name: /^Add service plan/ }).click()
  await waitForHydration(page)
  await page.getByLabel('Frequency').selectOption({ label: 'Weekly' })
  await page.getByLabel('Day', { exact: true }).selectOption({ label: today.weekday })
  await page.getByLabel('Rate', { exact: true }).fill('85')
  await page.getByRole('button', { name: 'Add service plan' }).click()
  await expect(page.getByText(/^Service plan added\. \d+ visits scheduled\.$/)).toBeVisible()
  // The header shows the balance: nothing owed yet.
  await expect(page.getByRole('definition').filter({ hasText: /^\$0\.00$/ })).toBeVisible()

  // The visit is done.
  await page.locator('a[href^="/app/visits/"]').first().click()
  await expect(page).toHaveURL((url) => url.pathname.startsWith('/app/visits/'))
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Mark Complete' }).click()
  await page
    .getByRole('dialog', { name: 'Complete this visit?' })
    .getByRole('button', { name: 'Complete visit' })
    .click()
  await expect(page.getByText(/^Completed /)).toBeVisible({ timeout: COMPLETED_SOON })

  // Billing, from the navigation: the month's figures, then "Create invoices" previews the drafts.
  await expect(page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Billing' })).toHaveAttribute(
    'href',
    '/app/billing',
  )
  await gotoHydrated(page, `/app/billing?month=${today.month}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: today.monthLabel })).toBeVisible()
  await captureBoth(page, testInfo, 'billing-month')
  await page.getByRole('button', { name: 'Create invoices' }).click()
  const preview = page.getByRole('region', { name: `Invoices to create for ${today.monthLabel}` })
  await expect(preview).toBeVisible()
  await expect(preview.getByText(/^\d+ invoices?, \$[\d,]+\.\d{2}$/)).toBeVisible()
  await expect(preview.getByRole('row', { name: new RegExp(name) })).toContainText('$85.00')
  await captureBoth(page, testInfo, 'billing-preview')
  const create = preview.getByRole('button', { name: /^Create \d+ invoices?$/ })
  await create.click()
  await expect(page.getByText(/^Created \d+ invoices?\.$/)).toBeVisible()
  await expect(preview).toHaveCount(0)

  // "Send invoices", asked first.
  await page.getByRole('link', { name: 'Send invoices' }).click()
  const confirm = page.getByRole('region', { name: /^Send \d+ invoices?\?$/ })
  await expect(confirm).toBeVisible()
  await captureBoth(page, testInfo, 'billing-send-confirm')
  const sentAfter = new Date()
  await confirm.getByRole('button', { name: 'Yes, send invoices' }).click()
  await expect(page.getByText(/^Sent \d+ invoices?: Emailed \d+ · To print \d+\.$/)).toBeVisible()
  await captureBoth(page, testInfo, 'billing-sent')

  // The customer is emailed the invoice, with a link to it in the portal.
  const invoiceEmail = await waitForEmail({ to: email, subject: /: invoice INV-\d{4} for /, after: sentAfter })
  const portalInvoice = new URL(extractLink(invoiceEmail, '/invoices/')).pathname

  // The office opens it from the customer's record and records a check.
  await gotoHydrated(page, record)
  const invoices = page.getByRole('region', { name: 'Invoices' })
  await expect(invoices.getByText('Sent')).toBeVisible()
  await invoices.getByRole('link', { name: /^INV-\d{4}$/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: /^INV-\d{4}$/ })).toBeVisible()
  await waitForHydration(page)
  expect(portalInvoice.endsWith(new URL(page.url()).pathname.replace('/app/invoices/', '/invoices/'))).toBe(true)
  await expect(page.getByText('Amount due $85.00')).toBeVisible()
  // "Record payment" opens its form: nothing is recorded by one click, and the amount is empty until "Pay in full".
  await page.getByRole('link', { name: 'Record payment' }).click()
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Record payment' }) })
  await expect(form.getByLabel('Amount')).toHaveValue('')
  await form.getByRole('button', { name: 'Pay in full' }).click()
  await expect(form.getByLabel('Amount')).toHaveValue('85.00')
  await form.getByLabel('Method').selectOption({ label: 'Check' })
  await form.getByLabel('Reference').fill(`Check ${suffix}`)
  // A mistyped amount is answered next to it, and nothing typed is lost.
  await form.getByLabel('Amount').fill('50.005')
  await form.getByRole('button', { name: 'Record payment' }).click()
  await expect(form.getByText('Enter the amount in dollars and cents, like 120 or 1,234.50.')).toBeVisible()
  await expect(form.getByLabel('Reference')).toHaveValue(`Check ${suffix}`)
  await form.getByLabel('Amount').fill('$50.00')
  await form.getByRole('button', { name: 'Record payment' }).click()
  await expect(page.getByText('Payment of $50.00 recorded.')).toBeVisible()
  await expect(page.getByText('Amount due $35.00')).toBeVisible()
  await expect(page.getByText('Partially paid').first()).toBeVisible()
  const payments = page.getByRole('region', { name: 'Payments' })
  await expect(payments.getByText(new RegExp(`· Check · Check ${suffix}$`))).toBeVisible()
  // The same check again is refused on its reference, recording nothing.
  await page.getByRole('link', { name: 'Record payment' }).click()
  await form.getByLabel('Amount').fill('10')
  await form.getByLabel('Reference').fill(`Check ${suffix}`)
  await form.getByRole('button', { name: 'Record payment' }).click()
  await expect(
    form.getByText(`A payment with reference "Check ${suffix}" is already recorded for this customer.`),
  ).toBeVisible()
  await expect(page.getByText('Amount due $35.00')).toBeVisible()

  // "a $100 payment typed by mistake could not be undone": now it is voided, with a reason, and stays listed as Void.
  await form.getByLabel('Amount').fill('100')
  await form.getByLabel('Reference').fill(`Mistake ${suffix}`)
  await form.getByRole('button', { name: 'Record payment' }).click()
  await expect(page.getByText('Payment of $100.00 recorded.')).toBeVisible()
  await expect(page.getByText('Amount due $0.00')).toBeVisible()
  const mistake = payments.getByRole('listitem').filter({ hasText: `Mistake ${suffix}` })
  await mistake.getByRole('link', { name: 'Void payment' }).click()
  const voidCard = page.getByRole('region', { name: 'Void this payment?' })
  await voidCard.getByLabel('Reason').fill('Typed $100 for a $10 check')
  await voidCard.getByRole('button', { name: 'Yes, void payment' }).click()
  await expect(page.getByText('Payment of $100.00 voided.')).toBeVisible()
  await expect(page.getByText('Amount due $35.00')).toBeVisible()
  await expect(mistake.getByText('Void', { exact: true })).toBeVisible()
  await expect(mistake.getByText('Void: Typed $100 for a $10 check')).toBeVisible()
  await expect(mistake.getByRole('link', { name: 'Void payment' })).toHaveCount(0)
  await captureBoth(page, testInfo, 'invoice-office')

  // The customer sets up the portal from the invite, in their own browser, and sees the invoice and the balance.
  const context = await browser.newContext({
    extraHTTPHeaders: { ...extraHTTPHeaders, 'x-forwarded-for': '10.97.0.1' },
  })
  const customer = await context.newPage()
  await customer.goto(invite)
  await expect(customer).toHaveURL((url) => url.pathname === '/customer-setup')
  await waitForHydration(customer)
  await customer.getByLabel('Password', { exact: true }).fill('clear-water-1')
  await customer.getByLabel('Confirm password', { exact: true }).fill('clear-water-1')
  await customer.getByRole('button', { name: 'Finish setup' }).click()
  await expect(customer).toHaveURL((url) => /^\/customer\/[^/]+$/.test(url.pathname))
  await expect(customer.getByRole('heading', { level: 1, name })).toBeVisible()
  const list = customer.getByRole('region', { name: 'Invoices' })
  await expect(list.getByText('Partially paid')).toBeVisible()
  await expect(list.getByText('$35.00 due')).toBeVisible()
  await expect(list.getByText('$35.00', { exact: true })).toBeVisible()
  await captureBoth(customer, testInfo, 'portal-invoices')
  await list.getByRole('link', { name: /^Invoice INV-\d{4}$/ }).click()
  await expect(customer).toHaveURL((url) => url.pathname === portalInvoice)
  await expect(customer.getByRole('heading', { level: 1, name: /^Invoice INV-\d{4}$/ })).toBeVisible()
  await expect(customer.getByText('Amount due $35.00')).toBeVisible()
  await expect(customer.getByRole('button', { name: 'Pay invoice' })).toBeDisabled()
  await expect(customer.getByText('Online payment is not set up')).toBeVisible()
  await expect(customer.getByRole('region', { name: 'Payments' }).getByText('$50.00')).toBeVisible()
  await captureBoth(customer, testInfo, 'portal-invoice')
  await context.close()
})
