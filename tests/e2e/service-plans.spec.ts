// The office puts a new customer's pool on a weekly plan from the customer record and sees its 8 visits scheduled;
// then one visit is skipped for the weather and shows so (docs/product.md "Schedule", "The visit").
import { randomBytes } from 'node:crypto'
import { capture, expect, test, waitForHydration } from './fixtures'

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }

test('office adds a weekly plan to a new customer and skips one of its visits for the weather', async ({
  page,
  loginAs,
}, testInfo) => {
  const name = `Plan Harbor ${randomBytes(3).toString('hex')}`
  await page.setViewportSize(PHONE)
  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address').fill('12 Dock St')
  await page.getByLabel('City').fill('Tampa')
  await page.getByLabel('State').fill('FL')
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await expect(page.getByText('No service plan')).toBeVisible()

  await page.getByRole('link', { name: /^Add service plan/ }).click()
  await expect(page).toHaveURL(/\?add=plan:/)
  await waitForHydration(page)
  await page.getByLabel('Frequency').selectOption({ label: 'Weekly' })
  await page.getByLabel('Day', { exact: true }).selectOption({ label: 'Thursday' })
  await page.getByLabel('Technician').selectOption({ label: 'Tyler Brooks' })
  await page.getByLabel('Service window').selectOption({ label: 'Morning' })
  await page.getByLabel('Rate', { exact: true }).fill('85')
  await capture(page, testInfo, 'service-plan-form')
  await page.setViewportSize(DESKTOP)
  await capture(page, testInfo, 'service-plan-form')
  await page.setViewportSize(PHONE)

  // A rate that is not an amount is answered next to the field, before anything is saved.
  await page.getByLabel('Rate', { exact: true }).fill('lots')
  await page.getByRole('button', { name: 'Add service plan' }).click()
  await expect(page.getByText('Enter the "Rate" in dollars, like 85 or 85.50.')).toBeVisible()
  await page.getByLabel('Rate', { exact: true }).fill('85')
  await page.getByRole('button', { name: 'Add service plan' }).click()
  await expect(page.getByText('Service plan added. 8 visits scheduled.')).toBeVisible()
  await expect(
    page.getByText(/Every week on Thursday, morning · Tyler Brooks · \$85\.00 per visit/).first(),
  ).toBeVisible()
  await capture(page, testInfo, 'service-plan-added')
  await page.setViewportSize(DESKTOP)
  await capture(page, testInfo, 'service-plan-added')

  // One of its visits, from "Upcoming visits".
  await page.locator('a[href^="/app/visits/"]').first().click()
  await expect(page).toHaveURL((url) => url.pathname.startsWith('/app/visits/'))
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await waitForHydration(page)
  await page.setViewportSize(PHONE)
  await page.getByRole('button', { name: 'Skip visit' }).click()
  // "Other" asks for a few words; the other reasons do not.
  const reasons = page.getByRole('group', { name: 'Why is the visit skipped?' })
  await reasons.getByLabel('Other', { exact: true }).check()
  await expect(page.getByLabel('Other reason')).toBeVisible()
  await reasons.getByLabel('Weather').check()
  await expect(page.getByLabel('Other reason')).toHaveCount(0)
  await capture(page, testInfo, 'skip-visit-form')
  await page.setViewportSize(DESKTOP)
  await capture(page, testInfo, 'skip-visit-form')
  await page.getByRole('button', { name: 'Skip visit' }).click()
  await expect(page.getByText('Skipped: Weather')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Skip visit' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Cancel visit' })).toHaveCount(0)
  await capture(page, testInfo, 'visit-skipped')
  await page.setViewportSize(PHONE)
  await capture(page, testInfo, 'visit-skipped')
})
