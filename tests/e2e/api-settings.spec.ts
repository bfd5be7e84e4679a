// Settings → "API keys" and "Webhooks" (issue 34): a key is shown once and can be revoked (asked first); an endpoint
// is added with its secret shown, a test event reaches a local receiver, and the delivery log shows it.
// Runs in the 'company' project: it adds its own key and endpoint to Sunset Pools and removes them again.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import AxeBuilder from '@axe-core/playwright'
import { expect, gotoHydrated, loginAs, test } from './fixtures'

const OWNER = 'owner@sunsetpools.test'

test('an API key is shown once and revoked after a confirmation', async ({ page }) => {
  await loginAs(page, OWNER, { open: '/app/settings' })
  await page.getByRole('link', { name: 'Manage API keys' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible()
  const name = `Sync ${Date.now()}`
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Access').selectOption('write')
  await page.getByRole('button', { name: 'Create API key' }).click()
  const shown = page.getByTestId('new-api-key')
  await expect(shown).toHaveText(/^pb_live_[A-Za-z0-9_-]{43}$/)
  const key = (await shown.textContent()) ?? ''
  const row = page.getByRole('listitem').filter({ hasText: name })
  await expect(row).toContainText('Read and write')
  await expect(row).toContainText('Last used never')
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])

  // The key works, and the list then says it was used.
  const answer = await page.request.get('/api/v1/customers?limit=1', { headers: { authorization: `Bearer ${key}` } })
  expect(answer.status()).toBe(200)
  await gotoHydrated(page, '/app/settings/api-keys')
  await expect(page.getByTestId('new-api-key')).toHaveCount(0)
  await expect(page.getByText(key)).toHaveCount(0)
  await expect(page.getByRole('listitem').filter({ hasText: name })).not.toContainText('Last used never')

  await page.getByRole('button', { name: `Revoke ${name}` }).click()
  await expect(page.getByText(`Revoke “${name}”?`)).toBeVisible()
  await page.getByRole('button', { name: 'Yes, revoke key' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'API key revoked.' })).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(0)
  const refused = await page.request.get('/api/v1/customers', { headers: { authorization: `Bearer ${key}` } })
  expect(refused.status()).toBe(401)
})

test('a webhook endpoint gets a test event and its delivery log shows it', async ({ page }) => {
  const bodies: string[] = []
  const server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      bodies.push(body)
      response.writeHead(204)
      response.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${Date.now()}`
  try {
    await loginAs(page, OWNER, { open: '/app/settings/webhooks' })
    await page.getByLabel('Endpoint URL').fill(url)
    await page.getByRole('checkbox', { name: /Customer created/ }).check()
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/)
    const card = page.getByRole('region', { name: url })
    await card.getByRole('button', { name: 'Send test event' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Test event queued' })).toBeVisible()
    await expect.poll(() => bodies.length, { timeout: 30_000 }).toBeGreaterThan(0)
    expect(JSON.parse(bodies[0] ?? '{}')).toMatchObject({ type: 'endpoint.test' })
    await expect(async () => {
      await page.reload()
      await expect(page.getByRole('table', { name: `Delivery log of ${url}` })).toContainText('204', { timeout: 1000 })
    }).toPass({ timeout: 30_000 })
    await expect(page.getByRole('table', { name: `Delivery log of ${url}` })).toContainText('endpoint.test')
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])
    await page.getByRole('region', { name: url }).getByRole('button', { name: 'Delete endpoint' }).click()
    await page.getByRole('button', { name: 'Yes, delete endpoint' }).click()
    await expect(page.getByRole('region', { name: url })).toHaveCount(0)
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})
