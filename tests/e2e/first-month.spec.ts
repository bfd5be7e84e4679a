// A company's first month (issue 38 items 1, 4, 5, 6; decision 049): the visit page tells the technician what they
// need (call or text the customer, the dog, the gate) with a back link named after where it goes; the owner's
// navigation fits one row at 1280 px with the company's name whole, and a message sits under it and leaves on the next
// page; the dispatcher's home says something; and offline, a reading says it is on the phone and its dosing advice
// is worked out there. Phone (390 px) and desktop (1280 px), axe clean.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { capture, expect, gotoHydrated, test, waitForHydration } from './fixtures'
import { addDays, bookVisitOn, bookVisits, bookVisitsToday, todayInNewYork } from './visits'

// Offline, the phone leans on the staff app's service worker: allowed here (the config blocks it, decision 025).
test.use({ serviceWorkers: 'allow' })

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect(serious, 'serious or critical axe violations').toEqual([])
}

test('the visit page on a phone: call or text the customer, the dog and the gate first, and a back link that says where', async ({
  page,
  loginAs,
}, testInfo) => {
  test.setTimeout(240_000)
  const { ids, customerId } = await bookVisitsToday(page, loginAs, 1)
  const visitId = ids[0] ?? ''
  await page.setViewportSize(PHONE)
  await loginAs(page, 'tech@bluelagoon.test', { open: `/app/visits/${visitId}` })

  // At the top of the screen, before any scrolling: who, how to reach them, the dog, the gate code.
  await expect(page.getByRole('heading', { level: 1, name: 'Dana Whitfield' })).toBeInViewport()
  await expect(page.getByRole('link', { name: 'Call Dana Whitfield' })).toHaveAttribute('href', 'tel:+18135550101')
  await expect(page.getByRole('link', { name: 'Text Dana Whitfield' })).toHaveAttribute('href', 'sms:+18135550101')
  await expect(page.getByRole('link', { name: 'Call Dana Whitfield' })).toBeInViewport()
  await expect(page.getByText('Dog on site: check before opening the gate.')).toBeInViewport()
  await expect(page.getByText('2580#')).toBeInViewport()
  await expect(page.getByText(/Biscuit, a friendly golden retriever/)).toBeVisible()
  await expectAxeClean(page)
  await capture(page, testInfo, 'first-month-visit-top')

  // A technician's way back is Today.
  const back = page.getByRole('link', { name: '← Back to Today' })
  await expect(back).toHaveAttribute('href', '/app')
  await back.click()
  await expect(page).toHaveURL(/\/app$/)

  // The office, from the customer's page: back to the customer. An address that is not one of ours goes home.
  await page.context().clearCookies()
  await page.setViewportSize(DESKTOP)
  await loginAs(page, 'dispatch@bluelagoon.test', { open: `/app/customers/${customerId}` })
  await page.locator(`a[href^="/app/visits/${visitId}?from="]`).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Dana Whitfield' })).toBeVisible()
  await page.getByRole('link', { name: '← Back to customer' }).click()
  await expect(page).toHaveURL(new RegExp(`/app/customers/${customerId}$`))
  await gotoHydrated(page, `/app/visits/${visitId}?from=${encodeURIComponent('https://evil.example/app')}`)
  await expect(page.getByRole('link', { name: '← Back to dashboard' })).toHaveAttribute('href', '/app')
  await capture(page, testInfo, 'first-month-visit-office')
})

test("the owner's navigation fits one row at 1280 px, the company name is whole, and a message sits under it until the next page", async ({
  page,
  loginAs,
}, testInfo) => {
  test.setTimeout(240_000)
  // A visit of our own for the owner to cancel (its message is the one we watch).
  await loginAs(page, 'dispatch@bluelagoon.test')
  const visitId = await bookVisitOn(page, addDays(todayInNewYork(), 9), null)
  await page.context().clearCookies()

  await page.setViewportSize(DESKTOP)
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app' })
  const nav = page.getByRole('navigation', { name: 'App' }).first()
  const links = nav.locator(':scope > a, :scope > details > summary')
  const tops = await links.evaluateAll((elements) => elements.map((el) => Math.round(el.getBoundingClientRect().top)))
  expect(tops.length).toBeGreaterThanOrEqual(6)
  expect(new Set(tops).size, 'every nav entry on one row').toBe(1)
  for (const name of ['Dashboard', 'Dispatch', 'Customers', 'Billing', 'Schedule']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible()
  }
  // "More" opens from the keyboard and holds the rest.
  await nav.locator('summary').focus()
  await page.keyboard.press('Enter')
  for (const name of ['Inventory', 'Team', 'Settings']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible()
  }
  await page.keyboard.press('Escape')
  await expect(nav.getByRole('link', { name: 'Team', exact: true })).toBeHidden()
  // The company's name is not cut.
  const tag = page.getByTestId('shell-tag')
  await expect(tag).toHaveText('Blue Lagoon Pool Co.')
  const cut = await tag.evaluate((el) => {
    const text = el.firstElementChild ?? el
    return text.scrollWidth > text.clientWidth + 1 || getComputedStyle(text).textOverflow === 'ellipsis'
  })
  expect(cut).toBe(false)
  await expectAxeClean(page)
  await capture(page, testInfo, 'first-month-owner-nav')

  // A message under the navigation, not over it; gone on the next page.
  await gotoHydrated(page, `/app/visits/${visitId}`)
  await page.getByText('Office: assign, move or cancel').click()
  await page.getByRole('button', { name: 'Cancel visit' }).click()
  await page.getByRole('button', { name: 'Yes, cancel visit' }).click()
  const flash = page.getByTestId('flash-message')
  await expect(flash).toContainText('Visit canceled.')
  const headerBottom = await page
    .locator('header')
    .first()
    .evaluate((el) => el.getBoundingClientRect().bottom)
  const flashTop = await flash.evaluate((el) => el.getBoundingClientRect().top)
  expect(flashTop).toBeGreaterThanOrEqual(headerBottom)
  await capture(page, testInfo, 'first-month-flash')
  await nav.getByRole('link', { name: 'Customers', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible()
  await expect(flash).toHaveCount(0)
})

test("the dispatcher's home: counts that open their lists, routes by technician, repeats folded", async ({
  page,
  loginAs,
}, testInfo) => {
  test.setTimeout(300_000)
  await loginAs(page, 'dispatch@bluelagoon.test')
  // Yesterday's visit nobody did, and three new visits for Dana one after another.
  const late = await bookVisitOn(page, addDays(todayInNewYork(), -1), null)
  await bookVisits(page, 3)

  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport)
    await gotoHydrated(page, '/app')
    for (const label of ['Unassigned this week', 'Overdue', 'Skipped this week']) {
      await expect(page.getByRole('link', { name: label, exact: true })).toBeVisible()
    }
    await expect(page.getByText('Upcoming', { exact: true })).toHaveCount(0)
    const routes = page.locator('section, div').filter({ has: page.getByRole('heading', { name: "Today's routes" }) })
    await expect(routes.getByRole('link', { name: 'Tyler Brooks' }).first()).toHaveAttribute(
      'href',
      new RegExp(`^/app/schedule/[0-9a-f-]{36}/${todayInNewYork()}$`),
    )
    await expect(routes.getByText(/^\d+ of \d+ stops done$/).first()).toBeVisible()
    await expect(page.getByText(/· \d+ visits scheduled$/).first()).toBeVisible()
    await expectAxeClean(page)
    await capture(page, testInfo, 'first-month-dispatch-home')
  }

  // "Overdue" opens the list of overdue visits: yesterday's is on it, and its page leads back to the list.
  await page.getByRole('link', { name: 'Overdue', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Overdue' })).toBeVisible()
  await page.locator(`a[href^="/app/visits/${late}?from="]`).click()
  await expect(page.getByRole('link', { name: '← Back to the list' })).toBeVisible()
  await page.getByRole('link', { name: '← Back to the list' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Overdue' })).toBeVisible()
  await expectAxeClean(page)
})

test('offline, a reading says it is on the phone and its dosing advice is worked out there', async ({
  page,
  loginAs,
}, testInfo) => {
  test.setTimeout(240_000)
  const { ids } = await bookVisitsToday(page, loginAs, 1)
  const visitId = ids[0] ?? ''
  await page.setViewportSize(PHONE)
  await loginAs(page, 'tech@bluelagoon.test')
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    polling: 100,
    timeout: 30_000,
  })
  await gotoHydrated(page, '/app')
  await expect(page.getByText(/\d+ stops? saved on this phone for offline use\./)).toBeVisible({ timeout: 60_000 })

  await page.context().setOffline(true)
  await page.goto(`/app/visits/${visitId}`)
  await waitForHydration(page)
  // The saved copy has what the gate needs too.
  await expect(page.getByRole('link', { name: 'Call Dana Whitfield' })).toHaveAttribute('href', 'tel:+18135550101')
  await expect(page.getByText('Dog on site: check before opening the gate.')).toBeVisible()
  await expect(page.getByText('Save a reading to get dosing advice.')).toBeVisible()

  await page.getByLabel('pH', { exact: true }).fill('7.9')
  await page.getByLabel('Chlorine (ppm)', { exact: true }).fill('0.5')
  await page.getByLabel('Alkalinity', { exact: true }).fill('70')
  await page.getByRole('button', { name: 'Save Reading' }).click()
  await expect(page.getByText('Saved on this phone — sends when you are back online')).toBeVisible()
  await expect(page.getByText('Readings saved.')).toHaveCount(0)
  await expect(page.getByText('Waiting to send').first()).toBeVisible()
  // The same advice the server gives for this reading, with no connection.
  await expect(
    page.getByText('Add 38.4 fl oz of liquid chlorine (12.5 %) to raise chlorine from 0.5 to 3 ppm.'),
  ).toBeVisible()
  await expectAxeClean(page)
  await capture(page, testInfo, 'first-month-offline-reading')

  // Back online, the reading is sent and the server's copy says the same.
  await page.context().setOffline(false)
  await expect(page.getByText('Waiting to send')).toHaveCount(0, { timeout: 30_000 })
  await expect(
    page.getByText('Add 38.4 fl oz of liquid chlorine (12.5 %) to raise chlorine from 0.5 to 3 ppm.'),
  ).toBeVisible()
})
