// Issue #7: the public site. Every page renders its header, content and footer on a phone and a desktop, passes
// axe-core, has its own title, description and Open Graph tags, reads without JavaScript, and loads nothing from
// another host; the phone drawer traps focus and closes on Escape and on navigation; the landing page ships
// under 130 KB of gzipped JavaScript. Issue 38 item 9: landing and features tell what the product does today.
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { capture, expect, gotoHydrated, test, VIEWPORTS } from './fixtures'

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
      await loadEveryImage(page)
      await capture(page, testInfo, `public${pagePath === '/' ? '-landing' : pagePath.replace('/', '-')}`)
      const results = await new AxeBuilder({ page }).analyze()
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([])
    }
    const foreign = requests.filter((url) => !/^(https?:\/\/localhost[:/]|data:|blob:)/.test(url))
    expect(foreign).toEqual([])
  })
}

// Issue 38 item 9: the pages tell what the product does today — routes, the offline phone, notices, billing and
// QuickBooks — with real screens of the demo company, at a phone's and a desktop's width.
const TODAY_WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]
const LANDING_CARDS = [
  'Recurring service plans',
  'Optimized routes with ETAs',
  'A phone app that works offline',
  'Notices and a customer portal',
  'Billing, card payments and QuickBooks',
  'Timesheets and payroll',
]
const LANDING_SCREENS = [
  /route for the day: numbered stops .*“Optimize route”/,
  /technician’s phone: Today’s route/,
  /Billing for/,
]
const FEATURE_GROUPS = [
  'Service plans and the week board',
  'Routes',
  'The technician’s phone',
  'At the pool',
  'Customers and notices',
  'Billing and payments',
  'Team, time and payroll',
  'Inventory and your own tools',
]
const FEATURE_POINTS = [
  /“Optimize route” orders the stops for the least driving/,
  /“Balance the day” moves visits between technicians/,
  /“Suggest a day and technician”/,
  /Works offline: today’s stops are kept on the phone/,
  /“On my way” tells the customer by text or email/,
  /Customer notices by email and text \(Twilio\)/,
  /Card payments and autopay through Stripe/,
  /Exports for QuickBooks \(IIF and QuickBooks Online CSV\)/,
  /approved and signed by the customer in the portal/,
  /A payroll CSV of approved weeks/,
  /A REST API with API keys and signed webhooks/,
]

/** Scrolls through the page so lazy images load, and waits until every image on it has decoded. */
async function loadEveryImage(page: Page) {
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
}

test('the landing page shows routes, the offline phone, notices and billing, with real screens', async ({
  page,
}, testInfo) => {
  const imageBytes = new Map<string, number>()
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'image') return
    imageBytes.set(response.url(), (await response.body().catch(() => Buffer.alloc(0))).length)
  })
  for (const viewport of TODAY_WIDTHS) {
    await page.setViewportSize(viewport)
    await page.goto('/')
    const main = page.getByRole('main')
    await expect(main.getByText(/optimize every technician’s route/)).toBeVisible()
    for (const card of LANDING_CARDS) await expect(main.getByRole('heading', { level: 3, name: card })).toBeVisible()
    const gallery = main.getByRole('region', { name: 'See it working' })
    for (const alt of LANDING_SCREENS) await expect(gallery.getByRole('img', { name: alt })).toBeVisible()
    await loadEveryImage(page)
    // The screen is drawn at the width it is shown: never a tiny thumbnail stretched, never the 2× desktop file on a phone.
    const routeDay = gallery.getByRole('img', { name: LANDING_SCREENS[0] })
    const [shown, natural] = await routeDay.evaluate((img: HTMLImageElement) => [img.clientWidth, img.naturalWidth])
    expect(natural).toBeGreaterThanOrEqual(Math.min(shown, 480))
    await expect(main).not.toContainText(/stabiliser|optimis|colour|Today’s route and recent activity/i)
    await capture(page, testInfo, 'public-landing-today')
    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([])
  }
  // Sensible image weight: the whole landing page's images, at both widths together, stay well under half a megabyte.
  const total = [...imageBytes.values()].reduce((sum, bytes) => sum + bytes, 0)
  expect(total).toBeGreaterThan(0)
  expect(total).toBeLessThan(500 * 1024)
})

test('the features page lists what the product does today, in US English, with its screens', async ({
  page,
}, testInfo) => {
  for (const viewport of TODAY_WIDTHS) {
    await page.setViewportSize(viewport)
    await page.goto('/features')
    const main = page.getByRole('main')
    for (const group of FEATURE_GROUPS) {
      await expect(main.getByRole('region', { name: group, exact: true })).toBeVisible()
    }
    for (const point of FEATURE_POINTS)
      await expect(main.getByRole('listitem').filter({ hasText: point })).toBeVisible()
    await expect(main.getByText(/optional stabilizer, hardness, salt/)).toBeVisible()
    await expect(main).not.toContainText(/stabiliser|optimis|colour|Today’s route and recent activity/i)
    const screens = main.getByRole('region', { name: 'More screens' })
    await expect(screens.getByRole('img', { name: /dispatcher’s dashboard/ })).toBeVisible()
    await expect(screens.getByRole('img', { name: /technician’s visit on a phone/ })).toBeVisible()
    await expect(screens.getByRole('img', { name: /customer portal/ })).toBeVisible()
    await loadEveryImage(page)
    await capture(page, testInfo, 'public-features-today')
    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([])
  }
})

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

// A wide table's box is a tab stop while it scrolls sideways (a keyboard must reach it to scroll it), and not when the
// table fits: the API reference's field tables, at a desktop's width and a phone's.
test('a table box takes a tab stop only while it scrolls sideways', async ({ page }) => {
  const regions = page.getByRole('region', { name: /^Fields of / })
  for (const viewport of [VIEWPORTS.at(-1), VIEWPORTS[0]]) {
    if (!viewport) throw new Error('no viewports')
    await page.setViewportSize(viewport)
    await gotoHydrated(page, '/developers')
    expect(await regions.count()).toBeGreaterThan(0)
    const wrong = () =>
      regions.evaluateAll((boxes) =>
        boxes
          .filter((box) => (box.getAttribute('tabindex') === '0') !== box.scrollWidth > box.clientWidth)
          .map((box) => `${box.getAttribute('aria-label')} (${box.clientWidth} of ${box.scrollWidth} px)`),
      )
    await expect.poll(wrong, `${viewport.width} px: a tab stop exactly where the box scrolls`).toEqual([])
  }
  // At a desktop's width every field table fits, so none is a tab stop.
  await page.setViewportSize(VIEWPORTS.at(-1) ?? { width: 1280, height: 800 })
  await expect.poll(() => regions.evaluateAll((boxes) => boxes.filter((box) => box.tabIndex === 0).length)).toBe(0)
})
