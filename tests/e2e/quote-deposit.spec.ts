// The repairs chain end to end (issue 33's first "Done when"; docs/work-orders.md "Tested end to end", docs/quotes.md
// "Deposit", docs/inventory.md), in a real browser against the built server with Stripe configured — pointed at the
// local server that speaks Stripe's API (tests/helpers/fake-stripe.ts), so nothing leaves the machine. The run's
// shared server has no Stripe, so this spec starts its own (demo data), on a scratch PostgreSQL database when the
// project asks for PostgreSQL (DATABASE_URL), on its own embedded PGlite folder otherwise: playwright.config.ts runs
// it once per database ("repairs-pglite", "repairs-postgres").
//
// One serial chain: the office keeps a stock part and a labor rate in the price book and quotes Dana the part, the
// labor and an optional item with a 30 % deposit; on a 375 px phone (axe clean) she ticks the option, signs, pays the
// deposit on Checkout; the office sees it paid, moves the part from the Warehouse to Tyler's truck and makes a work
// order of two visits (Tyler, Maya); Tyler records the part on his visit (off his truck) and both complete their
// visits on their phones; the office completes the work order and invoices it: every line, the tax, the total, the
// deposit (30 % of the approved total, half up) and the amount due to the cent; the item's history shows the
// transfer and the use. Every amount is worked out here from the amounts typed, never read back from the page.
import { randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { type FakeStripe, startFakeStripe } from '../helpers/fake-stripe'
import { type ProductionServer, scratchDatabase, startProductionServer } from '../helpers/production-server'
import { capture, DEMO_PASSWORD, expect, test, waitForHydration } from './fixtures'

const PHONE = { width: 375, height: 812 }
/** Mark Complete waits 10 seconds for "Undo" before the completion is sent. */
const SENT_AFTER_UNDO = 25_000
const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100)
/** a / b rounded half up (both positive integers), as the money rules round (docs/billing.md). */
const halfUp = (a: number, b: number) => Math.floor((2 * a + b) / (2 * b))

const suffix = randomBytes(3).toString('hex')
// The quote, as typed: a stock part from the price book (taxable), labor from the price book (not taxable), and an
// optional item typed in (taxable), which Dana ticks.
const PART = { name: `Pump motor ${suffix}`, sku: `PMP-${suffix}`, priceCents: 38_999, quantity: 1 }
const LABOR = { name: `Install labor ${suffix}`, priceCents: 9_500, hundredths: 350 }
const OPTION = { name: 'Salt cell upgrade', priceCents: 41_235 }
const partCents = PART.priceCents * PART.quantity
const laborCents = halfUp(LABOR.hundredths * LABOR.priceCents, 100)
const optionCents = OPTION.priceCents
const subtotal = partCents + laborCents + optionCents
/** The company's tax rate this spec sets, in thousandths of a percent (7.25 %). */
const TAX_MILLI_PERCENT = 7_250

let fake: FakeStripe
let server: ProductionServer
let dropDatabase: (() => Promise<void>) | undefined

// What each step hands to the next.
const chain = {
  danaId: '',
  quoteId: '',
  itemUrl: '',
  /** Tax, total and deposit, in cents, once the rate is read off the quote. */
  tax: 0,
  total: 0,
  deposit: 0,
  workOrderPath: '',
  firstVisit: '',
  secondVisit: '',
  number: '',
}

test.describe.configure({ mode: 'serial' })

// biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures must destructure their first argument
test.beforeAll(async ({}, testInfo) => {
  // Its own server is migrated and seeded first: on two busy cores that alone can take minutes.
  test.setTimeout(300_000)
  const wanted = testInfo.project.metadata?.database as 'pglite' | 'postgres' | undefined
  const adminUrl = wanted === 'pglite' ? undefined : process.env.DATABASE_URL
  // playwright.config.ts defines the PostgreSQL project only when DATABASE_URL is set.
  if (wanted === 'postgres' && !adminUrl) throw new Error('the PostgreSQL project needs DATABASE_URL')
  fake = await startFakeStripe()
  if (adminUrl) {
    const database = await scratchDatabase(adminUrl)
    dropDatabase = database.drop
    server = await startProductionServer({ databaseUrl: database.url, env: fake.env() })
  } else {
    server = await startProductionServer({ env: fake.env() })
  }
})
test.afterAll(async () => {
  await server?.cleanup()
  await dropDatabase?.()
  await fake?.close()
})

async function logIn(page: Page, email: string) {
  await page.goto(`${server.origin}/login`)
  await waitForHydration(page)
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toHaveCount(0)
}

async function goto(page: Page, path: string) {
  await page.goto(`${server.origin}${path}`)
  await waitForHydration(page)
}

async function phone(browser: Browser, extraHTTPHeaders: Record<string, string> | undefined, email: string) {
  const context = await browser.newContext({ extraHTTPHeaders, viewport: PHONE })
  const page = await context.newPage()
  await page.route('**/app/events', (route) => route.abort())
  await logIn(page, email)
  return { context, page }
}

async function expectNoSeriousAxe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect(serious, 'serious or critical axe violations').toEqual([])
}

/** The amount beside a label of the invoice's totals. */
function totalOf(page: Page, label: string | RegExp) {
  return page.locator('dt', { hasText: label }).first().locator('xpath=following-sibling::dd[1]')
}

/** A technician completes their visit on the phone; the completion is sent once "Undo" has passed. */
async function completeVisit(page: Page, visitPath: string, technician: string) {
  await goto(page, visitPath)
  await page.getByRole('button', { name: 'Mark Complete' }).click()
  await page
    .getByRole('dialog', { name: 'Complete this visit?' })
    .getByRole('button', { name: 'Complete visit' })
    .click()
  await expect(page.getByText(new RegExp(`^Completed .+ by ${technician}$`))).toBeVisible({ timeout: SENT_AFTER_UNDO })
}

test('the office quotes a stock part, labor and an optional item with a 30 % deposit; the customer ticks the option, signs and pays the deposit on Checkout', async ({
  browser,
  page,
  extraHTTPHeaders,
}, testInfo) => {
  test.setTimeout(240_000)
  await page.route('**/app/events', (route) => route.abort())

  // Dana's portal, on her phone: her customer id is in the address she lands on.
  const dana = await phone(browser, extraHTTPHeaders, 'customer@bluelagoon.test')
  const customer = dana.page
  await customer.waitForURL(/\/customer\/[0-9a-f-]{36}$/)
  chain.danaId = new URL(customer.url()).pathname.split('/')[2] as string

  // The office sets the company's tax rate (the demo's is none), which the quote keeps on its version.
  await logIn(page, 'owner@bluelagoon.test')
  await goto(page, '/app/settings/tax-rates')
  await page.getByLabel('Name').last().fill('Tampa')
  await page.getByLabel('Percent').last().fill('7.25')
  await page.getByRole('button', { name: 'Add rate' }).click()
  await expect(page.getByText('Tax rate added.')).toBeVisible()
  await expect(
    page.getByRole('list', { name: 'Tax rates' }).getByRole('listitem').filter({ hasText: 'Tampa 7.25 %' }),
  ).toContainText('Default')

  // The office keeps the part as a stock item (5 in the warehouse) and in the price book, linked to it; and labor.
  await goto(page, '/app/inventory')
  const add = page.locator('form#inventory-item')
  await add.getByLabel('Name').fill(PART.name)
  await add.getByLabel('SKU').fill(PART.sku)
  await add.getByLabel('Price ($)').fill(usd(PART.priceCents).replace(/[$,]/g, ''))
  await add.getByLabel('Quantity').fill('5')
  await add.getByRole('button', { name: 'Add item' }).click()
  await expect(page.getByText('Item saved.')).toBeVisible()

  await goto(page, '/app/settings/price-book')
  const book = page.getByRole('region', { name: 'Add an item' })
  await book.getByLabel('Name').fill(PART.name)
  await book.getByLabel('Kind').selectOption('part')
  await book.getByLabel('Price ($)').fill('389.99')
  await book.getByLabel('Inventory item').selectOption({ label: `${PART.name} (${PART.sku})` })
  await expect(book.getByLabel('Taxable')).toBeChecked()
  await book.getByRole('button', { name: 'Add item' }).click()
  await expect(page.getByText(`Added ${PART.name}.`)).toBeVisible()
  await goto(page, '/app/settings/price-book')
  await book.getByLabel('Name').fill(LABOR.name)
  await book.getByLabel('Kind').selectOption('labor')
  await book.getByLabel('Price ($)').fill('95')
  await book.getByLabel('Taxable').uncheck()
  await book.getByRole('button', { name: 'Add item' }).click()
  await expect(page.getByText(`Added ${LABOR.name}.`)).toBeVisible()
  await goto(page, '/app/settings/price-book')
  const laborRow = page.getByRole('listitem').filter({ hasText: LABOR.name })
  await expect(laborRow).toContainText('Labor · $95.00')
  await expect(laborRow).toContainText('Not taxable')
  await expect(page.getByRole('listitem').filter({ hasText: PART.name })).toContainText(`Stock: ${PART.name}`)

  // The quote: the part and the labor from the price book, the optional item typed, a 30 % deposit; sent.
  await goto(page, `/app/customers/${chain.danaId}`)
  await page.getByRole('button', { name: 'New quote', exact: true }).click()
  await expect(page).toHaveURL(/\/app\/quotes\/[0-9a-f-]+$/)
  await expect(page.getByRole('heading', { level: 1, name: /^Quote Q-\d{4}$/ })).toBeVisible()
  chain.quoteId = new URL(page.url()).pathname.split('/').pop() as string
  await waitForHydration(page)
  const addLine = page.getByRole('region', { name: 'Add line' })
  await addLine.getByLabel('Price book item').selectOption({ label: `${PART.name} — $389.99 (Part)` })
  await addLine.getByLabel('Quantity').fill(String(PART.quantity))
  await addLine.getByRole('button', { name: 'Add line' }).click()
  await expect(page.getByRole('cell', { name: PART.name })).toBeVisible()
  await addLine.getByLabel('Price book item').selectOption({ label: `${LABOR.name} — $95.00 (Labor)` })
  await addLine.getByLabel('Quantity').fill('3.5')
  await addLine.getByRole('button', { name: 'Add line' }).click()
  await expect(page.getByRole('cell', { name: LABOR.name })).toBeVisible()
  await addLine.getByLabel('Price book item').selectOption('')
  await addLine.getByLabel('Description').fill(OPTION.name)
  await addLine.getByLabel('Quantity').fill('1')
  await addLine.getByLabel('Unit price ($)').fill('412.35')
  await addLine.getByLabel('Optional').check()
  await addLine.getByRole('button', { name: 'Add line' }).click()
  await expect(page.getByRole('cell', { name: new RegExp(OPTION.name) })).toBeVisible()
  const terms = page.getByRole('region', { name: 'Terms' })
  await terms.getByLabel('Deposit', { exact: true }).selectOption('percent')
  await terms.getByLabel('Deposit percent').fill('30')
  await terms.getByRole('button', { name: 'Save terms' }).click()
  await expect(page.getByText('Quote saved.')).toBeVisible()
  await page.getByRole('button', { name: 'Send quote' }).click()
  await page.getByRole('button', { name: 'Yes, send quote' }).click()
  await expect(page.getByText(/^Quote sent to /)).toBeVisible()

  // Dana opens it at 375 px: no sideways scroll, no serious axe violation; the button says the deposit comes next.
  await goto(customer, `/customer/${chain.danaId}/quotes/${chain.quoteId}`)
  await expect(customer.getByRole('heading', { level: 1, name: /^Quote Q-\d{4}$/ })).toBeVisible()
  await expect(
    customer.getByText("Approving takes you to Stripe's secure page to pay the deposit by card."),
  ).toBeVisible()
  const sideways = await customer.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
  expect(sideways, 'no sideways scroll at 375 px').toBe(false)
  await expectNoSeriousAxe(customer)
  await capture(customer, testInfo, 'portal-quote-deposit-approval')

  // The amounts with the option ticked: tax at 7.25 % on the part and the option only (labor is not taxable), half
  // up once; the deposit 30 % of the total, half up.
  await expect(customer.getByText('Tax (7.25%)', { exact: true })).toBeVisible()
  chain.tax = halfUp((partCents + optionCents) * TAX_MILLI_PERCENT, 100_000)
  chain.total = subtotal + chain.tax
  chain.deposit = halfUp(chain.total * 30, 100)

  await customer.getByLabel(new RegExp(OPTION.name)).check()
  await customer.getByLabel('Your full name').fill('Dana Whitfield')
  const pad = customer.getByTestId('signature-pad')
  await pad.scrollIntoViewIfNeeded()
  const box = await pad.boundingBox()
  if (!box) throw new Error('no signature pad')
  await customer.mouse.move(box.x + 20, box.y + 40)
  await customer.mouse.down()
  await customer.mouse.move(box.x + 120, box.y + 90, { steps: 8 })
  await customer.mouse.move(box.x + 220, box.y + 30, { steps: 8 })
  await customer.mouse.up()
  await expect(customer.getByRole('button', { name: 'Clear signature' })).toBeVisible()
  const sessions = fake.sessions.length
  await customer.getByRole('button', { name: 'Approve and pay deposit' }).click()
  await customer.waitForURL(`${fake.url}/c/pay/**`)
  await expect(customer.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  expect(fake.sessions.length).toBe(sessions + 1)
  const session = fake.sessions.find((s) => customer.url().endsWith(s.id))
  expect(session).toMatchObject({
    mode: 'payment',
    amount_total: chain.deposit,
    metadata: { kind: 'quote-deposit', quote_id: chain.quoteId, customer_id: chain.danaId },
  })

  // She pays on Stripe's page and comes back before the webhook: "Payment processing".
  const completed = fake.completeCheckout(session?.id ?? '')
  await customer.goto(completed.success_url)
  await waitForHydration(customer)
  await expect(
    customer.getByText(`Payment processing: your deposit of ${usd(chain.deposit)} is on its way.`, { exact: false }),
  ).toBeVisible()

  // Stripe tells the webhook, signed (and again: recorded once).
  const event = fake.event('checkout.session.completed', completed)
  for (let i = 0; i < 2; i++) {
    const delivered = await fetch(`${server.origin}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      body: event.payload,
    })
    expect(delivered.status).toBe(200)
  }
  await customer.reload()
  await waitForHydration(customer)
  await expect(customer.getByText(`Thank you — your deposit of ${usd(chain.deposit)} was received.`)).toBeVisible()
  await expect(
    customer.getByText(`You approved this quote for ${usd(chain.total)}, with the options you chose. Thank you!`),
  ).toBeVisible()
  await capture(customer, testInfo, 'portal-quote-deposit-received')
  await dana.context.close()

  // The office: approved, signed, and the deposit paid by card today.
  await goto(page, `/app/quotes/${chain.quoteId}`)
  await expect(page.getByText(/Approved and signed by Dana Whitfield in the portal/)).toBeVisible()
  await expect(page.getByTestId('approved-total')).toHaveText(usd(chain.total))
  await expect(page.getByTestId('deposit-paid')).toHaveText(
    new RegExp(`^Deposit paid ${usd(chain.deposit).replace('$', '\\$')} on [A-Z][a-z]{2} \\d{1,2}, \\d{4} \\(card\\)$`),
  )
  await expect(page.getByTestId('deposit-due')).toHaveCount(0)
})

test('the part goes to Tyler’s truck; a work order of two visits for Tyler and Maya; Tyler fits the part and both complete', async ({
  browser,
  page,
  extraHTTPHeaders,
}, testInfo) => {
  test.setTimeout(240_000)
  await page.route('**/app/events', (route) => route.abort())
  await logIn(page, 'owner@bluelagoon.test')

  // Two of the five move from the Warehouse to Tyler's truck (made by this first transfer).
  await goto(page, `/app/inventory?q=${PART.sku}`)
  await page.getByRole('link', { name: `Locations and history of ${PART.name}` }).click()
  await expect(page.getByRole('heading', { level: 1, name: PART.name })).toBeVisible()
  await waitForHydration(page)
  chain.itemUrl = new URL(page.url()).pathname
  const transfer = page.locator('form#transfer')
  await transfer.getByLabel('From').selectOption({ label: 'Warehouse' })
  await transfer.getByLabel('To').selectOption({ label: 'Truck — Tyler Brooks' })
  await transfer.getByLabel('Quantity').fill('2')
  await transfer.getByRole('button', { name: 'Transfer' }).click()
  await expect(transfer.getByText('Moved 2 from Warehouse to Truck — Tyler Brooks.')).toBeVisible()

  // The work order from the approved quote: two visits, a couple of days ahead, Tyler on one and Maya on the other.
  await goto(page, `/app/quotes/${chain.quoteId}`)
  const create = page.getByRole('region', { name: 'Create work order' })
  await create.getByLabel('Start date').fill(new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10))
  await create.getByLabel('Visits').selectOption('2')
  await create.getByLabel('Technician for visit 1').selectOption({ label: 'Tyler Brooks' })
  await create.getByLabel('Technician for visit 2').selectOption({ label: 'Maya Flores' })
  await create.getByRole('button', { name: 'Create work order' }).click()
  await expect(page.getByText('Work order created.')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: /^Work order WO-\d{4}$/ })).toBeVisible()
  chain.workOrderPath = new URL(page.url()).pathname
  chain.number = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Work order ', '')
  const visits = page.getByRole('region', { name: 'Visits' })
  await expect(visits.getByText('Tyler Brooks')).toBeVisible()
  await expect(visits.getByText('Maya Flores')).toBeVisible()
  chain.firstVisit = (await visits.getByRole('link', { name: '1. Visit 1' }).getAttribute('href')) ?? ''
  chain.secondVisit = (await visits.getByRole('link', { name: '2. Visit 2' }).getAttribute('href')) ?? ''
  expect(chain.firstVisit).toMatch(/^\/app\/visits\//)
  expect(chain.secondVisit).toMatch(/^\/app\/visits\//)

  // Tyler, on his phone: the part recorded on his visit (taken off his truck), then the visit completed.
  const tyler = await phone(browser, extraHTTPHeaders, 'tech@bluelagoon.test')
  await goto(tyler.page, chain.firstVisit)
  const section = tyler.page.getByRole('region', { name: `Work order ${chain.number}` })
  await expect(section).toBeVisible()
  const option = section.locator('option', { hasText: PART.name })
  await section.getByLabel('Stock item').selectOption((await option.getAttribute('value')) ?? '')
  await section.getByLabel('Quantity').fill('1')
  await section.getByRole('button', { name: 'Record part used' }).click()
  await expect(section.getByText(`Recorded 1 × ${PART.name}.`)).toBeVisible()
  await capture(tyler.page, testInfo, 'repairs-chain-visit')
  await completeVisit(tyler.page, chain.firstVisit, 'Tyler Brooks')
  // "My truck": one left of the two.
  await goto(tyler.page, '/app/truck')
  await expect(tyler.page.getByRole('heading', { name: 'Truck — Tyler Brooks' })).toBeVisible()
  await expect(tyler.page.getByRole('listitem').filter({ hasText: PART.name })).toHaveText(
    new RegExp(`^${PART.name}\\s*1(?!\\d)`),
  )
  await tyler.context.close()

  // Maya, on hers: the other visit completed.
  const maya = await phone(browser, extraHTTPHeaders, 'tech2@bluelagoon.test')
  await completeVisit(maya.page, chain.secondVisit, 'Maya Flores')
  await maya.context.close()
})

test('the office completes and invoices the work order: every line, the tax, the deposit and the amount due to the cent; the stock follows', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000)
  await page.route('**/app/events', (route) => route.abort())
  await logIn(page, 'owner@bluelagoon.test')

  await goto(page, chain.workOrderPath)
  await page.getByRole('button', { name: 'Complete work order' }).click()
  await page.getByRole('button', { name: 'Yes, complete' }).click()
  await expect(page.getByText('Work order completed.')).toBeVisible()
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Create invoice' }).click()
  await page.getByRole('button', { name: 'Yes, create invoice' }).click()
  await expect(page).toHaveURL(/\/app\/invoices\/[0-9a-f-]+$/)
  await expect(
    page.getByText(new RegExp(`^Invoice INV-\\d{4} created\\. Deposit received: \\${usd(chain.deposit)}\\.$`)),
  ).toBeVisible()

  // Every line as quoted (the part fitted is the quote's line, not billed again), then the totals.
  const line = (description: string) =>
    page.getByRole('row').filter({ has: page.getByRole('cell', { name: description, exact: true }) })
  await expect(line(PART.name).getByRole('cell').last()).toHaveText(usd(partCents))
  await expect(line(LABOR.name).getByRole('cell').last()).toHaveText(usd(laborCents))
  await expect(line(OPTION.name).getByRole('cell').last()).toHaveText(usd(optionCents))
  await expect(page.getByRole('cell', { name: /\(part used\)/ })).toHaveCount(0)
  await expect(totalOf(page, /^Subtotal$/)).toHaveText(usd(subtotal))
  await expect(totalOf(page, /7\.25 ?%/)).toHaveText(usd(chain.tax))
  await expect(totalOf(page, /^Total$/)).toHaveText(usd(chain.total))
  await expect(totalOf(page, /^Total due on sending$/)).toHaveText(usd(chain.total - chain.deposit))
  const received = page.getByRole('region', { name: 'Payments' }).getByRole('listitem')
  await expect(received).toHaveCount(1)
  await expect(received).toContainText('Deposit received · ')
  await expect(received).toContainText(usd(chain.deposit))
  await capture(page, testInfo, 'repairs-chain-invoice')

  // The item: the transfer and the use in its history, newest first; one left on Tyler's truck, three at the warehouse.
  await goto(page, chain.itemUrl)
  const rows = page.getByRole('list', { name: 'Stock changes, newest first' }).getByRole('listitem')
  await expect(rows).toHaveCount(4)
  await expect(rows.nth(0)).toContainText('Used on a visit · Truck — Tyler Brooks-1')
  await expect(rows.nth(0)).toContainText('then 1')
  // The same visit, whose page leads back to this item (the work order's link led back to the work order).
  const visitPage = new URL(chain.firstVisit, 'http://x').pathname
  await expect(rows.nth(0).getByRole('link', { name: 'Visit' })).toHaveAttribute(
    'href',
    `${visitPage}?${new URLSearchParams({ from: new URL(chain.itemUrl, 'http://x').pathname })}`,
  )
  await expect(rows.nth(1)).toContainText('Transferred in · Truck — Tyler Brooks+2')
  await expect(rows.nth(2)).toContainText('Transferred out · Warehouse-2')
  await expect(rows.nth(3)).toContainText('Starting stock · Warehouse')
  const locations = page
    .locator('section, div')
    .filter({ has: page.getByRole('heading', { name: 'Stock by location' }) })
    .last()
  await expect(locations.getByRole('listitem').filter({ hasText: 'Truck — Tyler Brooks' })).toContainText(
    /Truck — Tyler Brooks\s*1(?!\d)/,
  )
  await expect(locations.getByRole('listitem').filter({ hasText: 'Warehouse' })).toContainText(/Warehouse\s*3(?!\d)/)
})
