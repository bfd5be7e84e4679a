// Invitations and accounts that already exist (decision 011), over HTTP with real emails: the pre-registration
// takeover of security review F3 no longer works, and someone who signed up on their own accepts a team invite.
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import { expect, gotoHydrated, loginAs, submitLogin, test, waitForHydration } from './fixtures'
import { extractLink, waitForEmail } from './mail'

/** Signs up with `email` in a fresh browser; answers that browser's page and when the sign-up happened. */
async function signUp(browser: Browser, email: string, password: string, clientIp: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': clientIp } })
  const page = await context.newPage()
  const startedAt = new Date()
  await gotoHydrated(page, '/login?mode=signup')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible()
  return { page, startedAt }
}

async function newBrowserPage(browser: Browser, clientIp: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': clientIp } })
  return context.newPage()
}

async function inviteOwnerOfNewCompany(page: Page, company: string, email: string) {
  await loginAs(page, 'admin@poolbud.test', { open: '/staff/setup' })
  await waitForHydration(page)
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Send owner invite' }) })
  await form.getByLabel('New company').check()
  await form.getByLabel('Company name', { exact: true }).fill(company)
  await form.getByLabel('Owner name', { exact: true }).fill('Invited Owner')
  await form.getByLabel('Owner email', { exact: true }).fill(email)
  await form.getByRole('button', { name: 'Send owner invite' }).click()
  await expect(
    page.getByText('Invitation sent. The owner will receive an email to finish setting up their account.'),
  ).toBeVisible()
}

test('signing up first with the invited address gives the attacker nothing (F3)', async ({ page, browser }) => {
  const suffix = randomBytes(3).toString('hex')
  const email = `takeover.${suffix}@example.test`
  const attackerPassword = `Attacker-${suffix}-pass`
  const company = `Takeover Pools ${suffix}`
  const attacker = await signUp(browser, email, attackerPassword, '10.71.0.1')

  const invitedAt = new Date()
  await inviteOwnerOfNewCompany(page, company, email)

  // The invitee clicks the "Confirm your email" message the attacker's sign-up sent them …
  const invitee = await newBrowserPage(browser, '10.71.0.2')
  const confirmation = await waitForEmail({ to: email, subject: /Confirm your email/, after: attacker.startedAt })
  await invitee.goto(extractLink(confirmation, '/api/auth/verify-email'))
  await expect(invitee).toHaveURL((url) => url.pathname === '/login')

  // … and the attacker's password opens nothing.
  await attacker.page.goto('/login')
  await submitLogin(attacker.page, email, attackerPassword)
  await expect(attacker.page.getByText(/Invalid email or password/)).toBeVisible()
  await attacker.page.goto('/app')
  await expect(attacker.page).toHaveURL((url) => url.pathname === '/login')

  // The invitation link and the password the invitee chooses open the company.
  const invitation = await waitForEmail({ to: email, subject: /Your Pool Bud account is ready/, after: invitedAt })
  await invitee.goto(extractLink(invitation, '/api/auth/magic-link/verify'))
  await expect(invitee).toHaveURL((url) => url.pathname === '/welcome')
  await waitForHydration(invitee)
  const password = `Invitee-${suffix}-pass`
  await invitee.getByLabel('Create password', { exact: true }).fill(password)
  await invitee.getByLabel('Confirm password', { exact: true }).fill(password)
  await invitee.getByRole('button', { name: 'Complete setup' }).click()
  await expect(invitee).toHaveURL((url) => url.pathname === '/app')
  await expect(invitee.getByRole('banner').getByText(company)).toBeVisible()
  await invitee.context().close()
  await attacker.page.context().close()
})

test('someone who signed up on their own accepts a team invitation after signing in (F14)', async ({
  page,
  browser,
}) => {
  const suffix = randomBytes(3).toString('hex')
  const email = `joiner.${suffix}@example.test`
  const password = `Joiner-${suffix}-pass`
  const joiner = await signUp(browser, email, password, '10.71.0.3')
  const confirmation = await waitForEmail({ to: email, subject: /Confirm your email/, after: joiner.startedAt })
  await joiner.page.goto(extractLink(confirmation, '/api/auth/verify-email'))
  await expect(joiner.page).toHaveURL((url) => url.pathname === '/login')
  await submitLogin(joiner.page, email, password)
  await expect(joiner.page.getByRole('heading', { name: 'Account setup incomplete' })).toBeVisible()

  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/team' })
  await waitForHydration(page)
  const invitedAt = new Date()
  await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Technician' })
  await page.getByLabel('Full name', { exact: true }).fill(`Jo Iner ${suffix}`)
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByRole('button', { name: 'Send invite', exact: true }).click()
  await expect(page.getByText('Invitation sent. Your teammate will receive an email shortly.')).toBeVisible()

  // The email leads to the invitation; nothing changed before they accept.
  const mail = await waitForEmail({ to: email, subject: /invited you to join them/, after: invitedAt })
  await joiner.page.goto(extractLink(mail, '/invitations'))
  await expect(joiner.page.getByRole('heading', { name: 'Join Blue Lagoon Pool Co. as Technician' })).toBeVisible()
  await joiner.page.getByRole('button', { name: 'Accept invitation' }).click()
  await expect(joiner.page).toHaveURL((url) => url.pathname === '/app')
  await expect(joiner.page.getByRole('heading', { level: 1, name: "Today's route" })).toBeVisible()
  await joiner.page.context().close()
})
