// Editable drafts in Chromium (issue 31 item 1), on a server of the spec's own (billing-db.ts): a draft written with
// one $85.00 line shows "Total due on sending" (never "Amount due $0.00"); the office adds a repair part (2.5 ×
// $3.33 = $8.33, half up), adds a stock item whose price fills itself, edits a line, removes one (asked first), adds a
// discount and a note for the customer — the totals exact to the cent after each; then sends it, voids it and
// re-issues it as a new draft with a new number and the same lines.
import type { Page } from '@playwright/test'
import { serverWithDatabase } from './billing-db'
import { capture, expect, loginAs, test } from './fixtures'

const BLUE = 'Blue Lagoon Pool Co.'

/** The value of a line in the document's totals ("Subtotal", "Total due on sending"). */
function total(page: Page, label: string) {
  return page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]')
}

test.describe('editing a draft invoice', () => {
  test.describe.configure({ mode: 'serial' })
  let server: { origin: string; value: { invoiceId: string; number: number }; stop: () => Promise<void> }

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    server = await serverWithDatabase(async (query) => {
      const [company] = await query(`select id, next_invoice_number as next from companies where name = $1`, [BLUE])
      if (!company) throw new Error('no company')
      await query(
        `update companies set tax_rate_milli_percent = 0, next_invoice_number = next_invoice_number + 1
        where id = $1`,
        [company.id],
      )
      const [customer] = await query(
        `select id from customers where company_id = $1 and status = 'active' order by customer_name limit 1`,
        [company.id],
      )
      const number = Number(company.next)
      const [invoice] = await query(
        `insert into invoices (company_id, customer_id, number, state, subtotal_cents, total_cents)
         values ($1, $2, $3, 'draft', 8500, 8500) returning id`,
        [company.id, customer?.id, number],
      )
      await query(
        `insert into invoice_lines (company_id, invoice_id, position, kind, description, quantity, unit_cents, amount_cents)
         values ($1, $2, 1, 'visits', 'Pool service — 1 visit', 1, 8500, 8500)`,
        [company.id, invoice?.id],
      )
      await query(
        `insert into inventory_items (company_id, name, sku, price_cents, qty) values ($1, 'Skimmer basket', 'DRAFT-SB', 2250, 3)`,
        [company.id],
      )
      return { invoiceId: String(invoice?.id), number }
    })
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  test('the office edits a draft, sends it, voids it and re-issues it', async ({
    browser,
    extraHTTPHeaders,
  }, testInfo) => {
    test.setTimeout(180_000)
    const context = await browser.newContext({
      baseURL: server.origin,
      extraHTTPHeaders,
      viewport: { width: 1280, height: 900 },
    })
    const page = await context.newPage()
    try {
      await loginAs(page, 'owner@bluelagoon.test', { open: `/app/invoices/${server.value.invoiceId}` })
      await expect(page.getByText('Total due on sending $85.00')).toBeVisible()
      await expect(page.getByText('Amount due $0.00')).toHaveCount(0)

      // "Add line": a repair part, rounded half up.
      const addLine = page.getByRole('form', { name: 'Add line' })
      await addLine.getByLabel('Description').fill('Pump seal')
      await addLine.getByLabel('Quantity').fill('2.5')
      await addLine.getByLabel('Unit price').fill('3.33')
      await addLine.getByRole('button', { name: 'Add line' }).click()
      await expect(page.getByRole('cell', { name: 'Pump seal' })).toBeVisible()
      await expect(page.getByRole('cell', { name: '$8.33' })).toBeVisible()
      await expect(total(page, 'Total due on sending')).toHaveText('$93.33')

      // An inventory item fills the description and price left blank.
      await addLine.getByLabel('Inventory item (optional)').selectOption({ label: 'Skimmer basket ($22.50)' })
      await addLine.getByRole('button', { name: 'Add line' }).click()
      await expect(page.getByRole('cell', { name: 'Skimmer basket' })).toBeVisible()
      await expect(total(page, 'Total due on sending')).toHaveText('$115.83')

      // Edit the part: 4 of them.
      await page.getByRole('link', { name: 'Edit Pump seal' }).click()
      const edit = page.getByRole('form', { name: 'Edit Pump seal' })
      await edit.getByLabel('Quantity').fill('4')
      await edit.getByRole('button', { name: 'Save line' }).click()
      await expect(page.getByRole('cell', { name: '$13.32' })).toBeVisible()
      await expect(total(page, 'Total due on sending')).toHaveText('$120.82')

      // "Remove line" asks first.
      await page.getByRole('link', { name: 'Remove line Skimmer basket' }).click()
      await expect(page.getByText('Remove “Skimmer basket”?')).toBeVisible()
      await page.getByRole('button', { name: 'Yes, remove line' }).click()
      await expect(page.getByRole('cell', { name: 'Skimmer basket' })).toHaveCount(0)
      await expect(total(page, 'Total due on sending')).toHaveText('$98.32')

      // A discount, and one too large refused.
      const discount = page.getByRole('form', { name: 'Add discount' })
      await discount.getByLabel('Discount amount').fill('500')
      await discount.getByRole('button', { name: 'Add discount' }).click()
      await expect(page.getByText('A discount cannot make the total less than $0.00.')).toBeVisible()
      await discount.getByLabel('Discount description').fill('Loyalty discount')
      await discount.getByLabel('Discount amount').fill('10')
      await discount.getByRole('button', { name: 'Add discount' }).click()
      await expect(page.getByRole('row', { name: /Loyalty discount/ })).toContainText('-$10.00')
      await expect(total(page, 'Total due on sending')).toHaveText('$88.32')

      // "Note for customer", shown on the invoice.
      const note = page.getByRole('form', { name: 'Note for customer' })
      await note.getByLabel('Note for customer').fill('We replaced the pump seal.')
      await note.getByRole('button', { name: 'Save note' }).click()
      await expect(page.getByRole('region', { name: 'Note', exact: true })).toContainText('We replaced the pump seal.')
      await capture(page, testInfo, 'draft-invoice-edited')

      // Sent, it is fixed: the editor is gone. Voided, it is re-issued with a new number and the same lines.
      await page.getByRole('button', { name: 'Send invoice' }).click()
      await expect(page.getByText('Amount due $88.32')).toBeVisible()
      await expect(page.getByRole('form', { name: 'Add line' })).toHaveCount(0)
      await page.getByRole('link', { name: 'Void invoice' }).click()
      await page.getByRole('button', { name: 'Yes, void invoice' }).click()
      await page.getByRole('button', { name: 'Re-issue invoice' }).click()
      const next = `INV-${String(server.value.number + 1).padStart(4, '0')}`
      await expect(page.getByRole('heading', { level: 1, name: next })).toBeVisible()
      await expect(page.getByText('Total due on sending $88.32')).toBeVisible()
      await expect(page.getByRole('cell', { name: 'Pump seal' })).toBeVisible()
      await expect(page.getByRole('cell', { name: 'Loyalty discount' })).toBeVisible()
    } finally {
      await context.close()
    }
  })
})
