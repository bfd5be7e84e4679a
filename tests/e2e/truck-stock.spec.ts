// Truck stock (issue 33 item 5, decision 060): the owner adds an item of their own (gal, in cases of 4), transfers 2
// from the Warehouse to Tyler Brooks's truck, a visit by Tyler uses 1 from the truck, and the item's history shows
// the three movements. The item is this spec's own (a random SKU); Tyler's truck only ever holds it, so other specs'
// chemicals still come from the warehouse. The item page is checked at a phone's width with axe.
import { randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { pickCustomer } from './customer-picker'
import { expect, gotoHydrated, test, waitForHydration } from './fixtures'

const PHONE = { width: 360, height: 740 }

function createForm(page: Page) {
  return page.locator('form').filter({ has: page.getByRole('button', { name: 'Create visit' }) })
}

test('transfer to Tyler’s truck, a visit uses one, and the history shows all three', async ({ page, loginAs }) => {
  const suffix = randomBytes(3).toString('hex')
  const name = `Truck acid ${suffix}`
  const sku = `TRK-${suffix}`

  // The owner adds the item: 5 gal in the warehouse, sold in cases of 4.
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/inventory' })
  const add = page.locator('form#inventory-item')
  await add.getByLabel('Name').fill(name)
  await add.getByLabel('SKU').fill(sku)
  await add.getByLabel('Price ($)').fill('12.50')
  await add.getByLabel('Quantity').fill('5')
  await add.getByLabel('Unit', { exact: true }).selectOption('gal')
  await add.getByLabel('Pack (optional)').fill('case')
  await add.getByLabel('Units per pack').fill('4')
  await add.getByRole('button', { name: 'Add item' }).click()
  await expect(page.getByText('Item saved.')).toBeVisible()

  await gotoHydrated(page, `/app/inventory?q=${sku}`)
  await page.getByRole('link', { name: `Locations and history of ${name}` }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await waitForHydration(page)
  const itemUrl = page.url()
  await expect(page.getByText('In stock: 5 gal (1 case + 1 gal)')).toBeVisible()

  // Transfer 2 gal to Tyler's truck (made by this first transfer).
  const transfer = page.locator('form#transfer')
  await transfer.getByLabel('From').selectOption({ label: 'Warehouse' })
  await transfer.getByLabel('To').selectOption({ label: 'Truck — Tyler Brooks' })
  await transfer.getByLabel('Quantity').fill('2')
  await transfer.getByRole('button', { name: 'Transfer' }).click()
  await expect(transfer.getByText('Moved 2 gal from Warehouse to Truck — Tyler Brooks.')).toBeVisible()
  await page.reload()
  const locations = page
    .locator('section, div')
    .filter({ has: page.getByRole('heading', { name: 'Stock by location' }) })
    .last()
  await expect(locations.getByRole('listitem').filter({ hasText: 'Truck — Tyler Brooks' })).toContainText('2 gal')
  await expect(locations.getByRole('listitem').filter({ hasText: 'Warehouse' })).toContainText('3 gal')

  // The dispatcher books a visit for Dana with Tyler.
  await page.context().clearCookies()
  await loginAs(page, 'dispatch@bluelagoon.test')
  await waitForHydration(page)
  await pickCustomer(createForm(page), 'Dana Whitfield')
  await createForm(page).getByLabel('Technician (optional)').selectOption({ label: 'Tyler Brooks' })
  await createForm(page).getByRole('button', { name: 'Create visit' }).click()
  const link = page.getByRole('link', { name: 'Open it' })
  await expect(link).toBeVisible()
  const visitId = (await link.getAttribute('href'))?.split('/').pop() ?? ''
  await page.context().clearCookies()

  // Tyler uses 1 gal on it: the picker shows what is on his truck.
  await loginAs(page, 'tech@bluelagoon.test', { open: `/app/visits/${visitId}` })
  const chemicals = page
    .locator('section, div')
    .filter({ has: page.getByRole('heading', { name: 'Chemicals added' }) })
    .last()
  await chemicals.getByLabel('From stock').selectOption({ label: `${name} (2 in stock)` })
  await chemicals.getByLabel('Quantity').fill('1')
  await chemicals.getByRole('button', { name: 'Add chemical' }).click()
  await expect(chemicals.getByText('Chemical recorded.')).toBeVisible()

  // "My truck" shows what is left, read-only.
  await gotoHydrated(page, '/app/truck')
  await expect(page.getByRole('heading', { name: 'Truck — Tyler Brooks' })).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: name })).toContainText('1 gal')
  await page.context().clearCookies()

  // The owner sees the three movements, newest first, and the truck's 1 gal.
  await loginAs(page, 'owner@bluelagoon.test', { open: itemUrl })
  const history = page.getByRole('list', { name: 'Stock changes, newest first' })
  const rows = history.getByRole('listitem')
  await expect(rows).toHaveCount(4)
  await expect(rows.nth(0)).toContainText('Used on a visit · Truck — Tyler Brooks')
  await expect(rows.nth(0)).toContainText('-1 gal')
  // The visit's page leads back to this item ("Back to item").
  await expect(rows.nth(0).getByRole('link', { name: 'Visit' })).toHaveAttribute(
    'href',
    `/app/visits/${visitId}?${new URLSearchParams({ from: new URL(itemUrl, 'http://x').pathname })}`,
  )
  await expect(rows.nth(1)).toContainText('Transferred in · Truck — Tyler Brooks')
  await expect(rows.nth(1)).toContainText('+2 gal')
  await expect(rows.nth(2)).toContainText('Transferred out · Warehouse')
  await expect(rows.nth(2)).toContainText('-2 gal')
  await expect(rows.nth(3)).toContainText('Starting stock · Warehouse')

  // A phone's width: no sideways scrolling, and axe finds nothing serious.
  await page.setViewportSize(PHONE)
  await page.reload()
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect.soft(width, 'no sideways scrolling').toBeLessThanOrEqual(PHONE.width)
  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)
  expect.soft(serious, 'serious or critical axe violations').toEqual([])
})
