// A technician's day without signal (issue #19, docs/product.md "The visit"): Today loaded once online; then, offline,
// three stops worked — readings, ticks, notes, six photos, two completed and one skipped — and the app reloaded with no
// connection. When the signal returns everything reaches the server within 30 seconds, each change once, and the
// office's week board, open the whole time, shows the visits done without being reloaded.
import type { Page } from '@playwright/test'
import { capture, expect, gotoHydrated, test, waitForHydration } from './fixtures'
import { bookVisitsToday, jpeg } from './visits'

// Offline, the phone leans on the staff app's service worker: allowed here (the config blocks it, decision 025).
test.use({ serviceWorkers: 'allow' })

const PHONE = { width: 390, height: 844 }

/** One stop's work on the visit page, offline: 4 ticks, a reading, both notes, two photos. */
async function workStop(page: Page, n: number) {
  const boxes = page.getByRole('region', { name: 'Checklist' }).getByRole('checkbox')
  await expect(boxes).toHaveCount(4)
  for (let i = 0; i < 4; i++) await boxes.nth(i).click()
  await expect(page.getByRole('region', { name: 'Checklist' }).getByText('4 of 4 done')).toBeVisible()
  await page.getByLabel('pH', { exact: true }).fill('7.4')
  await page.getByLabel('Chlorine (ppm)', { exact: true }).fill(String(2 + n))
  await page.getByLabel('Alkalinity', { exact: true }).fill('90')
  await page.getByRole('button', { name: 'Save Reading' }).click()
  await expect(page.getByText('Waiting to send').first()).toBeVisible()
  await page.getByLabel('Note for office').fill(`Stop ${n}: pump seal weeping.`)
  await page.getByLabel('Note for customer').fill(`Stop ${n}: sparkling.`)
  await page.getByLabel('Note for office').focus()
  const photos = page.locator('#photos')
  await photos
    .getByLabel('Take photo')
    .setInputFiles({ name: `b${n}.jpg`, mimeType: 'image/jpeg', buffer: await jpeg('#1f8fb0') })
  await photos
    .getByLabel('Take photo')
    .setInputFiles({ name: `a${n}.jpg`, mimeType: 'image/jpeg', buffer: await jpeg('#37c4e0') })
  await expect(photos.getByRole('img')).toHaveCount(2)
}

test('three stops worked offline reach the server once when the signal returns, and the office sees them live', async ({
  page,
  loginAs,
  browser,
}, testInfo) => {
  test.setTimeout(240_000)
  const { ids: visits } = await bookVisitsToday(page, loginAs, 3)

  // The office's week board, open throughout in its own browser.
  const office = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const board = await office.newPage()
  await loginAs(board, 'dispatch@bluelagoon.test', { open: '/app/schedule' })
  const card = (id: string) =>
    board
      .locator('li.board-visit')
      .filter({ has: board.locator(`a[href^="/app/visits/${id}"]`) })
      .first()
  for (const id of visits) await expect(card(id)).toBeVisible()

  // The technician loads Today once, online, and the phone keeps the day.
  await page.setViewportSize(PHONE)
  await loginAs(page, 'tech@bluelagoon.test')
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    polling: 100,
    timeout: 30_000,
  })
  await gotoHydrated(page, '/app')
  await expect(page.getByText(/\d+ stops? saved on this phone for offline use\./)).toBeVisible({ timeout: 60_000 })

  await page.context().setOffline(true)
  for (const [n, id] of visits.entries()) {
    await page.goto(`/app/visits/${id}`)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1, name: 'Dana Whitfield' })).toBeVisible()
    await workStop(page, n)
    if (n < 2) {
      await page.getByRole('button', { name: 'Mark Complete' }).click()
      await page
        .getByRole('dialog', { name: 'Complete this visit?' })
        .getByRole('button', { name: 'Complete visit' })
        .click()
      await expect(page.getByText('Visit completed.')).toBeVisible()
    } else {
      await page.getByRole('button', { name: 'Skip visit' }).click()
      await page.getByLabel('Locked gate').check()
      await page.getByRole('button', { name: 'Skip visit' }).click()
    }
  }
  await expect(page.getByText('Offline', { exact: true })).toBeVisible()
  await expect(page.getByText(/^\d+ changes waiting$/)).toBeVisible()

  // Reloaded with no connection, the app still opens, and nothing waiting was lost.
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByRole('heading', { level: 1, name: 'Dana Whitfield' })).toBeVisible()
  await expect(page.getByText(/^\d+ changes waiting$/)).toBeVisible()
  await capture(page, testInfo, 'offline-day-waiting')

  // The signal returns: within 30 seconds nothing is waiting, and the office's board shows the day as it happened.
  await page.context().setOffline(false)
  await expect(page.getByText(/changes? waiting$/)).toHaveCount(0, { timeout: 30_000 })
  await expect(card(visits[0] ?? '').getByText('Completed')).toBeVisible({ timeout: 15_000 })
  await expect(card(visits[1] ?? '').getByText('Completed')).toBeVisible()
  await expect(card(visits[2] ?? '').getByText('Skipped')).toBeVisible()

  // On the server, each change once: read back by the office.
  for (const [n, id] of visits.entries()) {
    await gotoHydrated(board, `/app/visits/${id}`)
    if (n < 2) {
      await expect(board.getByText(/^Completed .+ by Tyler Brooks$/)).toBeVisible()
      await expect(board.getByRole('list', { name: 'Ticked items' }).getByRole('listitem')).toHaveCount(4)
    } else {
      await expect(board.getByText('Skipped: Locked gate')).toBeVisible()
    }
    await expect(board.locator('#photos').getByRole('img')).toHaveCount(2)
    await expect(board.getByText(`Stop ${n}: sparkling.`)).toBeVisible()
    await expect(board.getByText(`Stop ${n}: pump seal weeping.`)).toBeVisible()
    await expect(
      board.getByText(`Cl ${2 + n}`).or(board.getByRole('cell', { name: String(2 + n), exact: true })),
    ).toHaveCount(1)
  }
  await office.close()
})

/** What the test's own stream of the company's changes left on the phone's window. */
type HeardOnPhone = { changes: EventSource; changesHeard: number }

test('a change heard without signal leaves Today in place, and shows on it when the signal returns', async ({
  page,
  loginAs,
  browser,
}) => {
  const phone = await browser.newContext({ viewport: PHONE })
  const tech = await phone.newPage()
  await loginAs(tech, 'tech@bluelagoon.test', { open: '/app' })
  await waitForHydration(tech)
  const clock = tech.getByRole('region', { name: 'Your day' })
  await expect(clock).toBeVisible()
  // A stream of the test's own beside the page's, to know when the company's change has reached the phone.
  await tech.evaluate(() => {
    const heard = window as unknown as HeardOnPhone
    heard.changesHeard = 0
    heard.changes = new EventSource('/app/events')
    heard.changes.addEventListener('change', () => {
      heard.changesHeard += 1
    })
  })
  await tech.waitForFunction(() => (window as unknown as HeardOnPhone).changes.readyState === EventSource.OPEN)
  await phone.setOffline(true)

  // The office books Tyler a visit today: the server announces it on the streams already open.
  const { ids } = await bookVisitsToday(page, loginAs, 1)
  await tech.waitForFunction(() => (window as unknown as HeardOnPhone).changesHeard > 0)
  // The page would reload its data 300 ms after the change; without signal that reload failed and an error page
  // replaced the day. Give it that time and more.
  await tech.waitForTimeout(1_000)
  await expect(clock).toBeVisible()
  await expect(tech.getByText('Something went wrong')).toHaveCount(0)
  await expect(tech.locator(`a[href^="/app/visits/${ids[0]}"]`)).toHaveCount(0)

  await phone.setOffline(false)
  await expect(tech.locator(`a[href^="/app/visits/${ids[0]}"]`).first()).toBeVisible()
  await expect(clock).toBeVisible()
  await phone.close()
})
