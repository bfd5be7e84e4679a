// "Balance the day" and "Cover this day" (docs/routing.md "Balancing"): on a day of its own the dispatcher books
// visits for Tyler and Maya, balances the day from the week board (Apply, then Undo), and covers Tyler's day from his
// route (Apply, then Undo); the pages pass axe at 390 px and 1280 px.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { pickCustomer } from './customer-picker'
import { capture, expect, gotoHydrated, test } from './fixtures'

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]

/** A date past the plans' generated weeks, drawn at random so a rerun does not meet this run's visits. */
function farDay() {
  const date = new Date(Date.now() + (90 + Math.floor(Math.random() * 600)) * 86_400_000)
  return date.toISOString().slice(0, 10)
}

function mondayOf(day: string) {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7))
  return date.toISOString().slice(0, 10)
}

/** Books a visit for Dana Whitfield with `technician` at `time` on `day`. */
async function book(page: Page, day: string, time: string, technician: string) {
  await gotoHydrated(page, '/app')
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create visit' }) })
  await pickCustomer(form, 'Dana Whitfield')
  await form.getByLabel('Technician (optional)').selectOption({ label: technician })
  await form.locator('input[name="scheduledAt"]').fill(`${day}T${time}`)
  await form.getByRole('button', { name: 'Create visit' }).click()
  await expect(page.getByRole('link', { name: 'Open it' })).toBeVisible()
}

async function checkLayouts(page: Page, name: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport)
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect.soft(width, 'no sideways scrolling').toBeLessThanOrEqual(viewport.width)
    const { violations } = await new AxeBuilder({ page }).analyze()
    expect(violations.map((violation) => violation.id)).toEqual([])
    await capture(page, test.info(), `${name}-${viewport.width}`)
  }
}

const movesList = (page: Page) => page.getByRole('list', { name: 'Visits that move' }).getByRole('listitem')

/** Tyler has two visits at Dana's and Maya one: Maya's drive there is saved when Tyler, already there, takes it. */
async function bookDay(page: Page) {
  const day = farDay()
  await book(page, day, '09:00', 'Tyler Brooks')
  await book(page, day, '10:00', 'Tyler Brooks')
  await book(page, day, '11:00', 'Maya Flores')
  return day
}

test('the dispatcher balances a day from the week board, applies it and undoes it', async ({ page, loginAs }) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  const day = await bookDay(page)

  await page.goto(`/app/schedule?week=${mondayOf(day)}`)
  await page.locator(`a[href="/app/schedule/balance/${day}"]`).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Balance the day' })).toBeVisible()
  const table = page.getByRole('table', { name: /Miles and stops per technician/ })
  await expect(table.getByRole('row', { name: /Tyler Brooks/ })).toContainText(/\d+\.\d mi → \d+\.\d mi/)
  await expect(table.getByRole('row', { name: /Total/ })).toContainText(/\d+\.\d mi → \d+\.\d mi/)
  await expect(movesList(page).filter({ hasText: 'Dana Whitfield: Maya Flores → Tyler Brooks' })).toHaveCount(1)
  await checkLayouts(page, 'balance-day')

  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByText('Applied: 1 visit moves to another technician.')).toBeVisible()
  await page.goto(`/app/schedule/unassigned/${day}`)
  await page
    .getByRole('navigation', { name: 'Other routes this day' })
    .getByRole('link', { name: 'Maya Flores' })
    .click()
  await expect(page.getByText('No visits on this day.')).toBeVisible()
  // Back on the page later, the day's balance can still be undone.
  await page.goto(`/app/schedule/balance/${day}`)
  await expect(page.getByText(/^Applied at /)).toBeVisible()
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByText('Undone: every visit is back where it was.')).toBeVisible()
  await expect(movesList(page)).toHaveCount(1)
})

test('the dispatcher covers a technician’s day: the others take his stops, and Undo puts them back', async ({
  page,
  loginAs,
}) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  const day = await bookDay(page)
  await page.goto(`/app/schedule/unassigned/${day}`)
  await page
    .getByRole('navigation', { name: 'Other routes this day' })
    .getByRole('link', { name: 'Tyler Brooks' })
    .click()
  await page.getByRole('link', { name: 'Cover this day' }).click()
  await expect(page.getByRole('heading', { level: 1, name: /Cover this day.*Tyler Brooks/ })).toBeVisible()
  await expect(movesList(page).filter({ hasText: 'Tyler Brooks → Maya Flores' })).toHaveCount(2)
  await checkLayouts(page, 'cover-day')
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByText('Applied: 2 visits move to another technician.')).toBeVisible()
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByText('Undone: every visit is back where it was.')).toBeVisible()
  await expect(movesList(page)).toHaveCount(2)
})
