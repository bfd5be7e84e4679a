// A visit's photos on the technician's phone (docs/product.md "The visit"): several, each labeled Before / After /
// Other; taking or choosing one uploads it at once; offline it waits on the phone (IndexedDB) with its preview,
// survives the page being closed, and goes up when the connection returns; "Remove" asks first.
import type { Page } from '@playwright/test'
import { capture, expect, test, waitForHydration } from './fixtures'
import { bookVisitToday, jpeg } from './visits'

// Offline, the phone leans on the staff app's service worker: allowed here (the config blocks it, decision 025).
test.use({ serviceWorkers: 'allow' })

const _DANA = 'Dana Whitfield'

async function expectDrawn(page: Page, name: RegExp) {
  const image = page.locator('#photos').getByRole('img', { name })
  await expect(image).toBeVisible()
  // Thumbnails load lazily: one below the fold is only fetched once scrolled to.
  await image.scrollIntoViewIfNeeded()
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
}

test('several labeled photos: uploaded at once, kept on the phone while offline, removed after asking', async ({
  page,
  loginAs,
}) => {
  const { visitId } = await bookVisitToday(page, loginAs)
  await page.setViewportSize({ width: 390, height: 844 })
  await loginAs(page, 'tech@bluelagoon.test')
  // No live updates: other specs' changes in the company would reload this page's data, which fails while the test
  // has the phone offline (the offline visit page is another piece of work; this spec is about the photos).
  await page.context().route('**/app/events', (route) => route.abort())
  await page.goto(`/app/visits/${visitId}`)
  await waitForHydration(page)
  const photos = page.locator('#photos')
  await expect(photos.getByText('No photos yet.')).toBeVisible()

  // The first photo of a visit is a Before one; it uploads as soon as it is taken.
  await expect(photos.getByRole('radio', { name: 'Before' })).toBeChecked()
  await photos.getByLabel('Take photo').setInputFiles({
    name: 'before.jpg',
    mimeType: 'image/jpeg',
    buffer: await jpeg('#5b7736'),
  })
  await expectDrawn(page, /^Before, 1 of 1 of this visit/)
  // Then After, and one labeled Other.
  await expect(photos.getByRole('radio', { name: 'After' })).toBeChecked()
  await photos.getByLabel('Choose photo').setInputFiles({
    name: 'after.jpg',
    mimeType: 'image/jpeg',
    buffer: await jpeg('#0a74b4'),
  })
  await expectDrawn(page, /^After, 2 of 2 of this visit/)
  await photos.getByRole('radio', { name: 'Other' }).check()
  await photos.getByLabel('Choose photo').setInputFiles({
    name: 'pump.jpg',
    mimeType: 'image/jpeg',
    buffer: await jpeg('#888888'),
  })
  await expectDrawn(page, /^Other, 3 of 3 of this visit/)
  await expect(photos.getByText('3 of 20')).toBeVisible()

  // A file that is not an image never leaves the phone.
  await photos.getByLabel('Choose photo').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not a photo'),
  })
  await expect(photos.getByText('Choose an image file (JPEG, PNG, WebP or HEIC).')).toBeVisible()

  // Offline: the photo waits on the phone with its preview…
  await page.context().setOffline(true)
  await photos.getByRole('radio', { name: 'After' }).check()
  await photos.getByLabel('Choose photo').setInputFiles({
    name: 'late.jpg',
    mimeType: 'image/jpeg',
    buffer: await jpeg('#40c8ee'),
  })
  await expect(photos.getByText('Offline: waiting to upload')).toBeVisible()
  await expectDrawn(page, /^After, still on this phone/)
  await capture(page, test.info(), 'visit-photos-offline')
  // …and survives the page being closed: a new page, once online, sends it.
  const context = page.context()
  const later = await context.newPage()
  await page.close()
  await context.setOffline(false)
  await later.setViewportSize({ width: 390, height: 844 })
  await later.goto(`/app/visits/${visitId}`)
  await waitForHydration(later)
  await expectDrawn(later, /^After, 4 of 4 of this visit/)
  await expect(later.locator('#photos').getByText(/waiting to upload/i)).toHaveCount(0)
  await capture(later, test.info(), 'visit-photos')
  await later.setViewportSize({ width: 1280, height: 800 })
  await capture(later, test.info(), 'visit-photos')

  // Remove asks first; "Keep" keeps it.
  const laterPhotos = later.locator('#photos')
  await laterPhotos.getByRole('button', { name: 'Remove other photo 3 of 4' }).click()
  await expect(laterPhotos.getByText('Remove this other photo?')).toBeVisible()
  await laterPhotos.getByRole('button', { name: 'Keep' }).click()
  await expect(laterPhotos.getByRole('img')).toHaveCount(4)
  await laterPhotos.getByRole('button', { name: 'Remove other photo 3 of 4' }).click()
  await laterPhotos.getByRole('button', { name: 'Remove', exact: true }).click()
  await expect(laterPhotos.getByRole('img', { name: /^Other, / })).toHaveCount(0)
  await expect(laterPhotos.getByRole('img')).toHaveCount(3)
  await later.reload()
  await expect(later.locator('#photos').getByRole('img')).toHaveCount(3)
  await expect(later.locator('#photos').getByText('3 of 20')).toBeVisible()
})
