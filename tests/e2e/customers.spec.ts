// The office adds a customer with an email; the customer gets the invite over SMTP, sets up
// the portal from the link, and can log out and back in to the same portal (issue #4).
import { randomBytes } from 'node:crypto'
import { expect, logOutFromApp, submitLogin, test, waitForHydration } from './fixtures'
import { extractLink, waitForEmail } from './mail'

test('a new customer is invited by email, sets up the portal, and logs back in to it', async ({
  browser,
  page,
  loginAs,
  extraHTTPHeaders,
}) => {
  const suffix = randomBytes(3).toString('hex')
  const name = `Rowan Pike ${suffix}`
  const email = `rowan.${suffix}@example.com`

  await loginAs(page, 'dispatch@bluelagoon.test')
  await page.getByRole('link', { name: 'Customers' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/app/customers')
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address').fill('48 Heron Way, Tampa, FL')
  await page.getByLabel('Email (optional)').fill(email)
  const sentAfter = new Date()
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByText('Customer saved.')).toBeVisible()

  const invite = await waitForEmail({ to: email, after: sentAfter })
  const link = extractLink(invite, '/api/auth/magic-link/verify')
  await logOutFromApp(page)

  // The customer, in their own browser.
  const context = await browser.newContext({
    extraHTTPHeaders: { ...extraHTTPHeaders, 'x-forwarded-for': '10.98.0.1' },
  })
  const customer = await context.newPage()
  await customer.goto(link)
  await expect(customer).toHaveURL((url) => url.pathname === '/customer-setup')
  await waitForHydration(customer)
  await expect(customer.getByLabel('Full name')).toHaveValue(name)
  await customer.getByRole('button', { name: 'Finish setup' }).click()
  await expect(customer.getByText('Please choose a password so you can log in later.')).toBeVisible()
  await customer.getByLabel('Password', { exact: true }).fill('clear-water-1')
  await customer.getByLabel('Confirm password', { exact: true }).fill('clear-water-2')
  await customer.getByRole('button', { name: 'Finish setup' }).click()
  await expect(customer.getByText('Passwords do not match.')).toBeVisible()
  await customer.getByLabel('Confirm password', { exact: true }).fill('clear-water-1')
  await customer.getByRole('button', { name: 'Finish setup' }).click()
  await expect(customer.getByText('Setup complete! Redirecting…')).toBeVisible()
  await expect(customer).toHaveURL((url) => url.pathname.startsWith('/customer/'))
  const portal = new URL(customer.url()).pathname
  await expect(customer.getByRole('heading', { level: 1, name })).toBeVisible()

  // The invite link worked once only.
  await customer.getByRole('button', { name: 'Log out' }).click()
  await expect(customer).toHaveURL((url) => url.pathname === '/')
  await customer.goto(link)
  await expect(customer).toHaveURL((url) => url.pathname === '/login')
  await expect(customer.getByText(/invitation link has expired or was already used/)).toBeVisible()

  // Logging back in lands on the same portal.
  await submitLogin(customer, email, 'clear-water-1')
  await expect(customer).toHaveURL((url) => url.pathname === portal)
  await context.close()
})

test('customer search treats typed wildcards and quotes as plain text', async ({ page, loginAs }) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  for (const text of ['%', '_', "'", ',', ')']) {
    const response = await page.goto(`/app/customers?q=${encodeURIComponent(text)}`)
    expect(response?.status()).toBe(200)
    await expect(page.getByText('No customers found. Try adding one above.')).toBeVisible()
  }
  await page.goto('/app/customers?q=whit')
  await expect(page.getByText('Dana Whitfield').first()).toBeVisible()
})
