// A technician's route for a day (docs/product.md "Schedule"): the dispatcher opens Tyler's route, sees the stops with
// their distances and the map, optimizes it, sees the saving, and undoes it back to the order before.
import type { Page } from '@playwright/test'
import { pickCustomer } from './customer-picker'
import { capture, expect, gotoHydrated, test, waitForHydration } from './fixtures'

/** A local date some days from now: past "next week", which the board spec moves visits in, and nobody's "today". */
function daysAhead(days: number) {
  const date = new Date(Date.now() + days * 86_400_000)
  return date.toISOString().slice(0, 10)
}

const stopList = (page: Page) => page.getByRole('list', { name: 'Stops in route order' })
/**
 * The stops in route order by their visit (the link's path): a customer may have two stops in one day (a plan's visit
 * and a one-off), so names do not tell stops apart.
 */
const stopVisits = (page: Page) =>
  stopList(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))
/** Each stop's address, in route order. */
const stopPlaces = (page: Page) =>
  stopList(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.closest('li')?.querySelector('p')?.textContent ?? ''))
/** The "Move … down" button of the stop of `visitPath`. */
const moveDown = (page: Page, visitPath: string) =>
  stopList(page)
    .getByRole('listitem')
    .filter({ has: page.locator(`a[href^="${visitPath}?"]`) })
    .getByRole('button', { name: /^Move .+ down$/ })

/**
 * Tyler's route on the first coming day (from `fromDays` ahead) with several stops, reached as the office does: the
 * route pages of a day link to each other, so from the day's unassigned visits to Tyler's.
 */
async function openTylersRoute(page: Page, fromDays: number) {
  for (let days = fromDays; days < fromDays + 14; days += 1) {
    await page.goto(`/app/schedule/unassigned/${daysAhead(days)}`)
    await page
      .getByRole('navigation', { name: 'Other routes this day' })
      .getByRole('link', { name: 'Tyler Brooks' })
      .click()
    await expect(page.getByRole('heading', { level: 1, name: /Route.*Tyler Brooks/ })).toBeVisible()
    if (
      (await page.getByRole('button', { name: 'Optimize route' }).count()) > 0 &&
      (await stopVisits(page)).length >= 3
    ) {
      return new URL(page.url()).pathname
    }
  }
  throw new Error('No coming day with several stops for Tyler')
}

test('the dispatcher optimizes a route, sees the saving, and undoes it', async ({ page, loginAs }) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  await openTylersRoute(page, 16)
  await waitForHydration(page)
  await expect(page.getByText('Total distance')).toBeVisible()
  await expect(page.getByRole('list', { name: 'Stops in route order' }).getByText(/^Start: /)).toBeVisible()
  await expect(page.getByRole('img', { name: /^Map of \d+ stops/ })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Back to schedule' })).toHaveAttribute(
    'href',
    /\/app\/schedule\?week=\d{4}-\d{2}-\d{2}$/,
  )

  // Start from the shortest order, then put the first stop second by hand: a longer route to optimize.
  await page.getByRole('button', { name: 'Optimize route' }).click()
  await expect(page.getByRole('status').filter({ hasText: /Route optimized|already as short/ })).toBeVisible()
  // The button is pending until the reloaded order shows.
  await expect(page.getByRole('button', { name: 'Optimize route' })).toBeEnabled()
  // The first stop whose next one is elsewhere (two stops at one address swap to the same distance).
  const places = await stopPlaces(page)
  const at = places.findIndex((place, i) => i + 1 < places.length && place !== places[i + 1])
  expect(at).toBeGreaterThanOrEqual(0)
  const moved = (await stopVisits(page))[at] ?? ''
  await moveDown(page, moved).click()
  await expect(page.getByText('Route order saved.')).toBeVisible()
  await expect.poll(async () => (await stopVisits(page))[at + 1]).toBe(moved)
  // The keyboard keeps its place: the moved stop's button has the focus again.
  await expect(moveDown(page, moved)).toBeFocused()
  const original = await stopVisits(page)

  await page.getByRole('button', { name: 'Optimize route' }).click()
  await expect(page.getByText(/^Route optimized: \d+\.\d mi → \d+\.\d mi \(saved \d+\.\d mi\)\.$/)).toBeVisible()
  // The message comes with the action's answer; the list with the page's reload just after.
  await expect.poll(() => stopVisits(page)).not.toEqual(original)
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport)
    await capture(page, test.info(), 'route-day-optimized')
  }

  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByText('Route order restored.')).toBeVisible()
  await expect.poll(() => stopVisits(page)).toEqual(original)
})

test('"Move down" reorders the stops without JavaScript', async ({ browser, page, loginAs, extraHTTPHeaders }) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  // Days of its own, apart from the test above (the two may run side by side).
  const route = await openTylersRoute(page, 30)
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
    extraHTTPHeaders,
  })
  const plain = await context.newPage()
  await plain.goto(route)
  const [first = '', second, ...rest] = await stopVisits(plain)
  await moveDown(plain, first).click()
  await expect(plain).toHaveURL((url) => url.pathname === route)
  expect(await stopVisits(plain)).toEqual([second, first, ...rest])
  await context.close()
})

/** Books a visit for Dana with Tyler at `time` on `day` with "Fixed appointment" checked. */
async function bookAppointment(page: Page, day: string, time: string) {
  await gotoHydrated(page, '/app')
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create visit' }) })
  await pickCustomer(form, 'Dana Whitfield')
  await form.getByLabel('Technician (optional)').selectOption({ label: 'Tyler Brooks' })
  await form.locator('input[name="scheduledAt"]').fill(`${day}T${time}`)
  await form.getByLabel('Fixed appointment: arrive by this time').check()
  await form.getByRole('button', { name: 'Create visit' }).click()
  await expect(page.getByRole('link', { name: 'Open it' })).toBeVisible()
}

test('ETAs follow the order, and "Optimize route" puts the 8:00 appointment before the 12:00 one', async ({
  page,
  loginAs,
}) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  // A day past the plans' 8 weeks of visits, its own (random) so a rerun does not meet this one's visits.
  const day = daysAhead(70 + Math.floor(Math.random() * 300))
  await bookAppointment(page, day, '12:00')
  await bookAppointment(page, day, '08:00')
  await page.goto(`/app/schedule/unassigned/${day}`)
  await page
    .getByRole('navigation', { name: 'Other routes this day' })
    .getByRole('link', { name: 'Tyler Brooks' })
    .click()
  await waitForHydration(page)
  const list = page.getByRole('list', { name: 'Stops in route order' })
  const appointments = () => list.getByText(/^Appointment /).allTextContents()
  const eight = list.getByRole('listitem').filter({ hasText: 'Appointment 8:00 AM' })
  const noon = list.getByRole('listitem').filter({ hasText: 'Appointment 12:00 PM' })
  // By time at first: the 8:00 stop is reached in the morning, the 12:00 one waits for its time.
  await expect.poll(appointments).toEqual(['Appointment 8:00 AM', 'Appointment 12:00 PM'])
  await expect(eight.getByText(/^ETA 8:\d\d AM$/)).toBeVisible()
  await expect(noon.getByText('ETA 12:00 PM')).toBeVisible()

  // Moving the 8:00 stop after the 12:00 one moves its ETA past noon, and says how late it is.
  await eight.getByRole('button', { name: 'Move Dana Whitfield down' }).click()
  await expect(page.getByText('Route order saved.')).toBeVisible()
  await expect.poll(appointments).toEqual(['Appointment 12:00 PM', 'Appointment 8:00 AM'])
  await expect(eight.getByText(/^ETA 12:\d\d PM$/)).toBeVisible()
  await expect(eight.getByText(/^\d+ min late$/)).toBeVisible()

  await page.getByRole('button', { name: 'Optimize route' }).click()
  await expect(page.getByText(/^Route optimized/)).toBeVisible()
  await expect.poll(appointments).toEqual(['Appointment 8:00 AM', 'Appointment 12:00 PM'])
  await expect(eight.getByText(/^ETA 8:\d\d AM$/)).toBeVisible()
  await expect(noon.getByText('ETA 12:00 PM')).toBeVisible()
})
