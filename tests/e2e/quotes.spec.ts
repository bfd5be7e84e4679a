// Quotes end to end (issue 33 items 2–3): the office starts a quote for a new customer of its own from the customer's
// record, adds a line and an optional item, and sends it; the customer sets up the portal from the invite, opens the
// quote from its email, ticks the optional item, types their name, signs on the canvas and approves; the office sees
// Approved with the amounts. The approval page fits a 360 px phone and passes axe.
//
// Other specs change Blue Lagoon at the same time (its tax rate among them): the customer is this spec's own, and
// the tax is read from the quote's own "Tax (…%)" line.
import { randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { capture, expect, gotoHydrated, test, waitForHydration } from './fixtures'
import { extractLink, waitForEmail } from './mail'

const PHONE = { width: 360, height: 740 }
const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100)

test('the office sends a quote with an optional item; the customer ticks it, signs and approves', async ({
  browser,
  page,
  loginAs,
  extraHTTPHeaders,
}, testInfo) => {
  test.setTimeout(180_000)
  const suffix = randomBytes(3).toString('hex')
  const name = `Quote Cove ${suffix}`
  const email = `quote.${suffix}@example.com`
  await page.route('**/app/events', (route) => route.abort())

  // A new customer with an email: the portal invite goes out.
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/customers/new' })
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address').fill('12 Estimate Row')
  await page.getByLabel('City').fill('Tampa')
  await page.getByLabel('State').fill('FL')
  await page.getByLabel('Email (optional)').fill(email)
  const invitedAfter = new Date()
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  const invite = extractLink(await waitForEmail({ to: email, after: invitedAfter }), '/api/auth/magic-link/verify')

  // "New quote" on the record opens the draft.
  await waitForHydration(page)
  await page.getByRole('button', { name: 'New quote', exact: true }).click()
  await expect(page).toHaveURL(/\/app\/quotes\/[0-9a-f-]+$/)
  await expect(page.getByRole('heading', { level: 1, name: /^Quote Q-\d{4}$/ })).toBeVisible()
  const quotePath = new URL(page.url()).pathname
  await waitForHydration(page)
  const addLine = page.getByRole('region', { name: 'Add line' })
  await addLine.getByLabel('Description').fill('Replace pump motor')
  await addLine.getByLabel('Quantity').fill('1')
  await addLine.getByLabel('Unit price ($)').fill('850')
  await addLine.getByRole('button', { name: 'Add line' }).click()
  await expect(page.getByRole('cell', { name: 'Replace pump motor' })).toBeVisible()
  await addLine.getByLabel('Description').fill('Salt cell upgrade')
  await addLine.getByLabel('Quantity').fill('1')
  await addLine.getByLabel('Unit price ($)').fill('400')
  await addLine.getByLabel('Optional').check()
  await addLine.getByRole('button', { name: 'Add line' }).click()
  await expect(page.getByRole('cell', { name: /Salt cell upgrade/ })).toBeVisible()
  await expect(page.getByText('Optional items are not in the total until chosen.')).toBeVisible()

  const sentAfter = new Date()
  await page.getByRole('button', { name: 'Send quote' }).click()
  await page.getByRole('button', { name: 'Yes, send quote' }).click()
  await expect(page.getByText(`Quote sent to ${email}.`)).toBeVisible()
  const quoteEmail = await waitForEmail({ to: email, subject: /: quote Q-\d{4}/, after: sentAfter })
  const portalQuote = new URL(extractLink(quoteEmail, '/quotes/')).pathname

  // The customer sets up the portal from the invite, in their own browser, and opens the quote.
  const context = await browser.newContext({
    extraHTTPHeaders: { ...extraHTTPHeaders, 'x-forwarded-for': '10.97.0.33' },
    viewport: PHONE,
  })
  const customer = await context.newPage()
  await customer.goto(invite)
  await expect(customer).toHaveURL((url) => url.pathname === '/customer-setup')
  await waitForHydration(customer)
  await customer.getByLabel('Password', { exact: true }).fill('clear-water-1')
  await customer.getByLabel('Confirm password', { exact: true }).fill('clear-water-1')
  await customer.getByRole('button', { name: 'Finish setup' }).click()
  await expect(customer).toHaveURL((url) => /^\/customer\/[^/]+$/.test(url.pathname))
  await expect(customer.getByRole('region', { name: 'Quotes' })).toBeVisible()
  await gotoHydrated(customer, portalQuote)
  await expect(customer.getByRole('heading', { level: 1, name: /^Quote Q-\d{4}$/ })).toBeVisible()
  await expect(customer.getByText('Viewed', { exact: true })).toBeVisible()

  // The approval page at phone width: no sideways scroll, no serious axe violation.
  const { violations } = await new AxeBuilder({ page: customer }).analyze()
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect(serious, 'serious or critical axe violations').toEqual([])
  await capture(customer, testInfo, 'portal-quote-approval')

  const taxLabel = (await customer.getByText(/^Tax \([\d.]+%\)$/).textContent()) ?? ''
  const rate = Number(/\(([\d.]+)%\)/.exec(taxLabel)?.[1] ?? '0')
  const subtotal = 85_000 + 40_000
  const total = subtotal + Math.floor((subtotal * rate) / 100 + 0.5)

  await customer.getByLabel(/Salt cell upgrade/).check()
  await customer.getByLabel('Your full name').fill(name)
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
  await customer.getByRole('button', { name: 'Approve' }).click()
  await expect(customer.getByText(`Thank you: quote approved for ${usd(total)}.`)).toBeVisible()
  await expect(
    customer.getByText(`You approved this quote for ${usd(total)}, with the options you chose. Thank you!`),
  ).toBeVisible()
  await context.close()

  // The office sees Approved, who signed, and the amounts with the option chosen.
  await gotoHydrated(page, quotePath)
  await expect(page.getByText('Approved', { exact: true }).first()).toBeVisible()
  await expect(page.getByText(new RegExp(`Approved and signed by ${name} in the portal`))).toBeVisible()
  await expect(page.getByText('Signature drawn and kept.')).toBeVisible()
  await expect(page.getByTestId('approved-total')).toHaveText(usd(total))
  await expect(page.getByRole('button', { name: 'Send quote' })).toHaveCount(0)
  await gotoHydrated(page, '/app/quotes?status=Approved')
  await expect(page.getByRole('link', { name: new RegExp(name) })).toBeVisible()
})

test('the owner keeps a price book item, archives and restores it, and a quote line starts from it', async ({
  page,
  loginAs,
}) => {
  test.setTimeout(120_000)
  const suffix = randomBytes(3).toString('hex')
  const item = `Pump seal kit ${suffix}`
  await page.route('**/app/events', (route) => route.abort())
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/settings' })
  await page.getByRole('link', { name: 'Open price book' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Price book' })).toBeVisible()
  await waitForHydration(page)
  const form = page.getByRole('region', { name: 'Add an item' })
  await form.getByLabel('Name').fill(item)
  await form.getByLabel('Price ($)').fill('45.5')
  await form.getByLabel('Cost ($)').fill('20')
  await form.getByRole('button', { name: 'Add item' }).click()
  await expect(page.getByText(`Added ${item}.`)).toBeVisible()

  // Archive asks first; an archived item shows only with "Show archived items", where it can be restored.
  await gotoHydrated(page, '/app/settings/price-book')
  const row = page.getByRole('listitem').filter({ hasText: item })
  await expect(row.getByText('Part · $45.50 · cost $20.00 · Taxable')).toBeVisible()
  await row.getByRole('button', { name: 'Archive' }).click()
  await row.getByRole('button', { name: 'Yes, archive' }).click()
  await expect(page.getByRole('listitem').filter({ hasText: item })).toHaveCount(0)
  await page.getByRole('link', { name: 'Show archived items' }).click()
  const archived = page.getByRole('listitem').filter({ hasText: item })
  await expect(archived.getByText('(Archived)')).toBeVisible()
  await archived.getByRole('button', { name: `Restore ${item}` }).click()
  // Restored once the page says so: leaving before that would cancel the restore on its way.
  await expect(page.getByText('Item restored.')).toBeVisible()
  await gotoHydrated(page, '/app/settings/price-book')
  await expect(page.getByRole('listitem').filter({ hasText: item })).toHaveCount(1)

  // A quote line from the price book takes the item's name and price.
  await gotoHydrated(page, '/app/customers/new')
  await page.getByLabel('Name', { exact: true }).fill(`Price Book Cove ${suffix}`)
  await page.getByLabel('Service address').fill('14 Estimate Row')
  await page.getByLabel('City').fill('Tampa')
  await page.getByLabel('State').fill('FL')
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByRole('heading', { level: 1, name: `Price Book Cove ${suffix}` })).toBeVisible()
  await waitForHydration(page)
  await page.getByRole('button', { name: 'New quote', exact: true }).click()
  await expect(page).toHaveURL(/\/app\/quotes\/[0-9a-f-]+$/)
  await waitForHydration(page)
  // "Find in price book" narrows the editor's list to the items whose name contains the text.
  await page.getByRole('searchbox', { name: 'Find in price book' }).fill(item)
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page).toHaveURL(/\?item=/)
  await waitForHydration(page)
  const addLine = page.getByRole('region', { name: 'Add line' })
  await addLine.getByLabel('Price book item').selectOption({ label: `${item} — $45.50 (Part)` })
  await addLine.getByLabel('Quantity').fill('2')
  await addLine.getByRole('button', { name: 'Add line' }).click()
  await expect(page.getByRole('cell', { name: item })).toBeVisible()
  await expect(page.getByRole('cell', { name: '$91.00' })).toBeVisible()
})

test('"New quote" on an equipment item opens a quote for it, listed in the item\'s history', async ({
  page,
  loginAs,
}) => {
  await page.route('**/app/events', (route) => route.abort())
  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers?q=Dana%20Whitfield' })
  await page.getByRole('link', { name: 'Dana Whitfield' }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Dana Whitfield' })).toBeVisible()
  await waitForHydration(page)
  const newQuote = page.getByRole('button', { name: /^New quote for / }).first()
  const label = ((await newQuote.getAttribute('aria-label')) ?? '').replace(/^New quote for /, '')
  await newQuote.click()
  await expect(page).toHaveURL(/\/app\/quotes\/[0-9a-f-]+$/)
  await expect(page.getByTestId('quote-equipment')).toContainText(`For: ${label}`)
  const number = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Quote ', '').trim()
  await page.goBack()
  await page.getByRole('link', { name: `History of ${label}` }).click()
  await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible()
  await expect(page.getByRole('link', { name: number })).toBeVisible()
})
