// Forgot password → reset email over SMTP → new password. This spec changes the password of
// tech2@bluelagoon.test for the rest of the run: no other spec may log in as tech2.
import { randomBytes } from 'node:crypto'
import { DEMO_PASSWORD, expect, gotoHydrated, loginAs, submitLogin, test, waitForHydration } from './fixtures'
import { extractLink, waitForEmail } from './mail'

const TECH2 = 'tech2@bluelagoon.test'

test('/reset-password without a token explains where the link comes from', async ({ page }) => {
  await page.goto('/reset-password')
  await expect(page.getByRole('heading', { name: 'Reset link needed' })).toBeVisible()
  await expect(page.getByText('This page only works from the link in a password reset email.')).toBeVisible()
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0)
})

test('an empty email is refused with a message', async ({ page }) => {
  await gotoHydrated(page, '/forgot-password')
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByText('Enter your email address.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Check your email' })).toHaveCount(0)
})

test('tech2 resets the password from the emailed link, which then works only once', async ({ page, context }) => {
  const newPassword = `Reset-${Date.now()}-${randomBytes(3).toString('hex')}`

  // The answer for an unknown address and for a real account is the same (no account enumeration).
  const answers: string[] = []
  for (const email of [`nobody-${randomBytes(4).toString('hex')}@example.test`, TECH2]) {
    await gotoHydrated(page, '/forgot-password')
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible()
    answers.push((await page.getByRole('status').textContent()) ?? '')
  }
  expect(answers[0]).toContain('If an account exists for that email, we sent it a link to reset your password.')
  expect(answers[1]).toBe(answers[0])

  const resetEmail = await waitForEmail({ to: TECH2, subject: /Reset your Pool Bud password/ })
  const link = extractLink(resetEmail, '/api/auth/reset-password/')

  await page.goto(link)
  await expect(page).toHaveURL((url) => url.pathname === '/reset-password' && url.searchParams.has('token'))
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  const passwordInput = page.getByLabel('New password', { exact: true })
  const confirmInput = page.getByLabel('Confirm new password', { exact: true })
  await expect(passwordInput).toBeVisible()
  await expect(confirmInput).toBeVisible()
  await expect(page.getByRole('button', { name: 'Update password' })).toBeVisible()
  // A way back for someone who remembered the password after all.
  await expect(page.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login')
  await waitForHydration(page)

  await passwordInput.fill('nine-char')
  await confirmInput.fill('nine-char')
  await page.getByRole('button', { name: 'Update password' }).click()
  await expect(page.getByText('Password must be at least 10 characters.')).toBeVisible()
  // The browser has no list of common passwords: the server's answer says it.
  await passwordInput.fill('Password123')
  await confirmInput.fill('Password123')
  await page.getByRole('button', { name: 'Update password' }).click()
  await expect(page.getByText('That password is too common. Choose one that is harder to guess.')).toBeVisible()

  await passwordInput.fill(newPassword)
  await confirmInput.fill(newPassword)
  await page.getByRole('button', { name: 'Update password' }).click()
  await expect(page.getByText('Password updated. You can now log in with your new credentials.')).toBeVisible()
  await expect(page).toHaveURL((url) => url.pathname === '/login', { timeout: 6_500 })
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible()
  await waitForHydration(page)

  // The old password no longer works; the new one does.
  await submitLogin(page, TECH2, DEMO_PASSWORD)
  await expect(page.getByText(/Invalid email or password/)).toBeVisible()
  await expect(page).toHaveURL((url) => url.pathname === '/login')
  await loginAs(page, TECH2, { password: newPassword })
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  await expect(page.getByRole('heading', { level: 1, name: "Today's route" })).toBeVisible()

  // The link has been used: opening it again does not offer the form.
  await context.clearCookies()
  await page.goto(link)
  await expect(page).toHaveURL((url) => url.pathname === '/reset-password' && url.searchParams.has('error'))
  await expect(page.getByText('This reset link is invalid, has expired or has already been used.')).toBeVisible()
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0)
})
