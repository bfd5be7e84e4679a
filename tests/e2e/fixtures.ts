// The `test` every spec uses: each test comes from its own client address (the server trusts
// X-Forwarded-For in the e2e run), so the per-IP sign-in rate limit never couples tests together.
import { test as base, expect, type Page } from '@playwright/test'

export { expect }

export const DEMO_PASSWORD = 'pooldemo123'

let testsInThisWorker = 0

/** A client address no other test of this run uses (only a header value: nothing is sent there). */
function uniqueClientIp(workerIndex: number) {
  testsInThisWorker++
  return `10.${(workerIndex % 250) + 1}.${Math.floor(testsInThisWorker / 250) % 250}.${(testsInThisWorker % 250) + 1}`
}

/** Resolves once React has hydrated the page, so buttons with client-side behaviour respond. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const element = document.querySelector('main') ?? document.body.firstElementChild
    return Boolean(element && Object.keys(element).some((key) => key.startsWith('__reactFiber$')))
  })
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

/** Logs in through /login and waits until the app has sent the user somewhere else. */
export async function loginAs(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login')
  await submitLogin(page, email, password)
  await page.waitForURL((url) => url.pathname !== '/login')
}

/** Opens the user menu of the staff app and logs out. */
export async function logOutFromApp(page: Page) {
  await page.getByRole('banner').locator('summary').click()
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
})
