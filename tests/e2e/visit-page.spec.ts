// The visit page on a phone (docs/product.md "The visit", issue #19): a routine visit in at most 12 taps, the report
// listing exactly the ticked items and the customer's note, "Undo" after Mark Complete, and the office reopening a
// finished visit.
import type { Locator, Page } from '@playwright/test'
import { capture, expect, gotoHydrated, test, waitForHydration } from './fixtures'
import { bookVisitToday, jpeg } from './visits'

const DANA = 'Dana Whitfield'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }
/** Mark Complete waits 10 seconds for "Undo" before the completion is sent; then the page reads it back. */
const SENT_AFTER_UNDO = 25_000

const checklist = (page: Page) => page.getByRole('region', { name: 'Checklist' })

test('a routine visit on a phone — 4 ticks, three readings, two photos, complete — takes at most 12 taps', async ({
  page,
  loginAs,
}, testInfo) => {
  const { visitId } = await bookVisitToday(page, loginAs)
  await page.setViewportSize(PHONE)
  await loginAs(page, 'tech@bluelagoon.test', { open: `/app/visits/${visitId}` })

  // Every tap this test makes goes through here (choosing a file counts as one).
  let taps = 0
  const tap = async (target: Locator) => {
    taps++
    await target.click()
  }
  const choose = async (target: Locator, files: Parameters<Locator['setInputFiles']>[0]) => {
    taps++
    await target.setInputFiles(files)
  }

  // What the visit needs first is on screen: who, where, how to get in, then the checklist. No office forms.
  await expect(page.getByRole('heading', { level: 1, name: DANA })).toBeInViewport()
  await expect(page.getByText('Gate code')).toBeInViewport()
  await expect(page.getByRole('heading', { name: 'Checklist' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeHidden()
  await capture(page, testInfo, 'visit-page')

  const boxes = checklist(page).getByRole('checkbox')
  await expect(boxes).toHaveCount(4)
  for (let i = 0; i < 4; i++) {
    await tap(boxes.nth(i))
    await expect(boxes.nth(i)).toBeChecked()
  }
  await expect(checklist(page).getByText('4 of 4 done')).toBeVisible()

  await page.getByLabel('pH', { exact: true }).fill('7.4')
  await page.getByLabel('Chlorine (ppm)', { exact: true }).fill('3')
  await page.getByLabel('Alkalinity', { exact: true }).fill('90')
  await tap(page.getByRole('button', { name: 'Save Reading' }))
  await expect(page.getByText('Readings saved.')).toBeVisible()
  await expect(page.getByRole('list', { name: 'Water status' }).first()).toBeVisible()

  // Taking a photo uploads it at once: Before first (the visit has none yet), then After.
  const photos = page.locator('#photos')
  await choose(photos.getByLabel('Take photo'), {
    name: 'before.jpg',
    mimeType: 'image/jpeg',
    buffer: await jpeg('#1f8fb0'),
  })
  await expect(photos.getByRole('img', { name: /^Before, 1 of 1 of this visit/ })).toBeVisible()
  await choose(photos.getByLabel('Take photo'), {
    name: 'after.jpg',
    mimeType: 'image/jpeg',
    buffer: await jpeg('#37c4e0'),
  })
  await expect(photos.getByRole('img', { name: /^After, 2 of 2 of this visit/ })).toBeVisible()

  await tap(page.getByRole('button', { name: 'Mark Complete' }))
  const dialog = page.getByRole('dialog', { name: 'Complete this visit?' })
  await expect(dialog.getByText('Everything on the checklist is done.')).toBeVisible()
  await capture(page, testInfo, 'visit-complete-dialog')
  await tap(dialog.getByRole('button', { name: 'Complete visit' }))
  await expect(page.getByText('Visit completed.')).toBeVisible()
  await expect(page.getByRole('button', { name: /^Undo/ })).toBeVisible()
  expect(taps).toBeLessThanOrEqual(12)

  // Once sent, the finished visit is a read-only summary: no entry forms.
  await expect(page.getByText(/^Completed .+ by Tyler Brooks$/)).toBeVisible({ timeout: SENT_AFTER_UNDO })
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByText(/^Completed .+ by Tyler Brooks$/)).toBeVisible()
  await expect(page.getByRole('list', { name: 'Ticked items' }).getByRole('listitem')).toHaveCount(4)
  await expect(page.getByRole('button', { name: 'Save Reading' })).toHaveCount(0)
  await expect(page.getByRole('checkbox')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Reopen visit' })).toHaveCount(0)
  await capture(page, testInfo, 'visit-summary')
  await page.setViewportSize(DESKTOP)
  await capture(page, testInfo, 'visit-summary')
})

test("the report lists exactly the ticked items and the customer's note", async ({ page, loginAs }, testInfo) => {
  const { visitId, customerId } = await bookVisitToday(page, loginAs)
  await page.setViewportSize(PHONE)
  await loginAs(page, 'tech@bluelagoon.test', { open: `/app/visits/${visitId}` })

  const boxes = checklist(page).getByRole('checkbox')
  await expect(boxes).toHaveCount(4)
  const labels = await checklist(page).locator('label').allInnerTexts()
  await boxes.nth(0).click()
  await boxes.nth(2).click()
  await expect(checklist(page).getByText('2 of 4 done')).toBeVisible()
  const ticked = [labels[0], labels[2]].map((label) => label?.trim() ?? '')

  const note = `Filter cleaned; the pool is sparkling (${Date.now()}).`
  await page.getByLabel('Note for customer').fill(note)
  await page.getByLabel('Note for office').fill('Pump seal weeping; order a kit.')
  // Leaving the customer's note saved it; the office note saves after a pause in typing.
  await expect(page.getByLabel('Note for customer').locator('xpath=following-sibling::p')).toHaveText('Saved')
  await expect(page.getByLabel('Note for office').locator('xpath=following-sibling::p')).toHaveText('Saved')
  await page.setViewportSize(DESKTOP)
  await capture(page, testInfo, 'visit-page')
  await page.setViewportSize(PHONE)

  // The confirmation says what is missing; the visit is completed all the same.
  await page.getByRole('button', { name: 'Mark Complete' }).click()
  const missing = page
    .getByRole('dialog', { name: 'Complete this visit?' })
    .getByRole('list', { name: 'Still missing' })
  await expect(missing.getByRole('listitem')).toHaveText([
    `Not ticked: ${labels[1]?.trim()}`,
    `Not ticked: ${labels[3]?.trim()}`,
    'No chemical reading',
  ])
  await page.getByRole('button', { name: 'Complete visit' }).click()
  await expect(page.getByText(/^Completed .+ by Tyler Brooks$/)).toBeVisible({ timeout: SENT_AFTER_UNDO })
  await expect(page.getByText(note)).toBeVisible()

  // Dana's report in her portal.
  await page.context().clearCookies()
  await loginAs(page, 'customer@bluelagoon.test', { open: `/customer/${customerId}/visits/${visitId}` })
  await expect(page.getByRole('heading', { name: 'Service report' })).toBeVisible()
  const work = page.getByRole('region', { name: 'Work done' })
  await expect(work.getByRole('listitem')).toHaveText(ticked.map((label) => `✓ ${label}`))
  await expect(work.getByText(note)).toBeVisible()
  await expect(page.getByText('Pump seal weeping')).toHaveCount(0)
})

test('Undo within 10 seconds of Mark Complete leaves the visit open', async ({ page, loginAs }) => {
  const { visitId } = await bookVisitToday(page, loginAs)
  await page.setViewportSize(PHONE)
  await loginAs(page, 'tech@bluelagoon.test', { open: `/app/visits/${visitId}` })

  await page.getByRole('button', { name: 'Mark Complete' }).click()
  const dialog = page.getByRole('dialog', { name: 'Complete this visit?' })
  await expect(dialog).toBeVisible()
  // "Keep working" and Escape both leave it as it was.
  await dialog.getByRole('button', { name: 'Keep working' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('button', { name: 'Mark Complete' })).toBeFocused()
  await page.getByRole('button', { name: 'Mark Complete' }).click()
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  await page.getByRole('button', { name: 'Mark Complete' }).click()
  await dialog.getByRole('button', { name: 'Complete visit' }).click()
  await expect(page.getByText('Visit completed.')).toBeVisible()
  await expect(page.getByRole('checkbox')).toHaveCount(0)
  await page.getByRole('button', { name: /^Undo/ }).click()
  await expect(page.getByRole('button', { name: 'Mark Complete' })).toBeVisible()

  // Well past the 10 seconds: the completion was never sent.
  await page.waitForTimeout(12_000)
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByRole('button', { name: 'Mark Complete' })).toBeVisible()
  await expect(checklist(page).getByRole('checkbox')).toHaveCount(4)
  await expect(page.getByText(/^Completed /)).toHaveCount(0)
})

test('the office reopens a completed visit; its technician cannot', async ({ page, loginAs }, testInfo) => {
  const { visitId } = await bookVisitToday(page, loginAs)
  await loginAs(page, 'tech@bluelagoon.test')
  // Completed by the technician's plain form (the no-JavaScript path).
  const completed = await page.request.post(`/app/visits/${visitId}`, { form: { intent: 'complete' }, maxRedirects: 0 })
  expect(completed.status()).toBe(302)
  await gotoHydrated(page, `/app/visits/${visitId}`)
  await expect(page.getByText(/^Completed .+ by Tyler Brooks$/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Reopen visit' })).toHaveCount(0)
  await page.context().clearCookies()

  await page.setViewportSize(PHONE)
  await loginAs(page, 'dispatch@bluelagoon.test', { open: `/app/visits/${visitId}` })
  await page.getByRole('button', { name: 'Reopen visit' }).click()
  const dialog = page.getByRole('dialog', { name: 'Reopen this visit?' })
  await expect(dialog).toBeVisible()
  await capture(page, testInfo, 'visit-reopen-dialog')
  await dialog.getByRole('button', { name: 'Reopen visit' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Visit reopened.' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Mark Complete' })).toBeVisible()
  // The office's own forms are below the visit's work, folded away until asked for.
  const office = page.getByText('Office: assign, move or cancel')
  await expect(page.getByRole('button', { name: 'Move visit' })).toBeHidden()
  await office.click()
  await expect(page.getByRole('button', { name: 'Move visit' })).toBeVisible()
  await capture(page, testInfo, 'visit-office-tools')
})

test('a change the server refuses is shown with its reason and what was not saved, until dismissed', async ({
  page,
  browser,
  loginAs,
  extraHTTPHeaders,
}) => {
  const { visitId } = await bookVisitToday(page, loginAs)
  await page.setViewportSize(PHONE)
  await loginAs(page, 'tech@bluelagoon.test', { open: `/app/visits/${visitId}` })
  await expect(checklist(page).getByRole('checkbox')).toHaveCount(4)

  // With no way through to the server, the technician ticks the first item: it shows ticked, waiting on the phone.
  const first = checklist(page).getByRole('checkbox').first()
  const label = ((await checklist(page).locator('label').first().textContent()) ?? '').trim()
  await page.route('**/app/field/changes', (route) => route.abort('internetdisconnected'))
  await first.click()
  await expect(first).toBeChecked()

  // Meanwhile the office cancels the visit.
  const office = await browser.newContext({ extraHTTPHeaders: { ...extraHTTPHeaders, 'x-forwarded-for': '10.98.0.7' } })
  const dispatcher = await office.newPage()
  await loginAs(dispatcher, 'dispatch@bluelagoon.test')
  const canceled = await dispatcher.request.post(`/app/visits/${visitId}`, {
    form: { intent: 'cancel-visit' },
    maxRedirects: 0,
  })
  expect(canceled.status()).toBe(302)
  await office.close()

  // Through again, the tick is sent and refused: the phone says why and what was not saved.
  await page.unroute('**/app/field/changes')
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  const refusal = page.getByRole('alert').filter({ hasText: 'Not saved:' })
  await expect(refusal).toContainText(`The office canceled this visit. Ticked ${label}`)
  await page.getByRole('button', { name: 'Dismiss' }).click()
  await expect(refusal).toHaveCount(0)
  await expect(page.getByText('Canceled', { exact: true }).first()).toBeVisible()
})

test('without JavaScript the checklist and notes are plain forms', async ({
  page,
  browser,
  loginAs,
  extraHTTPHeaders,
}) => {
  const { visitId } = await bookVisitToday(page, loginAs)
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: PHONE,
    extraHTTPHeaders: { ...extraHTTPHeaders, 'x-forwarded-for': '10.98.0.9' },
  })
  const tech = await context.newPage()
  await tech.goto('/login')
  await tech.getByLabel('Email', { exact: true }).fill('tech@bluelagoon.test')
  await tech.getByLabel('Password', { exact: true }).fill('pooldemo123')
  await tech.getByRole('button', { name: 'Log in', exact: true }).click()
  await tech.waitForURL((url) => url.pathname !== '/login')
  await tech.goto(`/app/visits/${visitId}`)

  const boxes = checklist(tech).getByRole('checkbox')
  await boxes.nth(1).check()
  await boxes.nth(3).check()
  await tech.getByRole('button', { name: 'Save checklist' }).click()
  await expect(tech.getByText('Checklist saved.')).toBeVisible()
  await expect(checklist(tech).getByText('2 of 4 done')).toBeVisible()

  await tech.getByLabel('Note for customer').fill('Brushed the steps.')
  await tech.getByRole('button', { name: 'Save notes' }).click()
  await expect(tech.getByText('Notes saved.')).toBeVisible()
  await expect(tech.getByLabel('Note for customer')).toHaveValue('Brushed the steps.')
  await context.close()
})

test('a reading queued for a visit the office gave to another technician is refused, with what was typed kept', async ({
  page,
  browser,
  loginAs,
  extraHTTPHeaders,
}) => {
  const { visitId } = await bookVisitToday(page, loginAs)
  await page.setViewportSize(PHONE)
  await loginAs(page, 'tech@bluelagoon.test', { open: `/app/visits/${visitId}` })

  // No signal: the reading waits on the phone.
  await page.route('**/app/field/changes', (route) => route.abort('internetdisconnected'))
  await page.getByLabel('pH', { exact: true }).fill('7.6')
  await page.getByLabel('Chlorine (ppm)', { exact: true }).fill('4')
  await page.getByLabel('Alkalinity', { exact: true }).fill('110')
  await page.getByRole('button', { name: 'Save Reading' }).click()
  await expect(page.getByText('Waiting to send').first()).toBeVisible()

  // Meanwhile the office gives the visit to Maya Flores.
  const office = await browser.newContext({ extraHTTPHeaders: { ...extraHTTPHeaders, 'x-forwarded-for': '10.98.0.8' } })
  const dispatcher = await office.newPage()
  await loginAs(dispatcher, 'dispatch@bluelagoon.test', { open: `/app/visits/${visitId}` })
  await dispatcher.getByText('Office: assign, move or cancel').click()
  const assign = dispatcher.locator('form').filter({ has: dispatcher.locator('input[name="intent"][value="assign"]') })
  await assign.locator('select[name="technicianId"]').selectOption({ label: 'Maya Flores' })
  await assign.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(dispatcher.getByText('Visit updated.')).toBeVisible()
  await office.close()

  // The signal returns: the reading is refused with the reason, and the phone still shows what was typed.
  await page.unroute('**/app/field/changes')
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  const refusal = page.getByRole('alert').filter({ hasText: 'Not saved:' })
  await expect(refusal.first()).toContainText('The office gave this visit to another technician.')
  await expect(refusal.first()).toContainText('7.6')
})
