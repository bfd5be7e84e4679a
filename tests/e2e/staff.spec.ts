// Platform administration end to end (issue #6): a platform admin creates a company by inviting
// its owner, who follows the email and lands on the owner dashboard; nobody else gets in; and a
// self-signed-up user starts a trial company and invites a technician.
import { randomBytes } from 'node:crypto'
import { expect, gotoHydrated, loginAs, submitLogin, test, waitForHydration } from './fixtures'
import { extractLink, waitForEmail } from './mail'

test('a platform admin invites the owner of a new company, who sets up and sees its dashboard', async ({
  page,
  browser,
}) => {
  const suffix = randomBytes(3).toString('hex')
  const company = `Harbor Pools ${suffix}`
  const email = `harbor.owner.${suffix}@example.com`
  await loginAs(page, 'admin@poolbud.test')
  await page.getByRole('link', { name: 'Staff Tools' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/staff/setup')
  await expect(page.getByRole('heading', { level: 1, name: 'Company & Owner Setup' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Company Setup' })).toBeVisible()
  await waitForHydration(page)

  const form = page.locator('form', { has: page.getByRole('button', { name: 'Send owner invite' }) })
  await form.getByLabel('New company').check()
  await form.getByLabel('Company name', { exact: true }).fill(company)
  await form.getByLabel('Owner name', { exact: true }).fill(`Hana Harbor ${suffix}`)
  await form.getByLabel('Owner email', { exact: true }).fill(email)
  const sentAfter = new Date()
  await form.getByRole('button', { name: 'Send owner invite' }).click()
  await expect(
    page.getByText('Invitation sent. The owner will receive an email to finish setting up their account.'),
  ).toBeVisible()

  // The list shows the new company with its owner once searched for.
  await page.getByLabel('Search companies by name or id').fill(company)
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page.getByRole('heading', { level: 3, name: company })).toBeVisible()
  await expect(page.getByText(email)).toBeVisible()
  // The card-provider account id is shown, not editable: only the company's owner sets it (F12).
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: company }) })
  await expect(card.getByText('Card-provider account id:')).toBeVisible()
  await expect(card.getByRole('textbox', { name: /Card-provider/ })).toHaveCount(0)
  await expect(form.getByRole('textbox', { name: /Card-provider/ })).toHaveCount(0)

  const mail = await waitForEmail({ to: email, after: sentAfter })
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.1' } })
  const owner = await context.newPage()
  await owner.goto(extractLink(mail, '/api/auth/magic-link/verify'))
  await expect(owner).toHaveURL((url) => url.pathname === '/welcome')
  await waitForHydration(owner)
  const password = `Harbor-${suffix}-pass`
  await owner.getByLabel('Create password', { exact: true }).fill(password)
  await owner.getByLabel('Confirm password', { exact: true }).fill(password)
  await owner.getByRole('button', { name: 'Complete setup' }).click()
  await expect(owner).toHaveURL((url) => url.pathname === '/app')
  await expect(owner.getByRole('heading', { level: 1, name: 'Business overview' })).toBeVisible()
  await expect(owner.getByRole('banner').getByText(company)).toBeVisible()
  await context.close()
})

test('the staff area is a Restricted area for everyone but platform admins', async ({ page }) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  const response = await page.goto('/staff/setup')
  expect(response?.status()).toBe(403)
  await expect(page.getByRole('heading', { name: 'Restricted area' })).toBeVisible()
  await expect(page.getByText('Only Pool Bud platform administrators can access this section.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Staff Tools' })).toHaveCount(0)
})

test('a new sign-up starts a trial company, becomes its owner and invites a technician', async ({ page }) => {
  const suffix = randomBytes(3).toString('hex')
  const email = `trial-${suffix}@example.test`
  const password = `Trial-${suffix}-pass`
  const startedAt = new Date()
  await gotoHydrated(page, '/login?mode=signup')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
  const confirmation = await waitForEmail({ to: email, subject: /Confirm your email/, after: startedAt })
  await page.goto(extractLink(confirmation, '/api/auth/verify-email'))
  await submitLogin(page, email, password)
  await expect(page.getByRole('heading', { name: 'Account setup incomplete' })).toBeVisible()

  await page.getByRole('link', { name: 'Start your own company' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/start')
  await page.getByLabel('Company name', { exact: true }).fill(`Trial Pools ${suffix}`)
  await page.getByLabel('Timezone', { exact: true }).selectOption('America/Phoenix')
  await page.getByRole('button', { name: 'Start my company' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  await expect(page.getByRole('heading', { level: 1, name: 'Business overview' })).toBeVisible()

  await waitForHydration(page)
  await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Technician' })
  await page.getByLabel('Full name', { exact: true }).fill(`Theo Trial ${suffix}`)
  await page.getByLabel('Email', { exact: true }).fill(`theo.${suffix}@example.test`)
  await page.getByRole('button', { name: 'Send invite', exact: true }).click()
  await expect(page.getByText('Invitation sent. Your teammate will receive an email shortly.')).toBeVisible()
})
