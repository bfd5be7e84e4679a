// The signed-in frame (issue #12 item 9): the menus close as menus do, and a phone's header is one row.
import { expect, loginAs, test } from './fixtures'

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 } })

  test('the header is one row at most 64 px tall, and the menu opens the nav and the account links', async ({
    page,
  }) => {
    await loginAs(page, 'owner@bluelagoon.test', { open: '/app' })
    const header = page.getByRole('banner')
    const box = await header.boundingBox()
    expect(box?.height).toBeLessThanOrEqual(64)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)

    await header.getByText('Menu').click()
    await expect(page.getByRole('link', { name: 'Customers' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'My Account' })).toBeVisible()
    await page.getByRole('link', { name: 'Customers' }).click()
    await expect(page).toHaveURL((url) => url.pathname === '/app/customers')
    // Following a link closed the menu.
    await expect(page.getByRole('link', { name: 'My Account' })).toBeHidden()
  })
})

test('the user menu closes on a click outside it and on Escape, which returns focus to it', async ({ page }) => {
  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app' })
  const summary = page.getByRole('banner').locator('summary:visible')
  const myAccount = page.getByRole('link', { name: 'My Account' })

  await summary.click()
  await expect(myAccount).toBeVisible()
  await page.getByRole('heading', { level: 1 }).click()
  await expect(myAccount).toBeHidden()

  await summary.click()
  await expect(myAccount).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(myAccount).toBeHidden()
  await expect(summary).toBeFocused()
})
