// Card payments in a real browser against the built server with Stripe configured — pointed at a local server that
// speaks Stripe's API (tests/helpers/fake-stripe.ts), so nothing leaves the machine. The run's shared server has no
// Stripe, so this spec starts its own (embedded database, demo data). "Save card for automatic payments" takes the
// customer to Checkout's page (with and without JavaScript: a posted form redirected to Checkout must pass the CSP's
// form-action), and once Stripe's signed webhook says the setup is complete the portal names the card.
import { type FakeStripe, startFakeStripe } from '../helpers/fake-stripe'
import { type ProductionServer, startProductionServer } from '../helpers/production-server'
import { capture, DEMO_PASSWORD, expect, test, VIEWPORTS, waitForHydration } from './fixtures'

let fake: FakeStripe
let server: ProductionServer

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  // Its own server is migrated and seeded first: on two busy cores that alone can take minutes.
  test.setTimeout(300_000)
  fake = await startFakeStripe()
  server = await startProductionServer({ env: fake.env() })
})
test.afterAll(async () => {
  await server?.cleanup()
  await fake?.close()
})

async function logInAsDana(page: import('@playwright/test').Page, javaScript: boolean) {
  await page.goto(`${server.origin}/login`)
  if (javaScript) await waitForHydration(page)
  await page.getByLabel('Email', { exact: true }).fill('customer@bluelagoon.test')
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  await page.waitForURL(/\/customer\/[0-9a-f-]{36}$/)
  if (javaScript) await waitForHydration(page)
  return new URL(page.url()).pathname.split('/')[2] as string
}

test('"Save card for automatic payments" opens Checkout; the signed webhook saves the card', async ({
  page,
}, testInfo) => {
  const customerId = await logInAsDana(page, true)
  const section = page.locator('#autopay')
  await expect(section.getByText('Save a card and each invoice is paid from it when it is sent.')).toBeVisible()
  await section.getByRole('button', { name: 'Save card for automatic payments' }).click()
  await page.waitForURL(`${fake.url}/c/pay/**`)
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  const session = fake.sessions.find((s) => page.url().endsWith(s.id))
  expect(session).toMatchObject({ mode: 'setup', metadata: { customer_id: customerId } })

  // The customer saves a card on Stripe's page; Stripe tells the webhook, signed.
  const completed = fake.completeCheckout(session?.id ?? '', { card: { brand: 'visa', last4: '4242' } })
  const event = fake.event('checkout.session.completed', completed)
  const forged = await fetch(`${server.origin}/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    body: event.payload,
  })
  expect(forged.status).toBe(400)
  const delivered = await fetch(`${server.origin}/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    body: event.payload,
  })
  expect(delivered.status).toBe(200)

  await page.goto(completed.success_url)
  await expect(section.getByText('Invoices are charged to your Visa ending 4242 when they are sent.')).toBeVisible()
  for (const size of [{ width: 360, height: 740 }, ...VIEWPORTS]) {
    await page.setViewportSize(size)
    await capture(page, testInfo, 'portal-autopay')
  }
})

test('"Pay invoice" pressed in two tabs opens the same Checkout session (N6)', async ({ page, context }) => {
  await logInAsDana(page, true)
  // An invoice of Dana's that still owes (the demo's opening balance is sent and unpaid).
  const owing = page
    .getByRole('list', { name: 'Your invoices, newest first' })
    .getByRole('listitem')
    .filter({ hasText: /\$[\d,]+\.\d\d due/ })
    .first()
  const href = (await owing.getByRole('link').getAttribute('href')) ?? ''
  expect(href).toMatch(/\/invoices\//)
  const tab = await context.newPage()
  for (const each of [page, tab]) {
    await each.goto(`${server.origin}${href}`)
    await waitForHydration(each)
  }
  const before = fake.sessions.length
  await Promise.all([
    page.getByRole('button', { name: 'Pay invoice', exact: true }).click(),
    tab.getByRole('button', { name: 'Pay invoice', exact: true }).click(),
  ])
  await page.waitForURL(`${fake.url}/c/pay/**`)
  await tab.waitForURL(`${fake.url}/c/pay/**`)
  expect(tab.url()).toBe(page.url())
  const made = fake.sessions.slice(before)
  expect(made).toHaveLength(1)
  expect(made[0]).toMatchObject({ mode: 'payment', status: 'open', url: page.url() })
  await tab.close()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the posted form is redirected to Checkout, within the content security policy', async ({ page }) => {
    await logInAsDana(page, false)
    await page.locator('#autopay').getByRole('button', { name: 'Save card for automatic payments' }).click()
    await page.waitForURL(`${fake.url}/c/pay/**`)
    await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  })
})
