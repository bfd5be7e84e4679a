// "Download PDF" end to end (issue 31 item 4): the customer downloads her invoice from the portal and the owner the
// same invoice from the office; each download is a PDF (header, one page, the invoice's number and the company in its
// text) named after the invoice. Read-only: the seeded opening-balance invoice of Dana Whitfield.
import fs from 'node:fs/promises'
import type { Download } from '@playwright/test'
import { expect, test } from './fixtures'

async function readDownload(download: Download) {
  const file = await download.path()
  const bytes = new Uint8Array(await fs.readFile(file))
  const { extractText, getDocumentProxy } = await import('unpdf')
  const header = Buffer.from(bytes.subarray(0, 5)).toString('latin1')
  const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })
  return { header, pages: totalPages, text: text.replace(/\s+/g, ' ') }
}

test('the customer and the office download the invoice as a PDF', async ({ page, loginAs }) => {
  await page.route('**/app/events', (route) => route.abort())
  await loginAs(page, 'customer@bluelagoon.test')
  await page.waitForURL(/\/customer\//)
  await page.locator('a[href*="/invoices/"]').first().click()
  await page.waitForURL(/\/customer\/[^/]+\/invoices\/[^/]+$/)
  const invoiceId = new URL(page.url()).pathname.split('/').at(-1) ?? ''
  // The address changes before the invoice's page is drawn: wait for its heading, not the one still shown.
  const heading = page.getByRole('heading', { level: 1, name: /^Invoice INV-\d+$/ })
  await expect(heading).toBeVisible()
  const numberLabel = ((await heading.textContent()) ?? '').replace('Invoice ', '')

  const [portalDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download PDF' }).click(),
  ])
  expect(portalDownload.suggestedFilename()).toBe(`invoice-${Number(numberLabel.slice(4))}.pdf`)
  const portalPdf = await readDownload(portalDownload)
  expect(portalPdf.header).toBe('%PDF-')
  expect(portalPdf.pages).toBe(1)
  expect(portalPdf.text).toContain(`Invoice ${numberLabel}`)
  expect(portalPdf.text).toContain('Blue Lagoon Pool Co.')
  expect(portalPdf.text).toContain('Dana Whitfield')

  await page.context().clearCookies()
  await loginAs(page, 'owner@bluelagoon.test', { open: `/app/invoices/${invoiceId}` })
  const [officeDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download PDF' }).click(),
  ])
  const officePdf = await readDownload(officeDownload)
  expect(officePdf.header).toBe('%PDF-')
  expect(officePdf.text).toContain(`Invoice ${numberLabel}`)
})
