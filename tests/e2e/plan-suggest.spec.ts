// "Suggest a day and technician" on "Add service plan" (issue 32 item 7, docs/routing.md "Suggesting a day"): a new
// customer's pool in Tampa, among the demo's routes, gets up to five (weekday, technician) pairs with the minutes of
// driving each adds; "Choose" fills the form, and the saved plan has that day and technician. Without JavaScript the
// suggestion page's "Choose" goes back to the form filled in. Phone width and axe for the list.
import { randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { capture, expect, test, waitForHydration } from './fixtures'

const PHONE = { width: 360, height: 800 }
const DESKTOP = { width: 1280, height: 800 }
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

test('the office asks for a day and technician, chooses the first, and saves the plan with them', async ({
  page,
  loginAs,
}, testInfo) => {
  const suffix = randomBytes(3).toString('hex')
  const name = `Suggest Cove ${suffix}`
  await page.setViewportSize(PHONE)
  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address').fill(`${Number.parseInt(suffix, 16) % 9000} Swann Ave`)
  await page.getByLabel('City').fill('Tampa')
  await page.getByLabel('State').fill('FL')
  await page.getByLabel('ZIP').fill('33606')
  // In the middle of the demo's Tampa routes.
  await page.getByLabel('Latitude').fill('27.9400')
  await page.getByLabel('Longitude').fill('-82.4700')
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()

  await page.getByRole('link', { name: /^Add service plan/ }).click()
  await expect(page).toHaveURL(/\?add=plan:/)
  await waitForHydration(page)
  await page.getByLabel('Frequency').selectOption({ label: 'Weekly' })
  await page.getByLabel('Rate', { exact: true }).fill('90')
  await page.getByRole('button', { name: 'Suggest a day and technician' }).click()

  const list = page.getByRole('region', { name: 'Suggested days and technicians' })
  await expect(list).toBeVisible()
  const rows = list.getByRole('listitem')
  const count = await rows.count()
  expect(count).toBeGreaterThan(0)
  expect(count).toBeLessThanOrEqual(5)
  await expect(rows.first()).toContainText(/\+\d+ min/)
  await expect(rows.first()).toContainText(/\d+ stops? that day/)
  await capture(page, testInfo, 'plan-suggestions')
  expect((await new AxeBuilder({ page }).include('#plan-suggestions-heading').analyze()).violations).toEqual([])
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])

  // The first row: "Tuesday · Tyler Brooks".
  const title = ((await rows.first().locator('p').first().textContent()) ?? '').trim()
  const [weekday, technician] = title.split(' · ') as [string, string]
  expect(WEEKDAYS).toContain(weekday)
  await rows
    .first()
    .getByRole('link', { name: /^Choose/ })
    .click()
  await expect(page.getByText(`Chose ${weekday} with ${technician}.`)).toBeVisible()
  await expect(page.getByLabel('Day', { exact: true })).toHaveValue(String(WEEKDAYS.indexOf(weekday) + 1))
  await expect(page.getByLabel('Technician').locator('option:checked')).toHaveText(technician)
  // What was typed before asking stays.
  await expect(page.getByLabel('Rate', { exact: true })).toHaveValue('90')
  await page.setViewportSize(DESKTOP)
  await capture(page, testInfo, 'plan-suggestions')

  await page.getByRole('button', { name: 'Add service plan' }).click()
  await expect(page.getByText(/Service plan added\. \d+ visits? scheduled\./)).toBeVisible()
  await expect(
    page.getByText(new RegExp(`Every week on ${weekday}.* · ${technician} · \\$90\\.00`)).first(),
  ).toBeVisible()
})

test('without the in-place list, the suggestion page\'s "Choose" opens the form filled in', async ({
  page,
  loginAs,
}) => {
  const suffix = randomBytes(3).toString('hex')
  const name = `Suggest Page ${suffix}`
  await page.setViewportSize(PHONE)
  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address').fill(`${Number.parseInt(suffix, 16) % 9000} Howard Ave`)
  await page.getByLabel('ZIP').fill('33606')
  await page.getByLabel('Latitude').fill('27.9450')
  await page.getByLabel('Longitude').fill('-82.4800')
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await page.getByRole('link', { name: /^Add service plan/ }).click()
  await expect(page).toHaveURL(/\?add=plan:/)
  const locationId = new URL(page.url()).searchParams.get('add')?.replace('plan:', '') ?? ''
  const customerPath = new URL(page.url()).pathname

  // What the form's button opens before JavaScript runs: the page of its own, with the typed fields.
  await page.goto(`${customerPath}/locations/${locationId}/suggest?frequencyWeeks=2&rate=75&rateType=monthly`)
  await expect(page.getByRole('heading', { level: 1, name: 'Suggest a day and technician' })).toBeVisible()
  const rows = page.getByRole('region', { name: 'Suggested days and technicians' }).getByRole('listitem')
  await expect(rows.first()).toBeVisible()
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])
  const [weekday, technician] = ((await rows.first().locator('p').first().textContent()) ?? '').trim().split(' · ') as [
    string,
    string,
  ]
  await rows
    .first()
    .getByRole('link', { name: /^Choose/ })
    .click()
  await expect(page).toHaveURL(/\?add=plan:/)
  await waitForHydration(page)
  await expect(page.getByLabel('Day', { exact: true })).toHaveValue(String(WEEKDAYS.indexOf(weekday) + 1))
  await expect(page.getByLabel('Technician').locator('option:checked')).toHaveText(technician)
  await expect(page.getByLabel('Frequency')).toHaveValue('2')
  await expect(page.getByLabel('Rate', { exact: true })).toHaveValue('75')
})

test('a pool with no map position is told what to do instead of getting suggestions', async ({ page, loginAs }) => {
  const suffix = randomBytes(3).toString('hex')
  const name = `Suggest Nowhere ${suffix}`
  await page.setViewportSize(PHONE)
  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(name)
  // No ZIP and no latitude or longitude: nothing to place it by.
  await page.getByLabel('Service address').fill(`${Number.parseInt(suffix, 16) % 9000} Nowhere Ln`)
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await page.getByRole('link', { name: /^Add service plan/ }).click()
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Suggest a day and technician' }).click()
  await expect(page.getByText('This address has no map position yet')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Edit location' })).toBeVisible()
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])
})
