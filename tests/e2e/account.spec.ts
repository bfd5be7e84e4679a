// Changing the sign-in email on /app/account (issue #5): the link goes to the NEW address, the old
// one gets a notice, and the login email changes only once the link is followed.
// Runs in the 'account-email' project, after 'seeded-state' (the only other spec that logs in as
// tech@sunsetpools.test); it changes that login and then changes it back, so it ends as seeded.
import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { capture, expect, gotoHydrated, loginAs, logOutFromApp, submitLogin, test, userMenu } from './fixtures'
import { extractLink, waitForEmail } from './mail'

const DEMO_EMAIL = 'tech@sunsetpools.test'

// On a phone-sized screen; inventory-settings.spec captures the account page at 1280 px.
test.use({ viewport: { width: 375, height: 812 } })

/** Saves a new email on /app/account and checks the page's answer. */
async function requestChange(page: Page, newEmail: string) {
  await gotoHydrated(page, '/app/account')
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible()
  await page.getByLabel('Email', { exact: true }).fill(newEmail)
  const sentAfter = new Date()
  await page.getByRole('button', { name: 'Save changes' }).click()
  const status = page.getByRole('status').filter({ hasText: 'Profile updated.' })
  await expect(status).toContainText(
    `We sent a confirmation link to ${newEmail}. Your sign-in email changes once you follow it.`,
  )
  return sentAfter
}

/** The login of `email` is refused (Invalid email or password) and stays on /login. */
async function expectLoginRefused(page: Page, email: string) {
  await page.goto('/login')
  await submitLogin(page, email)
  await expect(page.getByText(/Invalid email or password/)).toBeVisible()
  await expect(page).toHaveURL((url) => url.pathname === '/login')
}

test('a new email applies only after the link sent to it is followed', async ({ page, context }, testInfo) => {
  const newEmail = `eli.${Date.now()}.${randomBytes(3).toString('hex')}@example.com`

  await loginAs(page, DEMO_EMAIL)
  // Reached from the user menu.
  await userMenu(page).click()
  await page.getByRole('link', { name: 'My Account' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/app/account')
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(DEMO_EMAIL)

  // Another user's address is refused and nothing is sent.
  await page.getByLabel('Email', { exact: true }).fill('owner@sunsetpools.test')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(
    page.getByText('That email already belongs to another Pool Bud account. Use a different email address.'),
  ).toBeVisible()
  await expect(page.getByText('Profile updated.')).toHaveCount(0)

  const sentAfter = await requestChange(page, newEmail)
  await capture(page, testInfo, 'account-email-pending')

  // The link arrives at the NEW address; the old one is told, without a link.
  const confirmation = await waitForEmail({
    to: newEmail,
    subject: /Confirm your new Pool Bud email/,
    after: sentAfter,
  })
  const link = extractLink(confirmation, '/api/auth/verify-email')
  const notice = await waitForEmail({ to: DEMO_EMAIL, subject: /sign-in email is about to change/, after: sentAfter })
  expect(notice.text).toContain(newEmail)
  expect(notice.text).not.toContain('/api/auth/verify-email')

  // Before the link is followed: the new address cannot log in, the old one still can.
  await logOutFromApp(page)
  await expect(page).toHaveURL((url) => url.pathname === '/')
  await expectLoginRefused(page, newEmail)
  await loginAs(page, DEMO_EMAIL)
  await expect(page).toHaveURL((url) => url.pathname === '/app')

  // Following the link (signed in) lands on the account page with the new address.
  await page.goto(link)
  await expect(page).toHaveURL((url) => url.pathname === '/app/account')
  await expect(page.getByText(`Email updated. You now log in with ${newEmail}.`)).toBeVisible()
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(newEmail)
  await capture(page, testInfo, 'account-email-updated')

  // The link works once.
  await page.goto(link)
  await expect(page.getByRole('alert')).toContainText(
    'That email confirmation link is not valid or has already been used.',
  )
  await capture(page, testInfo, 'account-email-link-used')

  // Now the reverse: the old address is refused, the new one logs in.
  await context.clearCookies()
  await expectLoginRefused(page, DEMO_EMAIL)
  await loginAs(page, newEmail)
  await expect(page).toHaveURL((url) => url.pathname === '/app')

  // Change it back (this time following the link from a browser that is not signed in), so the
  // demo login ends as seeded.
  const backAfter = await requestChange(page, DEMO_EMAIL)
  const back = await waitForEmail({ to: DEMO_EMAIL, subject: /Confirm your new Pool Bud email/, after: backAfter })
  await context.clearCookies()
  await page.goto(extractLink(back, '/api/auth/verify-email'))
  await expect(page).toHaveURL((url) => url.pathname === '/login')
  await submitLogin(page, DEMO_EMAIL)
  await expect(page).toHaveURL((url) => url.pathname === '/app/account')
  await expect(page.getByText(`Email updated. You now log in with ${DEMO_EMAIL}.`)).toBeVisible()
})

test('the account form saves without JavaScript', async ({ browser, extraHTTPHeaders }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders })
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel('Email', { exact: true }).fill('owner@sunsetpools.test')
  await page.getByLabel('Password', { exact: true }).fill('pooldemo123')
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  await page.goto('/app/account')
  // Saving the values as they are changes nothing, and says so the same way.
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Profile updated.' })).toBeVisible()
  await expect(page.getByText('We sent a confirmation link')).toHaveCount(0)
  await page.getByLabel('Email', { exact: true }).fill('')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Email is required.')).toBeVisible()
  await context.close()
})

test('changing the password signs out every other device, and says so', async ({ page, browser }, testInfo) => {
  // A fresh owner (sign-up, confirm, start a trial company): every demo login is shared with other specs.
  const suffix = randomBytes(3).toString('hex')
  const email = `change-pw-${suffix}@example.test`
  const oldPassword = `Before-${suffix}-pass`
  const newPassword = `After-${suffix}-pass`
  const startedAt = new Date()
  await gotoHydrated(page, '/login?mode=signup')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(oldPassword)
  await page.getByLabel('Confirm password', { exact: true }).fill(oldPassword)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
  const confirmation = await waitForEmail({ to: email, subject: /Confirm your email/, after: startedAt })
  await page.goto(extractLink(confirmation, '/api/auth/verify-email'))
  await submitLogin(page, email, oldPassword)
  await page.getByRole('link', { name: 'Start your own company' }).click()
  await page.getByLabel('Company name', { exact: true }).fill(`Password Pools ${suffix}`)
  await page.getByRole('button', { name: 'Start my company' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/app')

  // The same person is also signed in on their phone (another browser, another address).
  const phoneContext = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': `10.250.${randomBytes(1)[0]}.${randomBytes(1)[0]}` },
  })
  const phone = await phoneContext.newPage()
  await loginAs(phone, email, { password: oldPassword })
  await expect(phone).toHaveURL((url) => url.pathname === '/app')

  await gotoHydrated(page, '/app/account')
  const current = page.getByLabel('Current password', { exact: true })
  const fresh = page.getByLabel('New password', { exact: true })
  const confirm = page.getByLabel('Confirm new password', { exact: true })
  const change = page.getByRole('button', { name: 'Change password', exact: true })

  // Refusals, each with its reason.
  await current.fill(oldPassword)
  await fresh.fill('nine-char')
  await confirm.fill('nine-char')
  await change.click()
  await expect(page.getByText('Password must be at least 10 characters.')).toBeVisible()
  await fresh.fill('qwertyuiop')
  await confirm.fill('qwertyuiop')
  await change.click()
  await expect(page.getByText('That password is too common. Choose one that is harder to guess.')).toBeVisible()
  await current.fill('not-my-password')
  await fresh.fill(newPassword)
  await confirm.fill(newPassword)
  await change.click()
  await expect(page.getByText('That is not your current password.')).toBeVisible()
  // A refused change ends nothing.
  await phone.reload()
  await expect(phone).toHaveURL((url) => url.pathname === '/app')

  await current.fill(oldPassword)
  await fresh.fill(newPassword)
  await confirm.fill(newPassword)
  await change.click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Password changed. You were signed out on every other device.' }),
  ).toBeVisible()
  await capture(page, testInfo, 'account-password-changed')

  // This browser stays signed in; the phone is signed out.
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible()
  await phone.goto('/app/account')
  await expect(phone).toHaveURL((url) => url.pathname === '/login')

  // Only the new password opens the account now.
  await submitLogin(phone, email, oldPassword)
  await expect(phone.getByText(/Invalid email or password/)).toBeVisible()
  await submitLogin(phone, email, newPassword)
  await expect(phone).toHaveURL((url) => url.pathname === '/app/account')
  await phoneContext.close()
})
