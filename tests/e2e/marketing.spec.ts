// Issue #7: the public site. Every page renders its header, content and footer on a phone and a desktop, passes
// axe-core, has its own title, description and Open Graph tags, reads without JavaScript, and loads nothing from
// another host; the phone drawer traps focus and closes on Escape and on navigation; the landing page ships
// under 130 KB of gzipped JavaScript.
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import AxeBuilder from '@axe-core/playwright'
import { capture, expect, test, VIEWPORTS } from './fixtures'

const PAGES = [
  { path: '/', heading: 'Run your pool-service company from one screen' },
  { path: '/features', heading: /features/i },
  { path: '/services', heading: /./ },
  { path: '/pricing', heading: /./ },
  { path: '/about', heading: /./ },
] as const

for (const { path: pagePath } of PAGES) {
  test(`${pagePath} has header, content and footer at every size, and no axe violations`, async ({
    page,
  }, testInfo) => {
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport)
      await page.goto(pagePath)
      await expect(page.getByRole('banner')).toBeVisible()
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.getByRole('contentinfo')).toBeVisible()
      // Scroll through so lazy images load, and check every image on the page actually decoded.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          window.scrollTo(0, y)
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        window.scrollTo(0, 0)
      })
      await expect
        .poll(() =>
          page.evaluate(() => [...document.images].filter((img) => !img.complete || img.naturalWidth === 0).length),
        )
        .toBe(0)
      await capture(page, testInfo, `public${pagePath === '/' ? '-landing' : pagePath.replace('/', '-')}`)
      const results = await new AxeBuilder({ page }).analyze()
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([])
    }
    const foreign = requests.filter((url) => !/^(https?:\/\/localhost[:/]|data:|blob:)/.test(url))
    expect(foreign).toEqual([])
  })
}

test('/login has no axe violations', async ({ page }) => {
  await page.goto('/login')
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.map((v) => v.id)).toEqual([])
})

test('every public page has its own title, description and Open Graph tags', async ({ page, request }) => {
  const seen = { titles: new Set<string>(), descriptions: new Set<string>() }
  for (const { path: pagePath } of PAGES) {
    await page.goto(pagePath)
    const title = await page.title()
    const description = await page.locator('meta[name="description"]').getAttribute('content')
    seen.titles.add(title)
    seen.descriptions.add(description ?? '')
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(title)
    expect(await page.locator('meta[property="og:description"]').getAttribute('content')).toBe(description)
    expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toMatch(
      new RegExp(`^http://localhost:\\d+${pagePath === '/' ? '/$' : `${pagePath}$`}`),
    )
    const image = await page.locator('meta[property="og:image"]').getAttribute('content')
    const imageResponse = await request.get(image ?? '')
    expect(imageResponse.headers()['content-type']).toBe('image/png')
    expect(imageResponse.headers()['cache-control']).toContain('immutable')
  }
  expect(seen.titles.size).toBe(PAGES.length)
  expect(seen.descriptions.size).toBe(PAGES.length)

  const sitemap = await (await request.get('/sitemap.xml')).text()
  for (const { path: pagePath } of PAGES) expect(sitemap).toContain(`${pagePath}</loc>`)
  expect(sitemap).not.toContain('/app')
  const robots = await (await request.get('/robots.txt')).text()
  expect(robots).toMatch(/^Sitemap: http:\/\/localhost:\d+\/sitemap\.xml$/m)
  expect(robots).toContain('Disallow: /app')
})

test('the phone drawer traps focus, closes on Escape and on navigation', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 })
  await page.goto('/')
  const toggle = page.getByRole('button', { name: 'Menu' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(async () => {
    await toggle.click()
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible({ timeout: 1_000 })
  }).toPass()
  const drawer = page.getByRole('dialog', { name: 'Menu' })
  // Tab and Shift+Tab never leave the drawer.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press(i < 6 ? 'Tab' : 'Shift+Tab')
    expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  }
  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()
  await expect(toggle).toBeFocused()

  await toggle.click()
  await drawer.getByRole('link', { name: 'Pricing' }).click()
  await expect(page).toHaveURL(/\/pricing$/)
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden()
})

test('the landing page reads in full without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: PAGES[0].heading })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Everything a service day needs' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'See it working' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Get started' }).first()).toBeVisible()
  await context.close()
})

test('the landing page ships under 130 KB of gzipped JavaScript', async ({ page }) => {
  const scripts = new Set<string>()
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname)
  })
  await page.goto('/', { waitUntil: 'networkidle' })
  expect(scripts.size).toBeGreaterThan(0)
  let total = 0
  for (const script of scripts) {
    total += gzipSync(fs.readFileSync(path.join('build/client', script))).length
  }
  expect(total).toBeLessThan(130 * 1024)
})
