// A create form carries an idempotency key that works without JavaScript: each rendered form has its own, a new
// one comes with the page after a success, and sending the first form again (a retry after a dropped connection)
// does not create a second visit.
import { randomBytes } from 'node:crypto'
import { pickCustomer } from './customer-picker'
import { DEMO_PASSWORD, expect, test, waitForHydration } from './fixtures'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

test('without JavaScript, a create-visit form sent twice makes one visit, and the next form has a new key', async ({
  browser,
  extraHTTPHeaders,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders })
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel('Email', { exact: true }).fill('dispatch@bluelagoon.test')
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Dispatch' })).toBeVisible()

  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create visit' }) })
  const keyField = form.locator('input[type="hidden"][name="idempotencyKey"]')
  const firstKey = await keyField.inputValue()
  expect(firstKey).toMatch(UUID)

  const name = `Retry ${randomBytes(4).toString('hex')}`
  // Without JavaScript there is no list to choose from: the typed name finds the customer.
  await form.getByLabel('Customer', { exact: true }).fill('Dana Whitfield')
  await form.getByLabel('Customer name').fill(name)
  await form.getByLabel('Service address').fill('9 Retry Lane')
  const scheduledAt = await form.getByLabel('Scheduled for').inputValue()
  await form.getByRole('button', { name: 'Create visit' }).click()
  await expect(page.getByText('Visit created.')).toBeVisible()
  const visitHref = await page.getByRole('link', { name: 'Open it' }).getAttribute('href')

  // The page after the success carries a new key for the next visit.
  const nextKey = await keyField.inputValue()
  expect(nextKey).toMatch(UUID)
  expect(nextKey).not.toBe(firstKey)

  // The same form again, as a browser retrying the post whose answer was lost: told it worked, the same visit.
  const formAction = (await form.getAttribute('action')) ?? ''
  expect(formAction).toBe('/app?index')
  const retry = await page.request.post(formAction, {
    headers: { origin: new URL(baseURL as string).origin },
    form: {
      intent: 'create-visit',
      customerId: '',
      customerQuery: 'Dana Whitfield',
      locationId: '',
      customerName: name,
      address: '9 Retry Lane',
      scheduledAt,
      technicianId: '',
      idempotencyKey: firstKey,
    },
  })
  expect(retry.status()).toBe(200)
  const html = await retry.text()
  expect(html).toContain('Visit created.')
  expect(html).toContain(`href="${visitHref}"`)

  // One visit of that name in the recent activity.
  await page.goto('/app')
  const recent = page.locator('section', { has: page.getByRole('heading', { name: 'Recent activity' }) })
  await expect(recent.getByRole('link', { name, exact: true })).toHaveCount(1)
  await context.close()
})

test('with JavaScript, the create-visit form keeps its key while the page reloads its data, and takes a new one after each visit', async ({
  page,
  loginAs,
}) => {
  await loginAs(page, 'dispatch@bluelagoon.test')
  await expect(page.getByRole('heading', { level: 1, name: 'Dispatch' })).toBeVisible()
  await waitForHydration(page)
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create visit' }) })
  const keyField = form.locator('input[type="hidden"][name="idempotencyKey"]')
  const firstKey = await keyField.inputValue()
  expect(firstKey).toMatch(UUID)

  // A visit created elsewhere re-runs the page's loader (a live update; the loader makes a new key): the form keeps
  // the one it has, so a retry of the same entry would still be recognized.
  const customerId = await pickCustomer(form, 'Dana Whitfield')
  const elsewhere = `Elsewhere ${Date.now()}`
  const created = await page.request.post('/app?index', {
    headers: { origin: new URL(page.url()).origin },
    form: {
      intent: 'create-visit',
      customerId,
      customerName: elsewhere,
      address: '1 Elsewhere Rd',
      scheduledAt: await form.getByLabel('Scheduled for').inputValue(),
      idempotencyKey: crypto.randomUUID(),
    },
  })
  expect(created.status()).toBe(200)
  const recent = page.locator('section', { has: page.getByRole('heading', { name: 'Recent activity' }) })
  await expect(recent.getByRole('link', { name: elsewhere, exact: true })).toBeVisible()
  expect(await keyField.inputValue()).toBe(firstKey)

  // Two visits in a row, without reloading: each is its own visit, and each success brings a new key.
  const visitIds: string[] = []
  const keys = [firstKey]
  for (const name of [`Twice A ${Date.now()}`, `Twice B ${Date.now()}`]) {
    if (visitIds.length > 0) await pickCustomer(form, 'Dana Whitfield')
    await form.getByLabel('Customer name').fill(name)
    await form.getByRole('button', { name: 'Create visit' }).click()
    const link = page.getByRole('link', { name: 'Open it' })
    await expect(link).toHaveAttribute('href', new RegExp(`^/app/visits/(?!${visitIds.at(-1) ?? 'none'}$)`))
    visitIds.push((await link.getAttribute('href'))?.split('/').pop() ?? '')
    await expect(keyField).not.toHaveValue(keys.at(-1) ?? '')
    keys.push(await keyField.inputValue())
  }
  expect(new Set(visitIds).size).toBe(2)
  expect(new Set(keys).size).toBe(3)
  for (const key of keys) expect(key).toMatch(UUID)
})
