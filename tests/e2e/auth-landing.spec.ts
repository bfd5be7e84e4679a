// Every demo account (docs/product.md "Demo") lands where it belongs after logging in, and the
// guards around the staff app, the portal, the dev mailbox and unknown URLs hold.
// tech2@bluelagoon.test is left out: auth-reset.spec.ts changes its password during the run.
import { expect, loginAs, submitLogin, test, userMenu } from './fixtures'

const NOT_FOUND = 'We couldn’t find that page'

/** Each staff login and the dashboard heading its role lands on. */
const STAFF_ON_APP: Array<[string, string]> = [
  ['admin@poolbud.test', "Today's Visits"],
  ['owner@bluelagoon.test', 'Business overview'],
  ['office@bluelagoon.test', 'Operations'],
  ['dispatch@bluelagoon.test', 'Dispatch'],
  ['tech@bluelagoon.test', "Today's route"],
  ['owner@sunsetpools.test', 'Business overview'],
  ['tech@sunsetpools.test', "Today's route"],
]

const CUSTOMERS = [
  { email: 'customer@bluelagoon.test', name: 'Dana Whitfield' },
  { email: 'customer@sunsetpools.test', name: 'Marco Ruiz' },
]

const PORTAL_PATH = /^\/customer\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

for (const [email, heading] of STAFF_ON_APP) {
  test(`${email} lands on their dashboard (${heading}) with their email in the user menu`, async ({ page }) => {
    await loginAs(page, email)
    await expect(page).toHaveURL((url) => url.pathname === '/app')
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await expect(userMenu(page)).toContainText(email)
  })
}

test('newtech@bluelagoon.test, who has not finished setup, lands on /welcome', async ({ page }) => {
  await loginAs(page, 'newtech@bluelagoon.test')
  await expect(page).toHaveURL((url) => url.pathname === '/welcome')
  await expect(page.getByRole('heading', { name: 'Welcome to Pool Bud' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Complete setup' })).toBeVisible()
})

for (const customer of CUSTOMERS) {
  test(`${customer.email} lands on their own portal (${customer.name})`, async ({ page }) => {
    await loginAs(page, customer.email)
    await expect(page).toHaveURL((url) => PORTAL_PATH.test(url.pathname))
    await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible()
    // Their history from the demo data: visits, readings and real photos.
    await expect(page.getByRole('heading', { name: 'Visit history' })).toBeVisible()
    await expect(page.getByText('Completed').first()).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Chemistry readings' })).toBeVisible()
    await expect(page.getByText('No chemistry readings yet.')).toHaveCount(0)
    const gallery = page.locator('section', { has: page.getByRole('heading', { name: 'Photo gallery' }) })
    const photo = gallery.getByRole('img').first()
    await expect(photo).toBeVisible()
    await photo.scrollIntoViewIfNeeded() // thumbnails load lazily
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    // Their invoices are listed; paying is on an invoice's own page (billing.spec.ts).
    await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible()
    await expect(page.getByText(/coming soon/i)).toHaveCount(0)
    await expect(page.getByRole('heading', { level: 1, name: 'Dispatch' })).toHaveCount(0)
  })
}

test('an anonymous visitor to /app is sent to log in, then back to /app', async ({ page }) => {
  await page.goto('/app')
  await expect(page).toHaveURL((url) => url.pathname === '/login' && url.search === '?redirectTo=%2Fapp')
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible()
  await submitLogin(page, 'dispatch@bluelagoon.test')
  await expect(page).toHaveURL((url) => url.pathname === '/app' && url.search === '')
  await expect(page.getByRole('heading', { level: 1, name: 'Dispatch' })).toBeVisible()
})

test('the dev mailbox does not exist when SMTP is configured', async ({ page }) => {
  const response = await page.goto('/dev/mailbox')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: NOT_FOUND })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Mailbox' })).toHaveCount(0)
})

test('an unknown URL shows the friendly 404 page with status 404', async ({ page }) => {
  const response = await page.goto('/no-such-page/at-all')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: NOT_FOUND })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible()
})

test('a signed-in user who opens /login is sent to /app', async ({ page }) => {
  await loginAs(page, 'office@bluelagoon.test')
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  await page.goto('/login')
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  await expect(page.getByRole('heading', { level: 1, name: 'Operations' })).toBeVisible()
})

test("another company's owner gets the 404 page for Dana Whitfield's portal", async ({ page, context }) => {
  await loginAs(page, 'customer@bluelagoon.test')
  await expect(page).toHaveURL((url) => PORTAL_PATH.test(url.pathname))
  await expect(page.getByRole('heading', { level: 1, name: 'Dana Whitfield' })).toBeVisible()
  const portalPath = new URL(page.url()).pathname

  await context.clearCookies()
  await loginAs(page, 'owner@sunsetpools.test')
  await expect(page).toHaveURL((url) => url.pathname === '/app')

  const response = await page.goto(portalPath)
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: NOT_FOUND })).toBeVisible()
  await expect(page.getByText('Dana Whitfield')).toHaveCount(0)
})
