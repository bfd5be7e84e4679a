// Switching in by CSV (issue #17, docs/product.md "Import"): an office user uploads a spreadsheet with a mistake, sees
// its columns and the problem in plain words, finds nothing written, fixes the file, imports it, and a second import of
// the same file says "0 new". The page is photographed on a phone and a desktop along the way.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test, waitForHydration } from './fixtures'

const suffix = randomBytes(3).toString('hex')
const HEADER = 'Customer Name,Email,Service Address,City,State,Zip,Gallons,Service Day,Balance'

function file(rows: string[]) {
  return { name: 'old-software-export.csv', mimeType: 'text/csv', buffer: Buffer.from([HEADER, ...rows].join('\r\n')) }
}

const WITH_A_MISTAKE = file([
  `Rita Moreno ${suffix},rita.${suffix}@example.com,10 Palm Ave,Tampa,FL,33602,15000,Monday,$0.00`,
  `Olu Bankole ${suffix},olu.${suffix}@,22 Bay Rd,Tampa,FL,33611,"15,000",Tuesday,$12.00`,
  `Hana Sato ${suffix},hana.${suffix}@example.com,5 Lake Dr,Tampa,FL,33629,12k,Wednesday,$0.00`,
])
const FIXED = file([
  `Rita Moreno ${suffix},rita.${suffix}@example.com,10 Palm Ave,Tampa,FL,33602,15000,Monday,$0.00`,
  `Olu Bankole ${suffix},olu.${suffix}@example.com,22 Bay Rd,Tampa,FL,33611,"15,000",Tuesday,$12.00`,
  `Hana Sato ${suffix},hana.${suffix}@example.com,5 Lake Dr,Tampa,FL,33629,12k,Wednesday,$0.00`,
])

async function uploadFile(page: Page, upload: ReturnType<typeof file>) {
  await page.goto('/app/customers/import')
  await waitForHydration(page)
  await page.getByLabel('CSV file').setInputFiles(upload)
  await page.getByRole('button', { name: 'Upload' }).click()
  await expect(page).toHaveURL(/\/app\/customers\/import\?upload=/)
  await waitForHydration(page)
}

async function exportedCsv(page: Page) {
  const response = await page.request.get('/app/customers/export.csv')
  expect(response.status()).toBe(200)
  return response.text()
}

test('an office user imports a CSV with a mistake, fixes it, imports it, and a re-import adds nothing', async ({
  page,
  loginAs,
}, testInfo) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  await uploadFile(page, WITH_A_MISTAKE)

  // The columns as read from the headers; the balance is known and left out.
  await expect(page.getByText('3 rows, UTF-8, values separated by commas.', { exact: false })).toBeVisible()
  await expect(page.getByLabel('Customer Name')).toHaveValue('customerName')
  await expect(page.getByLabel('Service Address')).toHaveValue('street')
  await expect(page.getByLabel('Balance')).toHaveValue('none')
  await expect(page.getByLabel('Balance').locator('option:checked')).toHaveText("Don't import")

  await page.getByRole('button', { name: 'Preview' }).click()
  await expect(page.getByText('2 customers, 2 service locations, 2 bodies of water', { exact: false })).toBeVisible()
  await expect(page.getByText('1 row has problems')).toBeVisible()
  await expect(page.getByText(/^Row 3: .*olu\.[0-9a-f]{6}@/)).toBeVisible()

  for (const [name, size] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size)
    await page.screenshot({ path: testInfo.outputPath(`import-preview-${name}.png`), fullPage: true })
  }

  // "Import" with a problem left writes nothing and says why.
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByText(/1 row has problems\. Fix them in the file/)).toBeVisible()
  expect(await exportedCsv(page)).not.toContain(suffix)

  // The fixed file imports whole.
  await uploadFile(page, FIXED)
  await page.getByRole('button', { name: 'Preview' }).click()
  await expect(page.getByText('3 customers, 3 service locations, 3 bodies of water', { exact: false })).toBeVisible()
  await expect(page.getByText('No problems found.')).toBeVisible()
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/app/customers')
  await expect(page.getByTestId('flash-message')).toContainText('Customers: 3 new, 0 unchanged.')
  const exported = await exportedCsv(page)
  for (const name of ['Rita Moreno', 'Olu Bankole', 'Hana Sato']) expect(exported).toContain(`${name} ${suffix}`)

  // The same file again: nothing new.
  await uploadFile(page, FIXED)
  await page.getByRole('button', { name: 'Preview' }).click()
  await expect(page.getByText('0 new, 3 unchanged').first()).toBeVisible()
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByTestId('flash-message')).toContainText('Customers: 0 new, 3 unchanged.')
})

test('a file over 10 MB is refused before it is sent, in words', async ({ page, loginAs }, testInfo) => {
  await loginAs(page, 'office@bluelagoon.test', { open: '/app/customers/import' })
  await waitForHydration(page)
  const uploads: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') uploads.push(request.url())
  })
  await page.getByLabel('CSV file').setInputFiles({
    name: 'everything.csv',
    mimeType: 'text/csv',
    buffer: Buffer.alloc(11 * 1024 * 1024, 'a'),
  })
  await page.getByRole('button', { name: 'Upload' }).click()
  await expect(page.getByText('This file is too large. Split it into files under 10 MB.')).toBeVisible()
  expect(uploads).toEqual([])
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: testInfo.outputPath('import-upload-phone.png'), fullPage: true })
})

test('an owner downloads "Export all data" from Settings as a ZIP', async ({ page, loginAs }) => {
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/settings' })
  await waitForHydration(page)
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export all data' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^pool-bud-export-\d{4}-\d{2}-\d{2}\.zip$/)
  const bytes = await fs.promises.readFile((await file.path()) as string)
  // A ZIP starts with a local file header ("PK\x03\x04").
  expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]))
})
