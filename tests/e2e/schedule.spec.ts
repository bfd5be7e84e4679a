// The week board (OPERATIONS §4): a dispatcher opens "Schedule", moves a visit with the keyboard through the
// "Move visit" dialog, and finds it in its new cell after a reload. Next week is used: all of it is in the future.
// Each test moves a visit it booked itself: the board's other visits are moved by tests running alongside.
import type { Page } from '@playwright/test'
import { capture, expect, test, waitForHydration } from './fixtures'
import { addDays, bookVisitOn, nextWeekInNewYork } from './visits'

/** Where visit `id`'s "Move visit" button sits in the grid: its row's name and its day column (0 = Monday). */
function cellOf(page: Page, id: string) {
  return page.locator(`table [data-move-visit="${id}"]`).evaluate((button) => {
    const cell = button.closest('td') as HTMLTableCellElement
    return { row: cell.parentElement?.querySelector('th')?.textContent ?? '', day: cell.cellIndex - 1 }
  })
}

test('a dispatcher moves a visit on the week board with the keyboard', async ({ page, loginAs }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await loginAs(page, 'dispatch@bluelagoon.test')
  // Tyler's, next Wednesday: an assigned visit, so "Unassigned" is a real change of row.
  const id = await bookVisitOn(page, addDays(nextWeekInNewYork(), 2))
  await page.getByRole('navigation').getByRole('link', { name: 'Schedule' }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible()
  await page.getByRole('link', { name: 'Next week' }).click()
  await page.waitForURL(/\/app\/schedule\?week=\d{4}-\d{2}-\d{2}$/)
  await waitForHydration(page)
  const week = new URL(page.url()).searchParams.get('week') as string
  await expect(page.getByRole('columnheader', { name: /^Mon, [A-Z][a-z]{2} \d{1,2}, \d{4}$/ })).toBeVisible()
  await expect(page.getByRole('rowheader', { name: 'Unassigned' })).toBeVisible()
  await capture(page, testInfo, 'schedule-week')

  const trigger = page.locator(`table [data-move-visit="${id}"]`)
  const before = await cellOf(page, id)
  expect(before.day).toBe(2)
  expect(before.row).toContain('Tyler Brooks')
  const day = 3
  const to = addDays(week, day)

  // Escape closes the dialog and gives focus back.
  await trigger.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: /Move visit/ })
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(trigger).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('radio', { name: 'This visit only' })).toBeChecked()
  await dialog.getByLabel('Date').fill(to)
  await dialog.getByLabel('Technician').selectOption({ label: 'Unassigned' })
  await dialog.getByRole('button', { name: 'Move visit' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('status').filter({ hasText: 'Visit moved.' })).toBeVisible()
  await expect(dialog).toBeHidden()

  await page.reload()
  await waitForHydration(page)
  expect(await cellOf(page, id)).toEqual({ row: 'Unassigned', day })
  await capture(page, testInfo, 'schedule-moved')

  // Phones get the week as a list by day, with no sideways scrolling (capture checks the width).
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('heading', { level: 2, name: /^Mon, / })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Move visit' }).first()).toBeVisible()
  await capture(page, testInfo, 'schedule-week')
})

test('a visit dragged to another day lands there', async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  // No live updates: other specs' changes in the company would re-render the board in the middle of the drag.
  await page.context().route('**/app/events', (route) => route.abort())
  await loginAs(page, 'dispatch@bluelagoon.test')
  // Unassigned, next Friday; dragged to Thursday in the same row (the board's last row: no scrolling mid-drag).
  const id = await bookVisitOn(page, addDays(nextWeekInNewYork(), 4), null)
  await page.goto('/app/schedule')
  await page.getByRole('link', { name: 'Next week' }).click()
  await page.waitForURL(/\/app\/schedule\?week=/)
  await waitForHydration(page)
  const unassigned = page.locator('tbody tr').filter({ has: page.getByRole('rowheader', { name: 'Unassigned' }) })
  const visit = page.locator('tbody li[draggable="true"]').filter({ has: page.locator(`[data-move-visit="${id}"]`) })
  expect(await cellOf(page, id)).toEqual({ row: 'Unassigned', day: 4 })
  const day = 3
  await visit.dragTo(unassigned.locator('td').nth(day))
  await expect(page.getByRole('status').filter({ hasText: 'Visit moved.' })).toBeVisible()
  await page.reload()
  await waitForHydration(page)
  expect(await cellOf(page, id)).toEqual({ row: 'Unassigned', day })
})

test('"Move visit" on the visit page, on a phone', async ({ page, loginAs }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await loginAs(page, 'dispatch@bluelagoon.test')
  const week = nextWeekInNewYork()
  const id = await bookVisitOn(page, addDays(week, 1))
  await page.goto('/app/schedule')
  await page.getByRole('link', { name: 'Next week' }).click()
  await page.waitForURL(/\/app\/schedule\?week=/)
  await waitForHydration(page)
  // The phone's list by day, and only it (one layout is rendered: the grid is not there hidden): the visit booked
  // for next Tuesday, opened from its row.
  await expect(page.getByRole('table')).toHaveCount(0)
  const visit = page.locator('li').filter({ has: page.locator(`[data-move-visit="${id}"]`) })
  await visit.getByRole('link').click()
  await page.waitForURL(/\/app\/jobs\//)
  // The URL changes before the visit page replaces the board: wait for the visit page's folded office forms.
  const office = page.getByText('Office: assign, move or cancel')
  await expect(office).toBeVisible()
  await waitForHydration(page)
  await office.click()
  await expect(page.getByRole('button', { name: 'Move visit' })).toHaveCount(1)
  await page.getByRole('button', { name: 'Move visit' }).click()
  const dialog = page.getByRole('dialog', { name: /Move visit/ })
  await expect(dialog).toBeVisible()
  await capture(page, testInfo, 'visit-move-dialog')
  await expect(dialog.getByLabel('Date')).toHaveValue(addDays(week, 1))
  await dialog.getByLabel('Date').fill(addDays(week, 2))
  await dialog.getByRole('button', { name: 'Move visit' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Visit moved.' })).toBeVisible()
  await expect(dialog).toBeHidden()
})
