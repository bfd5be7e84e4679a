// Inventory and settings in Chromium (issue #5), plus screenshots of inventory, settings and the
// account page for review (test-results/<project>/screenshots/<page>-<width>x<height>.png).
// Runs after 'seeded-state'. It adds its own uniquely named item to Sunset Pool Care and 3 jugs to
// Sunset's acid, and restores every setting it changes; Blue Lagoon is only read.
import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { capture, expect, gotoHydrated, loginAs, test, VIEWPORTS } from './fixtures'

/** Settings from the app's navigation: an owner's desktop navigation folds it under "More". */
async function openSettings(page: Page) {
  const nav = page.getByRole('navigation', { name: 'App' })
  const link = nav.getByRole('link', { name: 'Settings', exact: true })
  await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible()
  if (!(await link.isVisible())) await nav.locator('summary', { hasText: 'More' }).click()
  await link.click()
}

const BLUE_LAGOON_CHLORINE = [
  'Liquid Chlorine 12.5% (1 gal)',
  'Liquid Chlorine 12.5% (4 × 1 gal case)',
  'Chlorine Tablets 3" (25 lb)',
  'Chlorine Tablets 1" (5 lb)',
]

/** The inventory card of the item named `name`. */
function card(page: Page, name: string) {
  return page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) })
}

test.describe('inventory', () => {
  test("searches 'chlorine' on load, and the Search button works without JavaScript", async ({
    page,
    browser,
    extraHTTPHeaders,
  }) => {
    await loginAs(page, 'dispatch@bluelagoon.test')
    await page.getByRole('link', { name: 'Inventory' }).click()
    await expect(page).toHaveURL((url) => url.pathname === '/app/inventory')
    await expect(page.getByLabel('Search inventory')).toHaveValue('chlorine')
    await expect(page.getByText('4 items matching “chlorine”')).toBeVisible()
    const names = await page.getByRole('listitem').getByRole('heading', { level: 3 }).allTextContents()
    expect(names.sort()).toEqual([...BLUE_LAGOON_CHLORINE].sort())
    // Prices in dollars, quantities, and the low-stock badge at 5 or fewer.
    const caseOfFour = card(page, 'Liquid Chlorine 12.5% (4 × 1 gal case)')
    await expect(caseOfFour).toContainText('$24.99')
    await expect(caseOfFour).toContainText('In stock4')
    await expect(caseOfFour.getByText('Low stock')).toBeVisible()
    await expect(card(page, 'Chlorine Tablets 3" (25 lb)').getByText('Low stock')).toHaveCount(0)
    // A dispatcher searches but does not manage.
    await expect(page.getByRole('heading', { name: 'Add an item' })).toHaveCount(0)
    await expect(page.getByRole('link', { name: /^Edit/ })).toHaveCount(0)

    // Without JavaScript the search form is a plain GET form.
    const cookies = await page.context().cookies()
    const noJs = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders })
    await noJs.addCookies(cookies)
    const plain = await noJs.newPage()
    await plain.goto('/app/inventory')
    await plain.getByLabel('Search inventory').fill('salt')
    await plain.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(plain).toHaveURL((url) => url.searchParams.get('q') === 'salt')
    await expect(plain.getByRole('heading', { level: 3 })).toHaveText(['Pool Salt (40 lb)'])
    await noJs.close()
  })

  test('an owner adds an item, sets its price to $12.34, and sees it after a reload', async ({ page }) => {
    const suffix = randomBytes(3).toString('hex')
    const name = `E2E Test Kit ${suffix}`
    const sku = `E2E-${suffix.toUpperCase()}`

    await loginAs(page, 'owner@sunsetpools.test', { open: `/app/inventory?q=${encodeURIComponent(name)}` })
    await expect(page.getByText('No inventory items match that search.')).toBeVisible()
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('SKU', { exact: true }).fill(sku)
    await page.getByLabel('Price ($)', { exact: true }).fill('1')
    await page.getByLabel('Quantity', { exact: true }).fill('6')
    await page.getByRole('button', { name: 'Add item' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Item saved.' })).toBeVisible()
    await expect(card(page, name)).toContainText('$1.00')
    await expect(card(page, name).getByText('Low stock')).toHaveCount(0)

    await card(page, name)
      .getByRole('link', { name: `Edit ${name}` })
      .click()
    await expect(page.getByRole('heading', { name: `Edit ${name}` })).toBeVisible()
    await expect(page.getByLabel('Price ($)', { exact: true })).toHaveValue('1.00')
    await page.getByLabel('Price ($)', { exact: true }).fill('12.34')
    await page.getByLabel('Quantity', { exact: true }).fill('5')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Item saved.' })).toBeVisible()

    await page.reload()
    await expect(page.getByLabel('Price ($)', { exact: true })).toHaveValue('12.34')
    await expect(card(page, name)).toContainText('$12.34')
    await expect(card(page, name)).toContainText('In stock5')
    await expect(card(page, name).getByText('Low stock')).toBeVisible()
  })

  test('without JavaScript a stock adjustment still says what happened', async ({
    page,
    browser,
    extraHTTPHeaders,
  }) => {
    await loginAs(page, 'owner@sunsetpools.test')
    const noJs = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders })
    await noJs.addCookies(await page.context().cookies())
    const plain = await noJs.newPage()
    const acid = 'Muriatic Acid 31.45% (1 gal)'
    await plain.goto(`/app/inventory?q=${encodeURIComponent('muriatic')}`)
    const before = Number((await card(plain, acid).getByRole('definition').nth(1).textContent())?.trim())

    await card(plain, acid).getByLabel('Change (e.g. +12 or -2)').fill('+3')
    await card(plain, acid).getByLabel('Reason').fill('delivery')
    await card(plain, acid)
      .getByRole('button', { name: `Update stock of ${acid}` })
      .click()
    await expect(card(plain, acid).getByText('Stock updated.')).toBeVisible()
    await expect(card(plain, acid)).toContainText(`In stock${before + 3}`)

    await card(plain, acid).getByLabel('Change (e.g. +12 or -2)').fill('-1000')
    await card(plain, acid).getByLabel('Reason').fill('mistake')
    await card(plain, acid)
      .getByRole('button', { name: `Update stock of ${acid}` })
      .click()
    await expect(card(plain, acid).getByText(/Stock can't go below 0/)).toBeVisible()
    await expect(card(plain, acid)).toContainText(`In stock${before + 3}`)
    await noJs.close()
  })
})

test.describe('settings', () => {
  test('settings saved by the owner survive a reload', async ({ page }) => {
    const portalUrl = `https://portal-${randomBytes(3).toString('hex')}.sunsetpools.test`
    await loginAs(page, 'owner@sunsetpools.test')
    await openSettings(page)
    await expect(page).toHaveURL((url) => url.pathname === '/app/settings')
    await expect(page.getByLabel('Company name', { exact: true })).toHaveValue('Sunset Pool Care')
    const portal = page.getByLabel('Customer portal URL', { exact: true })
    const originalPortal = await portal.inputValue()
    const originalWindow = await page.getByRole('radio', { checked: true }).getAttribute('value')
    const otherWindow = originalWindow === 'afternoon' ? 'Morning 8-12' : 'Afternoon 12-4'

    const saveWith = async (url: string, windowLabel: string) => {
      await gotoHydrated(page, '/app/settings')
      await page.getByLabel('Customer portal URL', { exact: true }).fill(url)
      await page.getByLabel(windowLabel, { exact: true }).check()
      await page.getByRole('button', { name: 'Save settings' }).click()
      await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible()
    }

    try {
      await saveWith(portalUrl, otherWindow)
      await page.reload()
      await expect(page.getByLabel('Customer portal URL', { exact: true })).toHaveValue(portalUrl)
      await expect(page.getByLabel(otherWindow, { exact: true })).toBeChecked()
      // The owner may edit the card-provider key.
      await expect(page.getByLabel('Card-provider publishable key', { exact: true })).toBeEditable()
    } finally {
      const originalLabel = { morning: 'Morning 8-12', afternoon: 'Afternoon 12-4', flexible: 'Flexible' }[
        originalWindow ?? 'flexible'
      ]
      await saveWith(originalPortal, originalLabel ?? 'Flexible')
    }
  })

  test('an admin cannot change the card-provider key, not even by a forged post', async ({ page }) => {
    await loginAs(page, 'office@bluelagoon.test', { open: '/app/settings' })
    const key = page.getByLabel('Card-provider publishable key', { exact: true })
    await expect(key).toBeDisabled()
    await expect(page.getByText('Only the owner can change card-provider settings.')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Save settings' })).toBeVisible()
    await expect(page.getByLabel('Company name', { exact: true })).toBeEditable()

    // The same post as the form's, but with a card key: refused as a capability the admin lacks (the 403 card), and
    // nothing changes.
    const fields = {
      name: await page.getByLabel('Company name', { exact: true }).inputValue(),
      timezone: await page.locator('[name="timezone"]').inputValue(),
      defaultServiceWindow: (await page.getByRole('radio', { checked: true }).getAttribute('value')) ?? '',
      customerPortalUrl: await page.getByLabel('Customer portal URL', { exact: true }).inputValue(),
      cardPublishableKey: `pk_live_admin${randomBytes(3).toString('hex')}`,
    }
    const storedKey = await key.inputValue()
    const response = await page.request.post('/app/settings', { form: fields })
    expect(response.status()).toBe(403)
    await page.reload()
    await expect(page.getByLabel('Card-provider publishable key', { exact: true })).toHaveValue(storedKey)
    await expect(page.getByLabel('Company name', { exact: true })).toHaveValue(fields.name)
  })

  test('a dispatcher sees the settings read-only', async ({ page }) => {
    await loginAs(page, 'dispatch@bluelagoon.test')
    await openSettings(page)
    await expect(page.getByText('Only owners and admins can change settings.')).toBeVisible()
    for (const label of ['Company name', 'Card-provider publishable key', 'Customer portal URL']) {
      await expect(page.getByLabel(label, { exact: true })).toBeDisabled()
    }
    await expect(page.getByLabel('Timezone', { exact: true })).toBeDisabled()
    await expect(page.getByRole('radio', { disabled: false })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Save settings' })).toHaveCount(0)
  })
})

for (const viewport of VIEWPORTS) {
  test.describe(`screenshots at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport })

    test('inventory, settings and account (owner)', async ({ page }, testInfo) => {
      await loginAs(page, 'owner@sunsetpools.test', { open: '/app/inventory' })
      await expect(page.getByRole('heading', { level: 1, name: 'Inventory' })).toBeVisible()
      await capture(page, testInfo, 'inventory-owner')
      await gotoHydrated(page, '/app/settings')
      await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
      await capture(page, testInfo, 'settings-owner')
      await gotoHydrated(page, '/app/account')
      await page.getByLabel('Email', { exact: true }).fill('')
      await page.getByRole('button', { name: 'Save changes' }).click()
      await expect(page.getByText('Email is required.')).toBeVisible()
      await capture(page, testInfo, 'account-owner-error')
    })

    test('inventory and settings (dispatcher, read-only)', async ({ page }, testInfo) => {
      await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/inventory' })
      await capture(page, testInfo, 'inventory-dispatcher')
      await gotoHydrated(page, '/app/settings')
      await capture(page, testInfo, 'settings-dispatcher')
    })
  })
}
