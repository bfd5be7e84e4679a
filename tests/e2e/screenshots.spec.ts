// Full-page screenshots for human review (not compared): test-results/screenshots/<page>-<width>x<height>.png.
// Runs in the 'seeded-state' project, before welcome.spec.ts completes newtech's setup.
import { capture, expect, loginAs, test, VIEWPORTS, waitForHydration } from './fixtures'

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport })

    test('login page', async ({ page }, testInfo) => {
      await page.goto('/login')
      await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible()
      await capture(page, testInfo, 'login')
    })

    test('welcome page (newtech)', async ({ page }, testInfo) => {
      await loginAs(page, 'newtech@bluelagoon.test')
      await expect(page).toHaveURL((url) => url.pathname === '/welcome')
      await expect(page.getByRole('button', { name: 'Complete setup' })).toBeVisible()
      await capture(page, testInfo, 'welcome')
    })

    test('dashboard (dispatcher)', async ({ page }, testInfo) => {
      await loginAs(page, 'dispatch@bluelagoon.test')
      await expect(page.getByRole('heading', { level: 1, name: 'Dispatch' })).toBeVisible()
      await capture(page, testInfo, 'app-dispatcher')
    })

    test('dashboard (owner) and team page', async ({ page }, testInfo) => {
      await loginAs(page, 'owner@bluelagoon.test')
      await expect(page.getByRole('heading', { level: 1, name: 'Business overview' })).toBeVisible()
      // Every app link is on screen (the owner has the most): none hidden behind a sideways scroll. On a phone they
      // are behind the header's Menu button.
      await capture(page, testInfo, 'app-owner')
      if (viewport.width < 1024) {
        await waitForHydration(page)
        await page.getByRole('banner').getByText('Menu').click()
      }
      const nav = page.getByRole('navigation', { name: 'App' })
      // On a desktop the owner's less-used links (Inventory, Team, Settings) fold into "More", so the row fits.
      if (viewport.width >= 1024) {
        await waitForHydration(page)
        await nav.locator('summary', { hasText: 'More' }).click()
      }
      for (const label of ['Dashboard', 'Dispatch', 'Customers', 'Inventory', 'Team', 'Settings']) {
        const box = await nav.getByRole('link', { name: label, exact: true }).boundingBox()
        expect(box && box.x >= 0 && box.x + box.width <= viewport.width, `${label} link on screen`).toBe(true)
      }
      await page.goto('/app/team')
      await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible()
      await capture(page, testInfo, 'app-team')
    })

    test('staff company setup (platform admin)', async ({ page }, testInfo) => {
      await loginAs(page, 'admin@poolbud.test', { open: '/staff/setup' })
      await expect(page.getByRole('heading', { level: 1, name: 'Company & Owner Setup' })).toBeVisible()
      await capture(page, testInfo, 'staff-setup')
    })

    test('dashboard (admin)', async ({ page }, testInfo) => {
      await loginAs(page, 'office@bluelagoon.test')
      await expect(page.getByRole('heading', { level: 1, name: 'Operations' })).toBeVisible()
      await capture(page, testInfo, 'app-admin')
    })
  })
}
