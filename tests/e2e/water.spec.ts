// Issue #10: a technician's reading on a 15,000-gallon chlorine plaster pool is judged and dosed on the visit page;
// completing the visit emails Dana a service report (at the SMTP sink) whose readings and photos are the visit's;
// the portal shows the water's status and each visit's report; the owner can turn reports off.
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { pickCustomer } from './customer-picker'
import { capture, expect, test, waitForHydration } from './fixtures'
import { extractLink, readAllEmails, waitForEmail } from './mail'

const DANA = 'Dana Whitfield'
const DANA_EMAIL = 'customer@bluelagoon.test'
const REPORT_SUBJECT = /^Service report: Blue Lagoon Pool Co\./

// The second test turns Blue Lagoon's reports off for a while: the two must not overlap.
test.describe.configure({ mode: 'serial' })

function createForm(page: Page) {
  return page.locator('form').filter({ has: page.getByRole('button', { name: 'Create visit' }) })
}

/** As the dispatcher, a new visit for Dana assigned to tech@ (Tyler Brooks); returns its id. */
async function newVisitForDana(page: Page, loginAs: (page: Page, email: string) => Promise<void>) {
  await loginAs(page, 'dispatch@bluelagoon.test')
  await waitForHydration(page)
  await pickCustomer(createForm(page), DANA)
  await createForm(page).getByLabel('Technician (optional)').selectOption({ label: 'Tyler Brooks' })
  await createForm(page).getByRole('button', { name: 'Create visit' }).click()
  const link = page.getByRole('link', { name: 'Open it' })
  await expect(link).toBeVisible()
  const visitId = (await link.getAttribute('href'))?.split('/').pop() ?? ''
  await page.context().clearCookies()
  return visitId
}

/** Report emails to Dana that link to this visit. */
function reportsFor(visitId: string) {
  return readAllEmails().filter(
    (email) =>
      email.to.includes(DANA_EMAIL) && REPORT_SUBJECT.test(email.subject) && email.text.includes(`/visits/${visitId}`),
  )
}

/** Uploads a photo labeled `kind` from the visit page's "Choose photo"; answers its thumbnail's URL once shown. */
async function uploadPhoto(page: Page, kind: 'before' | 'after', color: string) {
  const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: color } })
    .jpeg()
    .toBuffer()
  const title = kind === 'before' ? 'Before' : 'After'
  const photos = page.locator('#photos')
  await photos.getByRole('radio', { name: title }).check()
  await photos.getByLabel('Choose photo').setInputFiles({ name: `${kind}.jpg`, mimeType: 'image/jpeg', buffer: jpeg })
  const photo = photos.getByRole('img', { name: new RegExp(`^${title}, \\d+ of \\d+ of this visit`) })
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  return (await photo.getAttribute('src')) ?? ''
}

/** Mark Complete, confirmed; sent once its 10 seconds of "Undo" have passed, the visit shows as completed. */
async function completeVisit(page: Page) {
  await page.getByRole('button', { name: 'Mark Complete' }).click()
  await page
    .getByRole('dialog', { name: 'Complete this visit?' })
    .getByRole('button', { name: 'Complete visit' })
    .click()
  await expect(page.getByText(/^Completed .+ by Tyler Brooks$/)).toBeVisible({ timeout: 25_000 })
}

test('pH 7.9, chlorine 0.5, alkalinity 70 shows pH high and chlorine low with a dose for each', async ({
  page,
  loginAs,
}) => {
  // Our own visit for Dana (a 15,000-gallon chlorine plaster pool), assigned to tech@: no other spec touches it.
  const visitId = await newVisitForDana(page, loginAs)

  await loginAs(page, 'tech@bluelagoon.test', { open: `/app/visits/${visitId}` })
  await waitForHydration(page)
  await expect(page.getByText('Pool: 15,000 gal · chlorine · plaster · outdoor')).toBeVisible()
  await expect(page.getByText('Save a reading to get dosing advice.')).toBeVisible()

  // An optional reading out of range is refused with its own message.
  await page.getByLabel('pH', { exact: true }).fill('7.9')
  await page.getByLabel('Chlorine (ppm)', { exact: true }).fill('0.5')
  await page.getByLabel('Alkalinity', { exact: true }).fill('70')
  await page.getByLabel('Cyanuric acid (ppm)', { exact: true }).fill('400')
  await page.getByRole('button', { name: 'Save Reading' }).click()
  await expect(page.getByText('Cyanuric acid must be between 0 and 300 ppm.')).toBeVisible()
  await page.getByLabel('Cyanuric acid (ppm)', { exact: true }).fill('')
  await page.getByRole('button', { name: 'Save Reading' }).click()
  await expect(page.getByText('Readings saved.')).toBeVisible()

  const statuses = page.getByRole('list', { name: 'Water status' }).first()
  await expect(statuses.getByText('pH high', { exact: true })).toBeVisible()
  await expect(statuses.getByText('chlorine low', { exact: true })).toBeVisible()
  await expect(
    page.getByText(/^Add [\d.]+ fl oz of muriatic acid \(31\.45 %\) to lower pH from 7\.9 to 7\.5\.$/),
  ).toBeVisible()
  await expect(
    page.getByText('Add 38.4 fl oz of liquid chlorine (12.5 %) to raise chlorine from 0.5 to 3 ppm.'),
  ).toBeVisible()
  await expect(page.getByText(/Assumes 12\.5 % trade-percent liquid chlorine/)).toBeVisible()

  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await capture(page, test.info(), 'water-visit')
  }

  // Photos and a chemical from stock, then the visit is done.
  await page.setViewportSize({ width: 1280, height: 900 })
  const thumbUrls = [await uploadPhoto(page, 'before', '#1f8fb0'), await uploadPhoto(page, 'after', '#37c4e0')]
  const chemicals = page
    .locator('section, div')
    .filter({ has: page.getByRole('heading', { name: 'Chemicals added' }) })
    .last()
  await chemicals.getByLabel('From stock').selectOption({ label: 'Muriatic Acid 31.45% (1 gal) (20 in stock)' })
  await chemicals.getByLabel('Quantity').fill('1.5')
  await chemicals.getByRole('button', { name: 'Add chemical' }).click()
  await expect(chemicals.getByText('Stock is counted in whole units: enter a whole number.')).toBeVisible()
  await chemicals.getByLabel('Quantity').fill('1')
  await chemicals.getByRole('button', { name: 'Add chemical' }).click()
  await expect(chemicals.getByText('Chemical recorded.')).toBeVisible()
  await expect(chemicals.getByRole('list', { name: 'Chemicals added' })).toContainText(
    '1 × Muriatic Acid 31.45% (1 gal)',
  )
  const thumbs = await Promise.all(
    thumbUrls.map(async (url) => {
      expect(url).toMatch(new RegExp(`^/app/visits/${visitId}/photos/[0-9a-f-]{36}\\?size=thumb$`))
      const response = await page.request.get(url)
      expect(response.status()).toBe(200)
      return response.body()
    }),
  )
  const completedAt = new Date()
  await completeVisit(page)

  // The report reaches Dana through real SMTP, with this visit's readings, chemicals and photos.
  const report = await waitForEmail({ to: DANA_EMAIL, subject: REPORT_SUBJECT, after: completedAt })
  expect(report.text).toContain(`/visits/${visitId}`)
  expect(report.text).toContain('pH 7.9 · chlorine 0.5 ppm · alkalinity 70 ppm')
  expect(report.text).toContain('pH high, chlorine low')
  expect(report.text).toContain('Tyler Brooks')
  expect(report.text).toContain('1 × Muriatic Acid 31.45% (1 gal)')
  const images = new Map(report.attachments.map((attachment) => [attachment.contentId, attachment]))
  expect(images.get('photo-1')?.content.equals(thumbs[0] ?? Buffer.alloc(0))).toBe(true)
  expect(images.get('photo-2')?.content.equals(thumbs[1] ?? Buffer.alloc(0))).toBe(true)
  expect(report.html).toContain('cid:photo-1')
  expect(report.html).toContain('alt="Before photo"')
  expect(report.html).toContain('alt="After photo"')

  // Completing it again (a double submit, a second tab) sends nothing more.
  const again = await page.request.post(`/app/visits/${visitId}`, { form: { intent: 'complete' }, maxRedirects: 0 })
  expect(again.status()).toBe(302)
  await page.waitForTimeout(2_000)
  expect(reportsFor(visitId)).toHaveLength(1)

  // Dana sees the latest reading's status in her portal, and the report behind the email's link.
  await page.context().clearCookies()
  await loginAs(page, DANA_EMAIL)
  await expect(page.getByText('Latest chemistry')).toBeVisible()
  const tile = page.locator('div', { has: page.getByText('Latest chemistry') }).last()
  await expect(tile.getByText('pH high', { exact: true })).toBeVisible()
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await capture(page, test.info(), 'water-portal')
  }
  const reportPath = new URL(extractLink(report, `/visits/${visitId}`)).pathname
  await expect(page.locator(`a[href="${reportPath}"]`)).toHaveText(/^Report/)
  await page.locator(`a[href="${reportPath}"]`).click()
  await expect(page.getByRole('heading', { name: 'Service report' })).toBeVisible()
  await expect(page.getByText('pH 7.9 · chlorine 0.5 ppm · alkalinity 70 ppm')).toBeVisible()
  await expect(page.getByRole('list', { name: 'Water status' }).getByText('pH high', { exact: true })).toBeVisible()
  await expect(page.getByText('1 × Muriatic Acid 31.45% (1 gal)')).toBeVisible()
  // Every photo of the visit, labeled, in the order taken.
  for (const [index, kind] of ['Before', 'After'].entries()) {
    const image = page.getByRole('img', { name: new RegExp(`^${kind}, ${index + 1} of 2 of the visit`) })
    await image.scrollIntoViewIfNeeded()
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  }
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await capture(page, test.info(), 'water-report')
  }
  await page.getByRole('link', { name: '← Back to your pool' }).click()
  await expect(page.getByText('Latest chemistry')).toBeVisible()
})

test('with reports turned off in settings, completing a visit emails nobody', async ({ page, loginAs }) => {
  const setReports = async (on: boolean) => {
    await loginAs(page, 'owner@bluelagoon.test', { open: '/app/settings' })
    await waitForHydration(page)
    await page.getByLabel('Email customers a service report after each visit').setChecked(on)
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()
    await page.reload()
    await expect(page.getByLabel('Email customers a service report after each visit')).toBeChecked({ checked: on })
    await page.context().clearCookies()
  }
  await setReports(false)
  try {
    const visitId = await newVisitForDana(page, loginAs)
    await loginAs(page, 'tech@bluelagoon.test', { open: `/app/visits/${visitId}` })
    await waitForHydration(page)
    await completeVisit(page)
    // The outbox worker is woken on every queued email; give it well over one of its 5-second ticks.
    await page.waitForTimeout(7_000)
    expect(reportsFor(visitId)).toEqual([])
    await page.context().clearCookies()
  } finally {
    await setReports(true)
  }
})
