// Issue #18 end to end: the dispatcher puts a new customer on a weekly plan and sees its 8 weeks of visits, moves one
// visit only, moves the rest from a date (the plan follows the new day), skips one with a reason; then reorders a
// technician's day and the technician's phone shows today's stops in that order. Dragging on the board and
// "Optimize route" with its undo have their own specs (schedule.spec.ts, route-day.spec.ts).
import { randomBytes } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { expect, test, waitForHydration } from './fixtures'
import { bookVisits, todayInNewYork } from './visits'

const visitLinks = (page: Page) => page.locator('main a[href^="/app/visits/"]')

async function hrefs(locator: Locator) {
  // The visit's path: the staff app's links carry where they were opened from (`?from=`), the phone's do not.
  return (
    await locator.evaluateAll((links) => links.map((link) => link.getAttribute('href')?.split('?')[0] ?? ''))
  ).filter(Boolean)
}

/** Moves the visit whose page is open to `days` after its date, for this visit only or for the following ones too. */
async function moveVisit(page: Page, days: number, scope: 'This visit only' | 'This and following visits') {
  await waitForHydration(page)
  // The office's forms sit below the visit's own work, folded away.
  await page.getByText('Office: assign, move or cancel').click()
  await page.getByRole('button', { name: 'Move visit' }).first().click()
  const dialog = page.getByRole('dialog', { name: /Move visit/ })
  await expect(dialog).toBeVisible()
  const date = dialog.getByLabel('Date')
  const current = new Date(`${await date.inputValue()}T12:00:00Z`)
  const to = new Date(current.getTime() + days * 86_400_000).toISOString().slice(0, 10)
  await date.fill(to)
  await dialog.getByRole('radio', { name: scope }).check()
  await dialog.getByRole('button', { name: 'Move visit' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Visit moved.' }).first()).toBeVisible()
  return to
}

test('a weekly plan: 8 weeks of visits, one moved, the rest moved from a date, one skipped', async ({
  page,
  loginAs,
}) => {
  const name = `Route Cove ${randomBytes(3).toString('hex')}`
  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address').fill('40 Harbour Island Blvd')
  await page.getByLabel('City').fill('Tampa')
  await page.getByLabel('State').fill('FL')
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  const record = new URL(page.url()).pathname

  await page.getByRole('link', { name: /^Add service plan/ }).click()
  await waitForHydration(page)
  await page.getByLabel('Frequency').selectOption({ label: 'Weekly' })
  await page.getByLabel('Day', { exact: true }).selectOption({ label: 'Monday' })
  await page.getByLabel('Technician').selectOption({ label: 'Tyler Brooks' })
  await page.getByLabel('Service window').selectOption({ label: 'Morning' })
  await page.getByRole('button', { name: 'Add service plan' }).click()
  await expect(page.getByText('Service plan added. 8 visits scheduled.')).toBeVisible()
  const visits = await hrefs(visitLinks(page))
  expect(visits).toHaveLength(8)

  // This visit only: a day later, and still one visit in its week.
  await page.goto(visits[0] as string)
  await moveVisit(page, 1, 'This visit only')
  await page.goto(record)
  expect(await hrefs(visitLinks(page))).toHaveLength(8)
  expect((await hrefs(visitLinks(page)))[0]).toBe(visits[0])

  // This and following visits, from the third: the plan now runs on Wednesdays from then on.
  await page.goto(visits[2] as string)
  await moveVisit(page, 2, 'This and following visits')
  await expect(page).toHaveURL((url) => url.pathname.startsWith('/app/visits/'))
  await page.goto(record)
  await expect(page.getByText(/Every week on Wednesday, morning · Tyler Brooks/).first()).toBeVisible()
  const after = await hrefs(visitLinks(page))
  // The first two visits are untouched by the change; every later one is new, on the new plan.
  expect(after.slice(0, 2)).toEqual(visits.slice(0, 2))
  expect(after.slice(2).some((href) => visits.includes(href))).toBe(false)

  // A later visit skipped at the customer's request: shown so, and no longer offered to skip or move.
  await page.goto(after.at(-1) as string)
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Skip visit' }).click()
  await page.getByLabel('Customer request').check()
  await page.getByRole('button', { name: 'Skip visit' }).click()
  await expect(page.getByText('Skipped: Customer request')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Move visit' })).toHaveCount(0)
})

test("the office reorders Tyler's day and his phone shows today's stops in that order", async ({ page, loginAs }) => {
  // Two open stops today for Tyler whatever the hour: visits booked for this minute.
  await loginAs(page, 'dispatch@bluelagoon.test')
  await bookVisits(page, 2)

  await page.goto(`/app/schedule/unassigned/${todayInNewYork()}`)
  await page
    .getByRole('navigation', { name: 'Other routes this day' })
    .getByRole('link', { name: 'Tyler Brooks' })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: /Route.*Tyler Brooks/ })).toBeVisible()
  await waitForHydration(page)
  const stops = page.getByRole('list', { name: 'Stops in route order' })
  // The open stops are the ones that can be moved.
  const openStops = () =>
    hrefs(
      stops
        .locator('li')
        .filter({ has: page.getByRole('button', { name: /^Move .* (up|down)$/ }) })
        .locator('a'),
    )
  const before = await openStops()
  expect(before.length).toBeGreaterThanOrEqual(2)
  await stops
    .locator('li')
    .filter({ has: page.locator(`a[href^="${before[0]}"]`) })
    .getByRole('button', { name: /down$/ })
    .click()
  await expect(page.getByText('Route order saved.')).toBeVisible()
  await expect.poll(async () => (await openStops())[1]).toBe(before[0])
  const ordered = await openStops()

  await page.context().clearCookies()
  await page.setViewportSize({ width: 390, height: 844 })
  await loginAs(page, 'tech@bluelagoon.test')
  await expect(page.getByRole('region', { name: 'Up next' })).toBeVisible()
  const shown = [
    ...(await hrefs(page.getByRole('region', { name: 'Up next' }).locator('a[href^="/app/visits/"]'))),
    ...(await hrefs(page.getByRole('region', { name: 'Later today' }).locator('a[href^="/app/visits/"]'))),
  ].filter((href, index, all) => all.indexOf(href) === index)
  // Other specs may book visits for Tyler meanwhile: compare the stops both pages show, in their order.
  const common = ordered.filter((href) => shown.includes(href))
  expect(common.length).toBeGreaterThanOrEqual(2)
  expect(shown.filter((href) => common.includes(href))).toEqual(common)
  expect(common.indexOf(before[1] as string)).toBeLessThan(common.indexOf(before[0] as string))
})
