// Full-page screenshots for human review (not compared): test-results/screenshots/<page>-<width>x<height>.png.
// Runs in the 'seeded-state' project, before welcome.spec.ts completes newtech's setup.
import path from 'node:path'
import type { Page, TestInfo } from '@playwright/test'
import { expect, loginAs, test } from './fixtures'

const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
]

async function capture(page: Page, testInfo: TestInfo, name: string) {
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 }
  const file = path.join(testInfo.project.outputDir, 'screenshots', `${name}-${width}x${height}.png`)
  await page.screenshot({ path: file, fullPage: true })
  await testInfo.attach(`${name}-${width}x${height}`, { path: file, contentType: 'image/png' })
}

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
  })
}
