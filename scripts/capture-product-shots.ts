// Captures the marketing site's product screenshots from the real app: the production server on a fresh embedded
// database with the demo data, driven by the system Chromium. Writes assets/marketing/*.png; then run
// `npm run marketing:images` to turn them into the responsive AVIF/WebP/JPEG files the pages use.
//   npx tsx scripts/capture-product-shots.ts
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { buildIfNeeded, startServer } from './lib/app-server'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './lib/chromium'
import { freePort } from './lib/free-port'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUT = path.join(root, 'assets/marketing')
const PASSWORD = 'pooldemo123'

async function main() {
  buildIfNeeded(root, 'shots')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-shots-'))
  const server = await startServer(root, {
    port: String(await freePort()),
    dataDir: path.join(runDir, 'data'),
    logPath: path.join(runDir, 'server.log'),
    env: { SEED_DEMO: '1' },
  })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
  try {
    const shoot = async (
      email: string,
      name: string,
      viewport: { width: number; height: number },
      go: (page: import('@playwright/test').Page) => Promise<void>,
    ) => {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 2, baseURL: server.origin })
      const page = await context.newPage()
      await page.goto('/login')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
      await page.getByRole('button', { name: 'Log in' }).click()
      await page.waitForURL((url) => url.pathname !== '/login')
      await go(page)
      await page.waitForLoadState('networkidle')
      await page.screenshot({ path: path.join(OUT, `${name}.png`) })
      console.log(`[shots] ${name}.png`)
      await context.close()
    }
    fs.mkdirSync(OUT, { recursive: true })
    await shoot('dispatch@bluelagoon.test', 'dispatch', { width: 1280, height: 800 }, async () => {})
    await shoot('tech@bluelagoon.test', 'technician', { width: 390, height: 844 }, async (page) => {
      // The technician's next open visit: a reading saved, then the status and dosing advice it gets.
      await page.locator('a[href^="/app/visits/"]').first().click()
      await page.getByLabel('pH', { exact: true }).fill('7.9')
      await page.getByLabel('Chlorine (ppm)', { exact: true }).fill('0.5')
      await page.getByLabel('Alkalinity', { exact: true }).fill('70')
      await page.getByRole('button', { name: 'Save Reading' }).click()
      await page.getByText('Readings saved.').waitFor()
      await page.getByRole('heading', { name: 'Dosing advice' }).evaluate((heading) => {
        heading.scrollIntoView({ block: 'start' })
        window.scrollBy(0, -24)
      })
    })
    await shoot('customer@bluelagoon.test', 'portal', { width: 1280, height: 800 }, async () => {})
    await shoot('dispatch@bluelagoon.test', 'route-day', { width: 1280, height: 800 }, async (page) => {
      // Today's route of the busiest technician: the numbered stops with their ETAs beside the map.
      await page.goto('/app/schedule')
      const today = page.locator('tr', { hasText: 'Maya Flores' }).locator('td', { hasText: '· Today' })
      await today.locator('a[href^="/app/schedule/"]:not([href*="/balance/"])').first().click()
      await page.getByRole('button', { name: 'Optimize route' }).waitFor()
      await page.getByRole('heading', { name: 'Stops' }).evaluate((heading) => {
        heading.scrollIntoView({ block: 'start' })
        window.scrollBy(0, -48)
      })
    })
    await shoot('tech@bluelagoon.test', 'phone-today', { width: 390, height: 844 }, async (page) => {
      // The technician's home screen: Today / This week, the day's clock, and the next stop once the day's stops are
      // kept on the phone for when the signal goes.
      await page.getByText(/saved on this phone for offline use/).waitFor({ timeout: 30_000 })
    })
    await shoot('owner@bluelagoon.test', 'billing', { width: 1280, height: 1000 }, async (page) => {
      // The month's invoices: last month's drafts created (a fresh database: nothing is sent), then the page from the top: the QuickBooks
      // exports, the month and the first of its invoices.
      await page.goto('/app/billing')
      await page.getByRole('button', { name: 'Create invoices' }).click()
      await page.getByRole('button', { name: /^Create \d+ invoices?$/ }).click()
      await page.getByRole('link', { name: 'Send invoices' }).waitFor()
      // No hover left on the row the click landed on.
      await page.mouse.move(0, 0)
    })
  } finally {
    await browser.close()
    await server.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
