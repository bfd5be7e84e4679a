// A new team member (newtech@bluelagoon.test, seeded with setup unfinished) completes /welcome.
// Runs after the 'seeded-state' project (see playwright.config.ts), which needs newtech unfinished.
import { randomBytes } from 'node:crypto'
import { expect, loginAs, logOutFromApp, test, waitForHydration } from './fixtures'

const NEWTECH = 'newtech@bluelagoon.test'

test('newtech completes the welcome form, then lands on the dashboard from then on', async ({ page }) => {
  const newPassword = `Welcome-${Date.now()}-${randomBytes(3).toString('hex')}`

  await loginAs(page, NEWTECH)
  await expect(page).toHaveURL((url) => url.pathname === '/welcome')
  await expect(page.getByRole('heading', { name: 'Welcome to Pool Bud' })).toBeVisible()

  // Every protected page sends an unfinished member back here.
  await page.goto('/app')
  await expect(page).toHaveURL((url) => url.pathname === '/welcome')
  await waitForHydration(page)
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(NEWTECH)

  const fullName = page.getByLabel('Full name', { exact: true })
  const createPassword = page.getByLabel('Create password', { exact: true })
  const confirmPassword = page.getByLabel('Confirm password', { exact: true })
  const submit = page.getByRole('button', { name: 'Complete setup' })
  // The password comes before the address, which is optional and says so.
  const passwordTop = (await createPassword.boundingBox())?.y ?? Number.POSITIVE_INFINITY
  const addressTop = (await page.getByLabel('Address line 1', { exact: true }).boundingBox())?.y ?? 0
  expect(passwordTop).toBeLessThan(addressTop)
  await expect(page.getByRole('group', { name: 'Address (optional)' })).toBeVisible()

  await fullName.fill('Nia Newtech')
  await submit.click()
  await expect(page.getByText('Set a password to continue.')).toBeVisible()
  await expect(page).toHaveURL((url) => url.pathname === '/welcome')

  await createPassword.fill(newPassword)
  await confirmPassword.fill(`${newPassword}x`)
  await submit.click()
  await expect(page.getByText('Passwords do not match.')).toBeVisible()
  await expect(page.getByText('Setup complete! Redirecting…')).toHaveCount(0)

  await fullName.fill('Nia Newtech')
  await page.getByLabel('Phone', { exact: true }).fill('(813) 555-0199')
  await page.getByLabel('City', { exact: true }).fill('Tampa')
  await createPassword.fill(newPassword)
  await confirmPassword.fill(newPassword)
  await submit.click()
  await expect(page.getByText('Setup complete! Redirecting…')).toBeVisible()
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  await expect(page.getByRole('heading', { level: 1, name: "Today's route" })).toBeVisible()
  await expect(page.getByRole('banner').locator('summary:visible')).toContainText(NEWTECH)
  await waitForHydration(page)

  // Setup is done: /welcome now sends them to the dashboard.
  await page.goto('/welcome')
  await expect(page).toHaveURL((url) => url.pathname === '/app')

  await logOutFromApp(page)
  await expect(page).toHaveURL((url) => url.pathname === '/')

  await loginAs(page, NEWTECH, { password: newPassword })
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  await expect(page.getByRole('heading', { level: 1, name: "Today's route" })).toBeVisible()
})
