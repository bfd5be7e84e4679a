// The week board (docs/product.md "Schedule"): a dispatcher opens "Schedule", moves a visit with the keyboard through
// the "Move visit" dialog, and finds it in its new cell after a reload. Next week is used: all of it is in the future.
// Each test moves a visit it booked itself: the board's other visits are moved by tests running alongside.
import type { Page } from '@playwright/test'
import { capture, expect, test, waitForHydration } from './fixtures'
import { addDays, bookVisitOn, nextWeekInNewYork } from './visits'
import { cellOf, dragToCell } from './week-board'

/**
 * Presses `keys` one after the other without waiting for the page between them, as a quick hand does: Playwright's
 * own `press` waits for each key to be handled, which hides races between a key and the tasks it queues.
 */
async function pressAtOnce(page: Page, ...keys: ('Escape' | 'Enter')[]) {
  const cdp = await page.context().newCDPSession(page)
  const codes = { Escape: 27, Enter: 13 }
  const sent = keys.flatMap((key) => {
    const code = { key, code: key, windowsVirtualKeyCode: codes[key], nativeVirtualKeyCode: codes[key] }
    const text = key === 'Enter' ? { text: '\r' } : {}
    return [
      cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...code, ...text }),
      cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...code }),
    ]
  })
  await Promise.all(sent)
  await cdp.detach()
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

  // Escape closes the dialog and gives focus back; Enter at once opens it again (a close that lagged behind the
  // focus once swallowed that Enter).
  await trigger.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: /Move visit/ })
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(trigger).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  await pressAtOnce(page, 'Escape', 'Enter')
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

  // Phones get the same board one row at a time, "Unassigned" first, each day under the other, with no sideways
  // scrolling (capture checks the width): the moved visit is there, on its new day.
  await page.setViewportSize({ width: 390, height: 844 })
  const rows = page.getByRole('navigation', { name: 'Technicians' })
  await expect(rows.getByText(/^Unassigned \(1 of \d+\)$/)).toBeVisible()
  await expect(rows.getByRole('link', { name: '← Previous' })).toHaveCount(0)
  await expect(trigger).toBeVisible()
  await expect(page.getByRole('rowheader', { name: 'Unassigned' })).toBeVisible()
  await expect(page.getByRole('rowheader', { name: 'Tyler Brooks' })).toBeHidden()
  await capture(page, testInfo, 'schedule-week')
  await rows.getByRole('link', { name: 'Next →' }).click()
  await expect(rows.getByText(/ \(2 of \d+\)$/)).toBeVisible()
  await expect(page.getByRole('rowheader', { name: 'Unassigned' })).toBeHidden()
  await expect(trigger).toBeHidden()
  await rows.getByRole('link', { name: '← Previous' }).click()
  await expect(rows.getByText(/^Unassigned \(1 of \d+\)$/)).toBeVisible()
  await expect(trigger).toBeVisible()
})

test('a visit dragged to another day lands there', async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  // No live updates: other specs' changes in the company would re-render the board in the middle of the drag.
  await page.context().route('**/app/events', (route) => route.abort())
  await loginAs(page, 'dispatch@bluelagoon.test')
  // Unassigned, next Friday; dragged to Thursday in the same row (the board's first row: no scrolling mid-drag).
  const id = await bookVisitOn(page, addDays(nextWeekInNewYork(), 4), null)
  await page.goto('/app/schedule')
  await page.getByRole('link', { name: 'Next week' }).click()
  await page.waitForURL(/\/app\/schedule\?week=/)
  await waitForHydration(page)
  const unassigned = page.locator('tbody tr').first()
  await expect(unassigned.getByRole('rowheader')).toHaveText('Unassigned')
  const visit = page.locator('tbody li[draggable="true"]').filter({ has: page.locator(`[data-move-visit="${id}"]`) })
  expect(await cellOf(page, id)).toEqual({ row: 'Unassigned', day: 4 })
  const day = 3
  await dragToCell(page, visit, unassigned.locator('td').nth(day))
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
  // The phone shows one row of the board at a time, "Unassigned" first; "Next →" until Tyler's, where the visit
  // booked for next Tuesday is. The board is drawn once (no second, hidden layout holds the visit again).
  await expect(page.locator(`[data-move-visit="${id}"]`)).toHaveCount(1)
  const rows = page.getByRole('navigation', { name: 'Technicians' })
  const visit = page.locator('li').filter({ has: page.locator(`[data-move-visit="${id}"]`) })
  await expect(visit).toBeHidden()
  for (let row = 1; !(await rows.getByText(/^Tyler Brooks \(/).isVisible()); row++) {
    expect(row, 'Tyler Brooks is one of the rows').toBeLessThan(20)
    await rows.getByRole('link', { name: 'Next →' }).click()
    await expect(rows.getByText(new RegExp(` \\(${row + 1} of \\d+\\)$`))).toBeVisible()
  }
  await expect(page.getByRole('rowheader', { name: 'Tyler Brooks' })).toBeVisible()
  await capture(page, testInfo, 'schedule-phone-row')
  const board = new URL(page.url()).searchParams
  await visit.getByRole('link').click()
  await page.waitForURL(/\/app\/visits\//)
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

  // Back to the board as it was left: the same week, Tyler's row, the visit on its new day.
  await page.getByRole('link', { name: '← Back to schedule' }).click()
  await page.waitForURL(/\/app\/schedule\?/)
  const back = new URL(page.url()).searchParams
  expect([back.get('week'), back.get('row')]).toEqual([board.get('week'), board.get('row')])
  await expect(rows.getByText(/^Tyler Brooks \(/)).toBeVisible()
  await expect(visit).toBeVisible()
  expect((await cellOf(page, id)).day).toBe(2)
})
