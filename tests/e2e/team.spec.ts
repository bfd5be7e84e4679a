// Team invitations end to end (issue #5): the owner invites from the dashboard, the invitee
// follows the email from the SMTP server, finishes /welcome and lands on their dashboard; the
// owner can deactivate them, after which they cannot sign in.
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import { expect, submitLogin, test, waitForHydration } from './fixtures'
import { extractLink, waitForEmail } from './mail'

/** Follows an invitation link in a fresh browser and completes /welcome; returns that page. */
async function acceptInvite(browser: Browser, link: string, clientIp: string, password: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': clientIp } })
  const page = await context.newPage()
  await page.goto(link)
  await expect(page).toHaveURL((url) => url.pathname === '/welcome')
  await waitForHydration(page)
  await page.getByLabel('Create password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Complete setup' }).click()
  await expect(page.getByText('Setup complete! Redirecting…')).toBeVisible()
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  return page
}

async function invite(page: Page, role: string, name: string, email: string) {
  await page.getByLabel('Role', { exact: true }).selectOption({ label: role })
  await page.getByLabel('Full name', { exact: true }).fill(name)
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByRole('button', { name: 'Send invite', exact: true }).click()
}

test('the owner invites a dispatcher, who follows the email, finishes setup and lands on the dispatch board', async ({
  page,
  browser,
  loginAs,
}) => {
  const suffix = randomBytes(3).toString('hex')
  const email = `dana.dispatch.${suffix}@example.com`
  await loginAs(page, 'owner@bluelagoon.test')
  await expect(page.getByRole('heading', { level: 1, name: 'Business overview' })).toBeVisible()
  await waitForHydration(page)
  // The owner may invite admins, dispatchers and technicians; admin is the default.
  await expect(page.getByLabel('Role', { exact: true })).toHaveValue('admin')
  const sentAfter = new Date()
  await invite(page, 'Dispatcher / Customer Service', `Dana Dispatch ${suffix}`, email)
  await expect(page.getByText('Invitation sent. Your teammate will receive an email shortly.')).toBeVisible()
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('')

  const mail = await waitForEmail({ to: email, after: sentAfter })
  expect(mail.subject).toContain('Blue Lagoon Pool Co.')
  const dispatcher = await acceptInvite(
    browser,
    extractLink(mail, '/api/auth/magic-link/verify'),
    '10.61.0.1',
    `Pool-${suffix}-pass`,
  )
  await expect(dispatcher.getByRole('heading', { level: 1, name: 'Dispatch' })).toBeVisible()
  await dispatcher.context().close()

  // The workforce now lists them as active.
  await page.reload()
  await expect(page.getByText(email)).toBeVisible()
})

test("the admin's role list offers only Dispatcher / Customer Service and Technician", async ({ page, loginAs }) => {
  await loginAs(page, 'office@bluelagoon.test')
  await expect(page.getByRole('heading', { level: 1, name: 'Operations' })).toBeVisible()
  const options = await page.getByLabel('Role', { exact: true }).locator('option').allTextContents()
  expect(options).toEqual(['Dispatcher / Customer Service', 'Technician'])
  await expect(page.getByRole('heading', { name: 'Team roster' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Low inventory' })).toBeVisible()
  await expect(page.getByText('Invoiced this month', { exact: true })).toBeVisible()
})

test('a deactivated member is signed out and cannot sign in again', async ({ page, browser, loginAs }) => {
  const suffix = randomBytes(3).toString('hex')
  const email = `tomas.tech.${suffix}@example.com`
  const password = `Pool-${suffix}-pass`
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/team' })
  await waitForHydration(page)
  const sentAfter = new Date()
  await invite(page, 'Technician', `Tomas Tech ${suffix}`, email)
  await expect(page.getByText('Invitation sent. Your teammate will receive an email shortly.')).toBeVisible()
  const mail = await waitForEmail({ to: email, after: sentAfter })
  const tech = await acceptInvite(browser, extractLink(mail, '/api/auth/magic-link/verify'), '10.61.0.2', password)
  await expect(tech.getByRole('heading', { level: 1, name: "Today's route" })).toBeVisible()

  await page.reload()
  await waitForHydration(page)
  const row = page.getByRole('listitem').filter({ hasText: email })
  await row.getByRole('button', { name: 'Deactivate' }).click()
  await row.getByRole('button', { name: 'Yes, deactivate' }).click()
  await expect(row.getByText('Deactivated. They are signed out and their open visits are unassigned.')).toBeVisible()

  // Their open session ends at once, and the password no longer signs in.
  await tech.reload()
  await expect(tech).toHaveURL((url) => url.pathname === '/login')
  await submitLogin(tech, email, password)
  await expect(tech.getByText('This account has been deactivated. Contact your company owner.')).toBeVisible()
  await tech.context().close()
})
