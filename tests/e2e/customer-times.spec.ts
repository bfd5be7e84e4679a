// Customer times in Chromium (issue 32 items 2–3, issue 38 item 7; docs/decisions/047-customer-times.md), on Sunset's
// own customer Marco Ruiz so Blue Lagoon's notice specs never see these changes:
// - the office sets "Arrive between" on Marco's location (a reversed window is refused at its field) and the record
//   shows it;
// - a visit booked for today makes Marco's portal say when to expect the technician ("Arriving between …");
// - Marco turns "Visit skipped" texts and emails off in the portal's "Notifications"; the choice survives a reload.
// That the notice sender then sends nothing for it is the model's test on both databases (app/models/notice.server.test.ts).
// Everything is put back at the end. At 390 px and 1280 px, axe clean.
import AxeBuilder from '@axe-core/playwright'
import type { Page, TestInfo } from '@playwright/test'
import { pickCustomer } from './customer-picker'
import { capture, expect, gotoHydrated, loginAs, test } from './fixtures'

const PHONE = { width: 390, height: 844 }
const DESK = { width: 1280, height: 800 }
const CLOCK = '\\d{1,2}:\\d\\d [AP]M'

/** Sunset's today on its own clock (Phoenix), as 'YYYY-MM-DD'. */
const todayInPhoenix = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Phoenix' }).format(new Date())

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect(serious, 'serious or critical axe violations').toEqual([])
}

async function atBothWidths(page: Page, testInfo: TestInfo, name: string) {
  for (const size of [PHONE, DESK]) {
    await page.setViewportSize(size)
    await capture(page, testInfo, name)
    await axeClean(page)
  }
}

test.describe('Customer times', () => {
  test('"Arrive between" on a location, the arrival window in the portal, and the customer’s own notifications', async ({
    page,
  }, testInfo) => {
    test.slow()
    await page.setViewportSize(DESK)
    // A visit for Marco today with Eli, so his portal has a visit of the day to time.
    // An owner's home is the business overview; the dispatch board (with "Create visit") is /app/dispatch.
    await loginAs(page, 'owner@sunsetpools.test', { open: '/app/dispatch' })
    const visitForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create visit' }) })
    const customerId = await pickCustomer(visitForm, 'Marco Ruiz')
    await visitForm.getByLabel('Technician (optional)').selectOption({ label: 'Eli Warner' })
    await visitForm.locator('input[name="scheduledAt"]').fill(`${todayInPhoenix()}T10:00`)
    await visitForm.getByRole('button', { name: 'Create visit' }).click()
    await expect(page.getByRole('link', { name: 'Open it' })).toBeVisible()

    // "Arrive between" on his location: refused reversed, at the field; kept and shown when right.
    const record = `/app/customers/${customerId}`
    await gotoHydrated(page, record)
    await page.getByRole('link', { name: /^Edit 7415 E Camelback Rd/ }).click()
    const from = page.getByLabel('From', { exact: true })
    const until = page.getByLabel('Until', { exact: true })
    await from.fill('11:00')
    await until.fill('09:00')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByText('“Until” must not be before “From”.')).toBeVisible()
    await expect(until).toHaveAttribute('aria-invalid', 'true')
    await from.fill('09:00')
    await until.fill('11:00')
    await page.getByRole('button', { name: 'Save changes' }).click()
    const arrive = page.locator('dt', { hasText: 'Arrive between' }).locator('xpath=following-sibling::dd[1]')
    await expect(arrive).toHaveText('9:00 AM–11:00 AM')
    await atBothWidths(page, testInfo, 'customer-times-record')

    // Marco's portal: today's visit's window, and his notifications.
    await page.context().clearCookies()
    await page.setViewportSize(PHONE)
    await loginAs(page, 'customer@sunsetpools.test')
    const portal = `/customer/${customerId}`
    await gotoHydrated(page, portal)
    await expect(page.getByText(new RegExp(`^Arriving (between ${CLOCK} and ${CLOCK}|at ${CLOCK})$`))).toBeVisible()
    const notifications = page.getByRole('region', { name: 'Notifications' })
    await expect(notifications.getByText('Replying STOP to any text turns off all texts')).toBeVisible()
    const skippedText = notifications.getByRole('checkbox', { name: 'Visit skipped: Texts' })
    const skippedEmail = notifications.getByRole('checkbox', { name: 'Visit skipped: Emails' })
    await expect(skippedText).toBeChecked()
    await expect(skippedEmail).toBeChecked()
    await skippedText.uncheck()
    await skippedEmail.uncheck()
    await notifications.getByRole('button', { name: 'Save notifications' }).click()
    await expect(notifications.getByText('Notifications saved.')).toBeVisible()
    await page.reload()
    await expect(skippedText).not.toBeChecked()
    await expect(skippedEmail).not.toBeChecked()
    await expect(notifications.getByRole('checkbox', { name: 'On my way: Texts' })).toBeChecked()
    await atBothWidths(page, testInfo, 'customer-times-portal')

    // Back as seeded.
    await skippedText.check()
    await skippedEmail.check()
    await notifications.getByRole('button', { name: 'Save notifications' }).click()
    await expect(notifications.getByText('Notifications saved.')).toBeVisible()
    await page.context().clearCookies()
    await loginAs(page, 'owner@sunsetpools.test', { open: record })
    await page.getByRole('link', { name: /^Edit 7415 E Camelback Rd/ }).click()
    await page.getByLabel('From', { exact: true }).fill('')
    await page.getByLabel('Until', { exact: true }).fill('')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(
      page.locator('dt', { hasText: 'Arrive between' }).locator('xpath=following-sibling::dd[1]'),
    ).toHaveText('Any time')
  })
})
