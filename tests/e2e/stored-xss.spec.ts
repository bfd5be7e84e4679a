// A stored script never runs (issue #8 §2): a customer whose name and address are HTML is
// shown as text everywhere office staff see it, and nothing executes.
import { randomBytes } from 'node:crypto'
import { expect, test, waitForHydration } from './fixtures'

test('a customer named like an <img onerror> tag is shown as text and runs nothing', async ({ page, loginAs }) => {
  const suffix = randomBytes(3).toString('hex')
  const name = `<img src=x onerror="window.__xss='${suffix}'">`
  const address = `<script>window.__xss='${suffix}'</script> 1 Script Lane`
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })

  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address').fill(address)
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByText('Customer saved.')).toBeVisible()
  // The record page, whose heading is the name, as text.
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible()

  // The list (server-rendered, then hydrated) shows the literal text.
  await page.goto(`/app/customers?q=${encodeURIComponent(suffix)}`)
  await waitForHydration(page)
  await expect(page.getByText(name, { exact: true }).first()).toBeVisible()
  await expect(page.getByText(address, { exact: true }).first()).toBeVisible()
  await expect(page.locator('img[src="x"]')).toHaveCount(0)

  // The visit form's customer picker, which renders search results on the client.
  await page.goto('/app')
  await waitForHydration(page)
  await page.getByRole('combobox', { name: 'Customer', exact: true }).fill(suffix)
  await expect(page.getByRole('option', { name })).toBeVisible()
  await expect(page.locator('img[src="x"]')).toHaveCount(0)

  expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined()
  expect(violations).toEqual([])
})
