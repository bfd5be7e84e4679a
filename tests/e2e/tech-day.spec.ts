import { capture, expect, test, waitForHydration } from './fixtures'
import { bookVisitToday } from './visits'

const _DANA = 'Dana Whitfield'

test("tech@ sees Today's stops with Up next and Directions, then This week by day", async ({ page, loginAs }) => {
  const { visitId } = await bookVisitToday(page, loginAs)
  await page.setViewportSize({ width: 390, height: 844 })
  await loginAs(page, 'tech@bluelagoon.test')
  await expect(page.getByRole('heading', { level: 1, name: "Today's route" })).toBeVisible()
  const tabs = page.getByRole('navigation', { name: 'Your schedule' })
  await expect(tabs.getByRole('link', { name: 'Today', exact: true })).toHaveAttribute('aria-current', 'page')

  // "Up next" is the first open stop: one card, the whole of it a link to the visit, with "Directions".
  const upNext = page.getByRole('region', { name: 'Up next' }).locator('article')
  await expect(upNext).toHaveCount(1)
  await expect(upNext.getByText(/^Stop \d+ of \d+/)).toBeVisible()
  const directions = upNext.getByRole('link', { name: /^Directions/ })
  await expect(directions).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=/)
  await expect(directions).toHaveAttribute('target', '_blank')
  await expect(directions).toHaveAttribute('rel', /noopener/)
  // The day's stops are numbered from 1 however many are finished; the finished ones are folded away.
  const finished = page.locator('details', { hasText: /Finished \(\d+\)/ })
  if (await finished.count()) await finished.locator('summary').click()
  const first = page.getByText(/^Stop 1 of \d+/)
  await expect(first).toBeVisible()
  // Today's stops only (the new visit among them), not every visit ever assigned to Tyler: the visits linked are
  // exactly as many as the stops counted.
  await expect(page.locator(`main a[href^="/app/visits/${visitId}"]`).first()).toBeVisible()
  const stops = Number((await first.textContent())?.match(/of (\d+)/)?.[1])
  const hrefs = await page
    .getByRole('region', { name: 'Today', exact: true })
    .locator('a[href^="/app/visits/"]')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))
  expect(new Set(hrefs).size).toBe(stops)
  await capture(page, test.info(), 'tech-today')
  await page.setViewportSize({ width: 1280, height: 800 })
  await capture(page, test.info(), 'tech-today')

  // The whole "Up next" card opens the visit: a tap on the address, not only on the name.
  const [upNextId] = (await upNext.getByRole('link').first().getAttribute('href'))?.split('/').slice(-1) ?? []
  await upNext.locator('p').nth(1).scrollIntoViewIfNeeded()
  const address = await upNext.locator('p').nth(1).boundingBox()
  if (!address) throw new Error('no address on the Up next card')
  await page.mouse.click(address.x + 5, address.y + address.height / 2)
  await expect(page).toHaveURL((url) => url.pathname === `/app/visits/${upNextId}`)
  await page.goBack()

  await waitForHydration(page)
  await tabs.getByRole('link', { name: 'This week' }).click()
  await expect(page).toHaveURL((url) => url.searchParams.get('tab') === 'week')
  await expect(tabs.getByRole('link', { name: 'This week' })).toHaveAttribute('aria-current', 'page')
  // Seven days, Monday first, each headed by its full date.
  const headings = page.getByRole('main').getByRole('heading', { level: 2 })
  await expect(headings).toHaveCount(7)
  await expect(headings.first()).toHaveText(/^Monday, [A-Z][a-z]+ \d{1,2}, \d{4}/)
  await expect(headings.last()).toHaveText(/^Sunday, /)
  await capture(page, test.info(), 'tech-week')
  await page.setViewportSize({ width: 390, height: 844 })
  await capture(page, test.info(), 'tech-week')
})
