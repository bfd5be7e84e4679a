// Sign-up → confirmation email over SMTP → confirm → log in (no role yet) → log out.
import { randomBytes } from 'node:crypto'
import { expect, gotoHydrated, loginAs, submitLogin, test, waitForHydration } from './fixtures'
import { extractLink, waitForEmail } from './mail'

test('a visitor signs up, confirms the email from the inbox, logs in and out', async ({ page }) => {
  const email = `e2e-signup-${Date.now()}-${randomBytes(3).toString('hex')}@example.test`
  const password = `Sign-up-${randomBytes(4).toString('hex')}`
  const startedAt = new Date()

  await gotoHydrated(page, '/login')
  await page.getByRole('link', { name: 'Create an account' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('mode') === 'signup')
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()

  const emailInput = page.getByLabel('Email', { exact: true })
  const passwordInput = page.getByLabel('Password', { exact: true })
  const confirmInput = page.getByLabel('Confirm password', { exact: true })

  await emailInput.fill(email)
  await passwordInput.fill(password)
  await confirmInput.fill(`${password}-typo`)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByText('Passwords do not match.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toHaveCount(0)

  await confirmInput.fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
  await expect(page.getByRole('status')).toContainText('We sent you a confirmation email')
  await page.getByRole('link', { name: 'Go to login' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/login' && url.search === '')

  // Not confirmed yet: logging in is refused, and says why.
  await submitLogin(page, email, password)
  await expect(page.getByText(/Confirm your email address first/)).toBeVisible()
  await expect(page).toHaveURL((url) => url.pathname === '/login')

  const confirmation = await waitForEmail({ to: email, subject: /Confirm your email/, after: startedAt })
  expect(confirmation.text).toContain('Confirm your email')
  const link = extractLink(confirmation, '/api/auth/verify-email')
  expect(link.startsWith(new URL(page.url()).origin)).toBe(true)

  await page.goto(link)
  // The link's outcome is a flash message on /login without the link's parameters (shown once).
  await expect(page).toHaveURL((url) => url.pathname === '/login' && !url.searchParams.has('verified'))
  await expect(page.getByText('Email confirmed. You can log in now.')).toBeVisible()

  // A signed-up user has no role until a company adds them.
  await loginAs(page, email, { password })
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  await expect(page.getByRole('heading', { name: 'Account setup incomplete' })).toBeVisible()
  await expect(page.getByRole('heading', { name: "Today's Visits" })).toHaveCount(0)

  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/')
  await page.goto('/app')
  await expect(page).toHaveURL((url) => url.pathname === '/login')
})

test('the show/hide toggle switches the password input between hidden and visible', async ({ page }) => {
  await gotoHydrated(page, '/login?mode=signup')
  const passwordInput = page.getByLabel('Password', { exact: true })
  await passwordInput.fill('secret-value')
  await expect(passwordInput).toHaveAttribute('type', 'password')

  await page.getByRole('button', { name: 'Show password', exact: true }).click()
  await expect(passwordInput).toHaveAttribute('type', 'text')
  await expect(passwordInput).toHaveValue('secret-value')
  const hide = page.getByRole('button', { name: 'Hide password', exact: true })
  await expect(hide).toHaveAttribute('aria-pressed', 'true')

  await hide.click()
  await expect(passwordInput).toHaveAttribute('type', 'password')
  await expect(page.getByRole('button', { name: 'Show password', exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  )
  // The confirmation field has its own toggle and stays hidden.
  await expect(page.getByLabel('Confirm password', { exact: true })).toHaveAttribute('type', 'password')
})

test('"Get started" opens sign-up for an owner starting a company, and the plan chosen on Pricing reaches /start', async ({
  page,
}) => {
  const ownerHeading = page.getByRole('heading', { name: 'Start your pool company on Pool Bud' })
  await gotoHydrated(page, '/')
  await page.getByRole('main').getByRole('link', { name: 'Get started' }).first().click()
  await expect(page).toHaveURL(
    (url) =>
      url.pathname === '/login' &&
      url.searchParams.get('mode') === 'signup' &&
      url.searchParams.get('redirectTo') === '/start',
  )
  await expect(ownerHeading).toBeVisible()

  await gotoHydrated(page, '/pricing')
  await page.getByRole('link', { name: 'Choose Team' }).click()
  await expect(ownerHeading).toBeVisible()
  await expect(page.getByText('You chose the Team plan.')).toBeVisible()

  const email = `e2e-owner-${Date.now()}-${randomBytes(3).toString('hex')}@example.test`
  const password = `Owner-plan-${randomBytes(4).toString('hex')}`
  const startedAt = new Date()
  await waitForHydration(page)
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()

  const confirmation = await waitForEmail({ to: email, subject: /Confirm your email/, after: startedAt })
  await page.goto(extractLink(confirmation, '/api/auth/verify-email'))
  await expect(page.getByText('Email confirmed. You can log in now.')).toBeVisible()
  await submitLogin(page, email, password)
  await expect(page).toHaveURL((url) => url.pathname === '/start' && url.searchParams.get('plan') === 'team')
  await expect(page.getByRole('heading', { name: 'Start your company' })).toBeVisible()
  await expect(page.getByText('Plan: Team')).toBeVisible()
})
