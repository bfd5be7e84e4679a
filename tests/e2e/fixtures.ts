// The `test` every spec uses: each test comes from its own client address (the server trusts
// X-Forwarded-For in the e2e run), so the per-IP sign-in rate limit never couples tests together.
import path from 'node:path'
import { test as base, type Cookie, expect, type Page, type TestInfo } from '@playwright/test'

export { expect }

export const DEMO_PASSWORD = 'pooldemo123'

let testsInThisWorker = 0

/** A client address no other test of this run uses (only a header value: nothing is sent there). */
function uniqueClientIp(workerIndex: number) {
  testsInThisWorker++
  return `10.${(workerIndex % 250) + 1}.${Math.floor(testsInThisWorker / 250) % 250}.${(testsInThisWorker % 250) + 1}`
}

/**
 * Resolves once React has hydrated the page, so buttons with client-side behavior respond. It looks every 50 ms:
 * Playwright's default looks at every animation frame, which keeps the page drawing frames while it waits, and on a
 * busy CI machine (four browsers on two cores) those frames were a real share of the run (decision 025).
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(
    () => {
      const element = document.querySelector('main') ?? document.body.firstElementChild
      return Boolean(element && Object.keys(element).some((key) => key.startsWith('__reactFiber$')))
    },
    undefined,
    { polling: 50 },
  )
}

/** Opens `path` and waits for hydration. */
export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path)
  await waitForHydration(page)
  return response
}

/** Fills and submits the login form (on /login, opening it first unless already there). */
export async function submitLogin(page: Page, email: string, password = DEMO_PASSWORD) {
  if (new URL(page.url(), 'http://x').pathname !== '/login') await page.goto('/login')
  await waitForHydration(page)
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
}

/** The session cookies this worker got by signing in, by person and password (docs/decisions/025-ci-time.md). */
const sessions = new Map<string, Cookie[]>()

/**
 * Logs in and opens the page the server sends the user to (or `open`), hydrated. It posts the login form as a browser
 * without JavaScript would (the same action, limits and cookies): the form on the page is what the sign-in specs test,
 * and drawing it before every other test cost CI a page load and a hydration each time (decision 025).
 *
 * A person this worker signed in before gets that session back when the server still takes it: `/login` sends a
 * signed-in browser to the same home a sign-in would (`homePathFor`), and a session that has ended (signed out,
 * password changed, member deactivated) gets the form, so the sign-in happens after all. Checking the password is a
 * deliberately slow scrypt, a quarter of a second of processor time per sign-in, and CI signs in hundreds of times.
 */
export async function loginAs(
  page: Page,
  email: string,
  { password = DEMO_PASSWORD, open }: { password?: string; open?: string } = {},
) {
  const key = `${email}\u0000${password}`
  const kept = sessions.get(key)
  if (kept) {
    await page.context().addCookies(kept)
    const home = await page.request.get('/login', { maxRedirects: 0 })
    const location = home.status() === 302 ? home.headers().location : undefined
    if (location) {
      await gotoHydrated(page, open ?? location)
      return
    }
    sessions.delete(key)
  }
  const post = () =>
    page.request.post('/login', { form: { intent: 'login', redirectTo: '', email, password }, maxRedirects: 0 })
  // A reset before any answer means the server closed the kept-alive connection this was sent on, unread: a browser
  // sends such a request again on a new connection, and so does this (once).
  const response = await post().catch((error: Error) => {
    if (!/ECONNRESET/.test(error.message)) throw error
    return post()
  })
  const location = response.headers().location
  if (response.status() !== 302 || !location) {
    throw new Error(`logging in as ${email} answered ${response.status()} instead of a redirect`)
  }
  const signedIn = await page.context().cookies(response.url())
  sessions.set(
    key,
    signedIn.filter((cookie) => cookie.name.endsWith('.session_token')),
  )
  // `open`: the page the test works on, opened instead of the landing page (one dashboard load fewer).
  await gotoHydrated(page, open ?? location)
}

/** The staff app's user menu button (owners and admins also have the navigation's "More" menu in the banner). */
export function userMenu(page: Page) {
  return page.getByRole('banner').locator('summary:visible').filter({ hasNotText: /^More/ })
}

/** Opens the user menu of the staff app and logs out. */
export async function logOutFromApp(page: Page) {
  await userMenu(page).click()
  await page.getByRole('button', { name: 'Log out' }).click()
}

export const test = base.extend<{ clientIp: string; loginAs: typeof loginAs }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures must destructure their first argument
  clientIp: async ({}, use, testInfo) => {
    await use(uniqueClientIp(testInfo.workerIndex))
  },
  extraHTTPHeaders: async ({ extraHTTPHeaders, clientIp }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': clientIp })
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures must destructure their first argument
  loginAs: async ({}, use) => {
    await use(loginAs)
  },
  // Every page any test opens keeps to the production CSP: a blocked script, style or image would
  // be a feature silently broken in real browsers.
  page: async ({ page }, use) => {
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`)
    })
    await use(page)
    expect(violations, 'Content Security Policy violations').toEqual([])
  },
})

/** The phone and desktop sizes every screen is checked at. */
export const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
]

/** A full-page screenshot for human review: test-results/<project>/screenshots/<name>-<w>x<h>.png. */
export async function capture(page: Page, testInfo: TestInfo, name: string) {
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 }
  // Every reviewed screen also fits its width: nothing pushes the page into a sideways scroll.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, `${name} is ${overflow}px wider than the ${width}px screen`).toBeLessThanOrEqual(0)
  // The picture itself is for people; CI, which nobody looks at, skips the costly full-page PNG.
  if (process.env.CI && !process.env.E2E_SCREENSHOTS) return
  const file = path.join(testInfo.project.outputDir, 'screenshots', `${name}-${width}x${height}.png`)
  await page.screenshot({ path: file, fullPage: true })
  await testInfo.attach(`${name}-${width}x${height}`, { path: file, contentType: 'image/png' })
}
