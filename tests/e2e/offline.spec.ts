// The installable staff app that works offline (issue #19, docs/product.md "The visit", decision 019): installable in
// Chromium; after one online load of Today the technician's day opens with no connection (the page reloaded, a stop's
// visit page); the header says "Offline"; and logging out with changes still on the phone warns first, then leaves
// nothing of this person on it. A shared phone (decision 030): a session that ends without "Log out" leaves nothing
// of that person for the next one to see or send, and their changes wait for them.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from '../../scripts/lib/chromium'
import { capture, expect, gotoHydrated, loginAs, test, waitForHydration } from './fixtures'
import { bookVisitToday } from './visits'

// Offline, the phone leans on the staff app's service worker: allowed here (the config blocks it, decision 025).
test.use({ serviceWorkers: 'allow' })

const DANA = 'Dana Whitfield'

/** Once the service worker controls the page (the first visit installs it, then it takes the page over). */
async function waitForWorker(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    polling: 100,
    timeout: 30_000,
  })
}

/** Who the server says is signed in on this phone: the owner cookie beside the session (decision 030). */
async function signedInUserId(page: Page) {
  const cookie = (await page.context().cookies()).find((each) => each.name === 'pool-bud-user')
  expect(cookie?.value, 'the owner cookie').toBeTruthy()
  return cookie?.value ?? ''
}

/** What the phone's queue holds (IndexedDB), whoever made it: each item's owner and note text. */
function queuedOnPhone(page: Page) {
  return page.evaluate(
    () =>
      new Promise<Array<{ ownerId?: string; text?: string }>>((resolve, reject) => {
        const open = indexedDB.open('pool-bud-field')
        open.onsuccess = () => {
          const all = open.result.transaction('items').objectStore('items').getAll()
          all.onsuccess = () => resolve(all.result.map((item) => ({ ownerId: item.ownerId, text: item.change?.text })))
        }
        open.onerror = () => reject(open.error)
      }),
  )
}

/**
 * Puts notes for the office on the phone's queue as the visit page would (app/field/queue.ts, the shape of
 * its IndexedDB items, made by the person signed in) and tells the page, which shows them; `held` keeps them
 * unsent, as "Undo" holds a change.
 */
async function queueNotes(page: Page, visitId: string, notes: string[], held: boolean) {
  const ownerId = await signedInUserId(page)
  await page.evaluate(
    async ({ visitId, notes, held, ownerId }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('pool-bud-field')
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
      })
      const tx = db.transaction('items', 'readwrite')
      notes.forEach((note, index) => {
        tx.objectStore('items').put({
          key: crypto.randomUUID(),
          visitId,
          ownerId,
          seq: Date.now() * 1000 + index,
          createdAt: new Date().toISOString(),
          state: 'waiting',
          ...(held ? { heldUntil: Date.now() + 60 * 60_000 } : {}),
          attempts: 0,
          kind: 'change',
          madeAt: new Date().toISOString(),
          change: { type: 'note', audience: 'office', text: note },
        })
      })
      await new Promise((resolve) => {
        tx.oncomplete = resolve
      })
      db.close()
      new BroadcastChannel('pool-bud-field').postMessage('changed')
    },
    { visitId, notes, held, ownerId },
  )
}

/** The caches the worker keeps pages, data and photos in (app/field/offline-cache.ts OFFLINE_CACHES). */
/**
 * The worker's caches that hold something. (An empty one may reappear after sign-out: a request still on its way
 * looks into its cache while it waits for the network, which creates it; what matters is that nothing is in it.)
 */
function savedCaches(page: Page) {
  return page.evaluate(async () => {
    const names = (await caches.keys()).filter((name) => name.startsWith('pool-bud-'))
    const holding = await Promise.all(
      names.map(async (name) => ((await (await caches.open(name)).keys()).length > 0 ? name : null)),
    )
    return holding.filter((name) => name !== null)
  })
}

test('the staff app is installable: manifest, icons and a worker that controls /app', async ({
  page,
  baseURL,
  clientIp,
}) => {
  const manifest = await page.request.get('/manifest.webmanifest')
  expect(manifest.status()).toBe(200)
  expect(manifest.headers()['content-type']).toContain('application/manifest+json')
  const body = await manifest.json()
  expect(body).toMatchObject({ name: 'Pool Bud', start_url: '/app', scope: '/', display: 'standalone' })
  for (const icon of body.icons as Array<{ src: string; sizes: string }>) {
    const response = await page.request.get(icon.src)
    expect(response.headers()['content-type'], icon.src).toBe('image/png')
  }
  expect(body.icons.map((icon: { purpose: string }) => icon.purpose)).toContain('maskable')
  // Phones ask for the worker again every time, so a new version reaches them at once.
  const worker = await page.request.get('/sw.js')
  expect(worker.status()).toBe(200)
  expect(worker.headers()['cache-control']).toBe('no-cache')

  // Chromium never offers to install from a throwaway (incognito) profile, which is what a test's context is: a
  // profile on disk, as a phone's browser has.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-install-'))
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: TEST_CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': clientIp },
  })
  try {
    const phone = browser.pages()[0] ?? (await browser.newPage())
    await loginAs(phone, 'tech@bluelagoon.test')
    await expect(phone).toHaveURL(/\/app$/)
    await waitForWorker(phone)
    // What Chromium's install prompt checks (Lighthouse 12 no longer has PWA audits; decision 019).
    const cdp = await browser.newCDPSession(phone)
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
    expect(installabilityErrors).toEqual([])
    const { errors, url } = await cdp.send('Page.getAppManifest')
    expect(errors).toEqual([])
    expect(url).toMatch(/\/manifest\.webmanifest$/)
  } finally {
    await browser.close()
    fs.rmSync(profile, { recursive: true, force: true })
  }
})

test("Tyler's day opens offline after one online load of Today", async ({ page, context, loginAs }) => {
  const { visitId } = await bookVisitToday(page, loginAs)
  await page.setViewportSize({ width: 390, height: 844 })
  await loginAs(page, 'tech@bluelagoon.test')
  await waitForHydration(page)
  await waitForWorker(page)
  // Today saved itself and its stops on the phone.
  await expect(page.getByText(/\d+ stops? saved on this phone for offline use\./)).toBeVisible({ timeout: 60_000 })
  const status = page.getByRole('banner').getByRole('status')
  await expect(status).toHaveText('')

  await context.setOffline(true)
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByRole('heading', { level: 1, name: "Today's route" })).toBeVisible()
  await expect(status.getByText('Offline', { exact: true })).toBeVisible()
  await capture(page, test.info(), 'offline-today')
  await page.setViewportSize({ width: 1280, height: 800 })
  await capture(page, test.info(), 'offline-today')
  await page.setViewportSize({ width: 390, height: 844 })

  // A stop's visit page, tapped on Today (React Router's data request) and opened afresh (the document).
  const finished = page.locator('details', { hasText: /Finished \(\d+\)/ })
  if (await finished.count()) await finished.locator('summary').click()
  await page.locator(`main a[href^="/app/visits/${visitId}"]`).first().click()
  await expect(page).toHaveURL(new RegExp(`/app/visits/${visitId}$`))
  await expect(page.getByRole('heading', { level: 1, name: DANA })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: DANA })).toBeVisible()
  await expect(status.getByText('Offline', { exact: true })).toBeVisible()

  // A page that was never opened here: the offline page, with its way back to Today.
  await page.goto('/app/account')
  await expect(page.getByText("You're offline and this page is not on this phone yet.")).toBeVisible()
  await capture(page, test.info(), 'offline-page')
  await page.getByRole('link', { name: 'Go to Today' }).click()
  await expect(page.getByRole('heading', { level: 1, name: "Today's route" })).toBeVisible()
  await waitForHydration(page)

  // A change made offline waits on the phone; back online it is sent at once and the header says so.
  await queueNotes(page, visitId, ['Filter basket cracked, bring a new one'], false)
  await expect(status.getByText('1 change waiting')).toBeVisible()
  await context.setOffline(false)
  await expect(status.getByText('Offline', { exact: true })).toBeHidden()
  await expect(status.getByText('All changes saved')).toBeVisible()
  await expect(status.getByText('1 change waiting')).toBeHidden()
})

test('a phone that cannot store changes says so in the header', async ({ page, loginAs }) => {
  // As in a private window with storage blocked: IndexedDB refuses to open.
  await page.addInitScript(() => {
    IDBFactory.prototype.open = () => {
      throw new DOMException('The user denied permission to access the database.', 'UnknownError')
    }
  })
  await page.setViewportSize({ width: 360, height: 740 })
  await loginAs(page, 'tech@bluelagoon.test')
  await waitForHydration(page)
  const status = page.getByRole('banner').getByRole('status')
  await expect(status.getByText('Changes cannot be kept offline on this phone')).toBeVisible()
  await capture(page, test.info(), 'no-storage')
})

test('logging out with changes waiting warns first, then leaves nothing of Tyler on the phone', async ({
  page,
  loginAs,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await loginAs(page, 'tech@bluelagoon.test')
  await waitForHydration(page)
  await waitForWorker(page)
  await expect
    .poll(() => savedCaches(page), { timeout: 60_000 })
    .toEqual(expect.arrayContaining(['pool-bud-pages', 'pool-bud-data']))

  // Two changes on the phone, held so they stay unsent while the test looks.
  await queueNotes(page, crypto.randomUUID(), ['Gate was open', 'Pump is loud'], true)
  const status = page.getByRole('banner').getByRole('status')
  await expect(status.getByText('2 changes waiting')).toBeVisible()
  await capture(page, test.info(), 'changes-waiting')

  const menu = page.getByRole('banner').locator('summary:visible')
  await menu.click()
  await page.getByRole('button', { name: 'Log out' }).click()
  const warning = page.getByText('2 changes on this phone have not been sent yet. Sign out anyway? They will be lost.')
  await expect(warning).toBeVisible()
  await capture(page, test.info(), 'sign-out-warning')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(warning).toBeHidden()
  await expect(page).toHaveURL(/\/app$/)

  await page.getByRole('button', { name: 'Log out' }).click()
  await page.getByRole('button', { name: 'Sign out anyway' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  // Nothing of Tyler's stays: no saved pages or data, no queued changes; and he is signed out.
  expect(await savedCaches(page)).toEqual([])
  const left = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('pool-bud-field')
        open.onsuccess = () => {
          const count = open.result.transaction('items').objectStore('items').count()
          count.onsuccess = () => resolve(count.result)
        }
        open.onerror = () => reject(open.error)
      }),
  )
  expect(left).toBe(0)
  await page.goto('/app')
  await expect(page).toHaveURL(/\/login/)
})

test('a shared phone: a session ended without Log out leaves nothing of Tyler to see or send, and his change waits for him', async ({
  page,
  context,
  loginAs,
}) => {
  test.setTimeout(180_000)
  const { visitId } = await bookVisitToday(page, loginAs)
  const note = `New gate code 4821, dog in the yard (${crypto.randomUUID().slice(0, 8)})`
  const offlinePage = page.getByText("You're offline and this page is not on this phone yet.")
  const status = page.getByRole('banner').getByRole('status')
  /** The visit as the server has it, asked under the session signed in now (never through the worker). */
  const onServer = async () => (await page.request.get(`/app/visits/${visitId}.data`)).text()

  await page.setViewportSize({ width: 390, height: 844 })
  await loginAs(page, 'tech@bluelagoon.test')
  const tyler = await signedInUserId(page)
  await waitForHydration(page)
  await waitForWorker(page)
  await expect(page.getByText(/\d+ stops? saved on this phone for offline use\./)).toBeVisible({ timeout: 60_000 })

  // Offline, Tyler opens the stop (saved ahead) and writes a note for the office: it waits on the phone.
  await context.setOffline(true)
  await page.goto(`/app/visits/${visitId}`)
  await waitForHydration(page)
  await expect(page.getByRole('heading', { level: 1, name: DANA })).toBeVisible()
  await page.getByLabel('Note for office').fill(note)
  await page.getByLabel('Note for customer').focus()
  await expect(status.getByText('1 change waiting')).toBeVisible()
  expect(await queuedOnPhone(page)).toEqual([{ ownerId: tyler, text: note }])

  // His session ends without "Log out" (it expired: the browser drops its cookies). Offline, the phone shows none of
  // his pages: not his Today, not the visit with the gate code.
  await context.clearCookies()
  await page.goto('/app')
  await expect(offlinePage).toBeVisible()
  await expect(page.getByRole('heading', { name: "Today's route" })).toHaveCount(0)
  await page.goto(`/app/visits/${visitId}`)
  await expect(offlinePage).toBeVisible()
  await expect(page.getByRole('heading', { name: DANA })).toHaveCount(0)

  // Dina signs in on the same phone, online. Tyler's change is neither shown to her nor sent under her session.
  await context.setOffline(false)
  await loginAs(page, 'dispatch@bluelagoon.test')
  await waitForHydration(page)
  // The queue sends at once when the app opens: give it the time it would take.
  await page.waitForTimeout(3_000)
  await expect(status).toHaveText('')
  expect(await onServer()).not.toContain(note)
  expect(await queuedOnPhone(page)).toEqual([{ ownerId: tyler, text: note }])
  // Offline as Dina, Tyler's saved visit page is not hers to open.
  await context.setOffline(true)
  await page.goto(`/app/visits/${visitId}`)
  await expect(offlinePage).toBeVisible()
  await expect(page.getByText(note)).toHaveCount(0)
  await context.setOffline(false)

  // Tyler signs in again (Dina's session ended too): his change is his again, and reaches the server once.
  await context.clearCookies()
  await loginAs(page, 'tech@bluelagoon.test')
  await waitForHydration(page)
  await expect(status.getByText('All changes saved')).toBeVisible({ timeout: 30_000 })
  expect(await queuedOnPhone(page)).toEqual([])
  expect(await onServer()).toContain(note)
  await gotoHydrated(page, `/app/visits/${visitId}`)
  await expect(page.getByLabel('Note for office')).toHaveValue(note)
})
