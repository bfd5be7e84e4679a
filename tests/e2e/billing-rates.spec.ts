// Billing's edge cases in Chromium (issue 31 items 4, 8, 9), on a server of the spec's own (billing-db.ts). "Send
// invoices" for a month with two customers lacking an email address and one with: the confirmation names the two,
// the print batch PDF (/app/billing/print.pdf) holds exactly their invoice numbers, and after sending the list says
// "Not emailed — print" on exactly their rows, at desktop and phone widths.
import fs from 'node:fs/promises'
import AxeBuilder from '@axe-core/playwright'
import type { Download } from '@playwright/test'
import { serverWithDatabase } from './billing-db'
import { expect, gotoHydrated, loginAs, test } from './fixtures'

const BLUE = 'Blue Lagoon Pool Co.'
/** A month the demo data leaves alone, so the spec's drafts are the month's only invoices. */
const MONTH = '2025-02'

async function readDownload(download: Download) {
  const bytes = new Uint8Array(await fs.readFile(await download.path()))
  const { extractText, getDocumentProxy } = await import('unpdf')
  const header = Buffer.from(bytes.subarray(0, 5)).toString('latin1')
  const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })
  return { header, pages: totalPages, text: text.replace(/\s+/g, ' ') }
}

const label = (number: number) => `INV-${String(number).padStart(4, '0')}`

test.describe('customers without email get their invoices on paper', () => {
  test.describe.configure({ mode: 'serial' })
  let server: {
    origin: string
    value: { paper: { name: string; number: number }[]; emailed: { name: string; number: number } }
    stop: () => Promise<void>
  }

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    server = await serverWithDatabase(async (query) => {
      const [company] = await query(`select id, next_invoice_number as next from companies where name = $1`, [BLUE])
      if (!company) throw new Error('no company')
      const people = [
        { name: 'Quinn Paperwell', email: null },
        { name: 'Rory Postbox', email: '' },
        { name: 'Sky Inboxley', email: 'sky@inboxley.test' },
      ]
      const made: { name: string; number: number; email: string | null }[] = []
      let number = Number(company.next)
      for (const person of people) {
        const [customer] = await query(
          `insert into customers (company_id, customer_name, email) values ($1, $2, $3) returning id`,
          [company.id, person.name, person.email],
        )
        const [invoice] = await query(
          `insert into invoices (company_id, customer_id, number, state, period_start, period_end, subtotal_cents,
           total_cents) values ($1, $2, $3, 'draft', $4, $5, 9000, 9000) returning id`,
          [company.id, customer?.id, number, `${MONTH}-01`, `${MONTH}-28`],
        )
        await query(
          `insert into invoice_lines (company_id, invoice_id, position, kind, description, quantity, unit_cents,
           amount_cents) values ($1, $2, 1, 'monthly', 'Monthly pool service', 1, 9000, 9000)`,
          [company.id, invoice?.id],
        )
        made.push({ name: person.name, number, email: person.email })
        number += 1
      }
      await query(`update companies set next_invoice_number = $2 where id = $1`, [company.id, number])
      const paper = made.filter((m) => !m.email).map(({ name, number: n }) => ({ name, number: n }))
      const emailed = made.find((m) => m.email)
      if (!emailed) throw new Error('no emailed customer')
      return { paper, emailed: { name: emailed.name, number: emailed.number } }
    })
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`"Send invoices" prints exactly theirs (${viewport.width} px)`, async ({ browser, extraHTTPHeaders }) => {
      test.setTimeout(120_000)
      const context = await browser.newContext({ baseURL: server.origin, extraHTTPHeaders, viewport })
      const page = await context.newPage()
      try {
        await loginAs(page, 'owner@bluelagoon.test')
        const { paper, emailed } = server.value
        if (viewport.width === 1280) {
          await gotoHydrated(page, `/app/billing?month=${MONTH}`)
          await page.getByRole('link', { name: 'Send invoices' }).click()
          const confirm = page.getByRole('region', { name: 'Send 3 invoices?' })
          await expect(confirm.getByText('2 customers have no email address')).toBeVisible()
          await expect(confirm.getByRole('listitem')).toHaveText(paper.map((p) => p.name))
          const [download] = await Promise.all([
            page.waitForEvent('download'),
            confirm.getByRole('link', { name: 'Download their invoices (PDF)' }).click(),
          ])
          const pdf = await readDownload(download)
          expect(pdf.header).toBe('%PDF-')
          expect(pdf.pages).toBe(paper.length)
          for (const p of paper) expect(pdf.text).toContain(label(p.number))
          expect(pdf.text).not.toContain(label(emailed.number))
          expect(pdf.text).not.toContain(emailed.name)
          await confirm.getByRole('button', { name: 'Yes, send invoices' }).click()
          await expect(page.getByText('Sent 3 invoices: Emailed 1 · To print 2.')).toBeVisible()
        }
        await gotoHydrated(page, `/app/billing?month=${MONTH}`)
        for (const p of paper) {
          const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: label(p.number) }) })
          await expect(row.getByText('Not emailed — print')).toBeVisible()
        }
        const emailedRow = page
          .getByRole('listitem')
          .filter({ has: page.getByRole('link', { name: label(emailed.number) }) })
        await expect(emailedRow).toBeVisible()
        await expect(emailedRow.getByText('Not emailed — print')).toHaveCount(0)
        expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
        // The print batch after sending: still exactly theirs.
        const response = await page.request.get(`/app/billing/print.pdf?month=${MONTH}`)
        expect(response.headers()['content-type']).toBe('application/pdf')
        const { extractText, getDocumentProxy } = await import('unpdf')
        const { text } = await extractText(await getDocumentProxy(new Uint8Array(await response.body())), {
          mergePages: true,
        })
        const numbers = [...text.matchAll(/INV-\d{4}/g)].map((m) => m[0])
        expect(new Set(numbers)).toEqual(new Set(paper.map((p) => label(p.number))))
      } finally {
        await context.close()
      }
    })
  }
})
