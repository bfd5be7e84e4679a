// The company as its customers see it (issue 31 items 4–5, issue 38 item 8, docs/decisions/044-company-brand.md), in
// Chromium on a server of the spec's own (its Blue Lagoon is changed here; no SMTP server, so emails land in the
// built-in mailbox): the owner sets the company email and address, uploads a logo (a text file named .png is refused
// by its bytes), and finds the timezone by searching; a skipped visit's email to the customer comes from the company
// with its logo; the customer sees the logo in the portal and in the invoice PDF. Phone (390 px) and desktop
// (1280 px), axe clean.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { type RunningServer, startServer } from '../../scripts/lib/app-server'
import { freePort } from '../../scripts/lib/free-port'
import { capture, expect, gotoHydrated, loginAs, test } from './fixtures'
import { copySeededDemo } from './seeded-copy'
import { bookVisits, expectPhoneSent } from './visits'

const ROOT = path.resolve(import.meta.dirname, '../..')
const FIXTURES = path.join(ROOT, 'tests/fixtures')
const PHONE = { width: 390, height: 844 }
const DESK = { width: 1280, height: 800 }
const SENT_SOON = 30_000
const LOGO_ALT = 'Blue Lagoon Pool Co. logo'

/** A seeded server of its own whose emails go to the built-in mailbox (as notice-settings.spec.ts starts one). */
async function serverWithMailbox() {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-brand-'))
  const options = {
    port: String(await freePort()),
    dataDir: path.join(runDir, 'data'),
    logPath: path.join(runDir, 'server.log'),
    env: { SEED_DEMO: '1', DEV_MAILBOX: '1', TRUST_PROXY: '0' },
    withoutEnv: /^SMTP_URL$/,
  }
  const adminUrl = process.env.DATABASE_URL
  let server: RunningServer
  let cleanupDatabase = async () => {}
  try {
    const copy = await copySeededDemo(options.dataDir, adminUrl, 'pool_bud_brand')
    cleanupDatabase = copy.drop
    server = await startServer(ROOT, { ...options, databaseUrl: copy.databaseUrl })
  } catch (error) {
    await cleanupDatabase()
    fs.rmSync(runDir, { recursive: true, force: true })
    throw error
  }
  return {
    origin: server.origin,
    stop: async () => {
      await server.stop()
      await cleanupDatabase()
      fs.rmSync(runDir, { recursive: true, force: true })
    },
  }
}

async function expectAxeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([])
}

/** The image is drawn (its file loaded), not just present. */
async function expectLoaded(page: Page, alt: string) {
  const image = page.getByRole('img', { name: alt }).first()
  await expect(image).toBeVisible()
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0)
}

test.describe('the company brand', () => {
  test.describe.configure({ mode: 'serial' })
  let server: Awaited<ReturnType<typeof serverWithMailbox>>

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    server = await serverWithMailbox()
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  const open = async (browser: Browser, viewport: typeof DESK, email: string) => {
    const context = await browser.newContext({ baseURL: server.origin, viewport })
    const page = await context.newPage()
    await loginAs(page, email)
    return { context, page }
  }

  test('the owner sets the email, address and logo; the customer’s email, portal and PDF show them', async ({
    browser,
  }, testInfo) => {
    test.slow()
    const { context, page } = await open(browser, DESK, 'owner@bluelagoon.test')
    await gotoHydrated(page, '/app/settings')
    await page.getByLabel('Company email').fill('not-an-email')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText('Enter a valid email address.')).toBeVisible()
    await page.getByLabel('Company email').fill('office@bluelagoon.example')
    await page.getByLabel('Company address').fill('12 Harbor Way\nTampa, FL 33602')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText('Settings saved.')).toBeVisible()

    // A text file named .png is refused by its content; the real PNG is saved and shown.
    const logoSection = page
      .locator('section, div')
      .filter({ has: page.getByRole('heading', { name: 'Company logo' }) })
      .last()
    await logoSection.getByLabel('Upload logo').setInputFiles(path.join(FIXTURES, 'not-a-logo.png'))
    await logoSection.getByRole('button', { name: 'Save logo' }).click()
    await expect(page.getByText('The logo must be a PNG or JPEG image.')).toBeVisible()
    await logoSection.getByLabel('Upload logo').setInputFiles(path.join(FIXTURES, 'company-logo.png'))
    await logoSection.getByRole('button', { name: 'Save logo' }).click()
    await expect(page.getByText('Logo saved.')).toBeVisible()
    await expectLoaded(page, LOGO_ALT)
    await expect(page.getByLabel('Company email')).toHaveValue('office@bluelagoon.example')
    await expectAxeClean(page)
    await capture(page, testInfo, 'settings-brand')
    await page.setViewportSize(PHONE)
    await expectAxeClean(page)
    await capture(page, testInfo, 'settings-brand')
    await context.close()

    // A visit of Dana's today, skipped by Tyler: her email comes from the company, with its logo.
    const office = await open(browser, DESK, 'dispatch@bluelagoon.test')
    const { ids } = await bookVisits(office.page, 1)
    const tech = await open(browser, PHONE, 'tech@bluelagoon.test')
    await gotoHydrated(tech.page, `/app/visits/${ids[0]}`)
    await tech.page.getByRole('button', { name: 'Skip visit' }).click()
    await tech.page.getByLabel('Locked gate').check()
    await tech.page.getByRole('button', { name: 'Skip visit' }).click()
    await expect(tech.page.getByText('Skipped: Locked gate')).toBeVisible({ timeout: SENT_SOON })
    await expectPhoneSent(tech.page)
    await tech.context.close()
    const mailbox = office.page
    const message = mailbox.getByRole('main').getByRole('listitem').filter({ hasText: 'Visit skipped' })
    await expect(async () => {
      await mailbox.goto('/dev/mailbox')
      await expect(message).toHaveCount(1, { timeout: 1_000 })
    }).toPass({ timeout: SENT_SOON })
    await expect(message).toContainText('from "Blue Lagoon Pool Co." <')
    await expectLoaded(mailbox, LOGO_ALT)
    await office.context.close()

    // Dana's portal shows the logo at both widths; her invoice's PDF draws it with the address and the email.
    for (const viewport of [PHONE, DESK]) {
      const customer = await open(browser, viewport, 'customer@bluelagoon.test')
      await customer.page.waitForURL(/\/customer\//)
      await expectLoaded(customer.page, LOGO_ALT)
      await expectAxeClean(customer.page)
      await capture(customer.page, testInfo, 'portal-brand')
      if (viewport === DESK) {
        await customer.page.locator('a[href*="/invoices/"]').first().click()
        await customer.page.waitForURL(/\/customer\/[^/]+\/invoices\/[^/]+$/)
        const [download] = await Promise.all([
          customer.page.waitForEvent('download'),
          customer.page.getByRole('link', { name: 'Download PDF' }).click(),
        ])
        const bytes = new Uint8Array(await fs.promises.readFile(await download.path()))
        const { extractText, getDocumentProxy } = await import('unpdf')
        const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })
        expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
        expect(text.replace(/\s+/g, ' ')).toContain('12 Harbor Way Tampa, FL 33602 office@bluelagoon.example')
        expect(Buffer.from(bytes).toString('latin1')).toContain('/Subtype /Image')
      }
      await customer.context.close()
    }

    // "Remove logo" is asked first; then the portal shows the name alone and the old address is gone.
    const owner = await open(browser, DESK, 'owner@bluelagoon.test')
    await gotoHydrated(owner.page, '/app/settings')
    const logoUrl = (await owner.page.getByRole('img', { name: LOGO_ALT }).getAttribute('src')) ?? ''
    expect(logoUrl).toMatch(/^\/logo\/[0-9a-f]{32}\.png$/)
    const cached = await owner.page.request.get(logoUrl)
    expect(cached.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
    await owner.page.getByRole('button', { name: 'Remove logo' }).click()
    await owner.page.getByRole('button', { name: 'Yes, remove logo' }).click()
    await expect(owner.page.getByText('Logo removed.')).toBeVisible()
    await expect(owner.page.getByRole('img', { name: LOGO_ALT })).toHaveCount(0)
    expect((await owner.page.request.get(logoUrl)).status()).toBe(404)
    await owner.context.close()
  })

  test('the timezone is found by searching, US zones first; an unknown zone is refused at the field', async ({
    browser,
  }) => {
    const { context, page } = await open(browser, DESK, 'owner@bluelagoon.test')
    await gotoHydrated(page, '/app/settings')
    const zone = page.getByRole('combobox', { name: 'Timezone' })
    await expect(zone).toHaveValue('America/New_York')
    const listId = (await zone.getAttribute('list')) ?? ''
    const labels = await page
      .locator(`datalist[id="${listId}"] option`)
      .evaluateAll((options) => options.slice(0, 8).map((option) => (option as HTMLOptionElement).label))
    expect(labels.slice(0, 7)).toEqual([
      'Eastern — New York',
      'Central — Chicago',
      'Mountain — Denver',
      'Arizona — Phoenix',
      'Pacific — Los Angeles',
      'Alaska',
      'Hawaii',
    ])
    expect(await page.locator(`datalist[id="${listId}"] option`).count()).toBeGreaterThan(300)

    await zone.fill('Mars/Olympus_Mons')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText('Choose a timezone from the list.')).toBeVisible()
    await expect(zone).toHaveAttribute('aria-invalid', 'true')

    // Typed as the list names it ("Central — Chicago") or as the zone: saved as the zone.
    await zone.fill('Central — Chicago')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText('Settings saved.')).toBeVisible()
    await page.reload()
    await expect(page.getByRole('combobox', { name: 'Timezone' })).toHaveValue('America/Chicago')
    await page.getByRole('combobox', { name: 'Timezone' }).fill('America/New_York')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText('Settings saved.')).toBeVisible()
    await context.close()
  })
})
