// Every location gets a position with no network needed (issue 32 item 1, docs/subsystems.md "Positions"): a
// customer added with only a ZIP is placed at the ZIP's center and marked approximate; "Adjust position" on the
// location's form sets the point by hand and the mark goes.
import { randomBytes } from 'node:crypto'
import { expect, test, waitForHydration } from './fixtures'

test('a pool added with only a ZIP is approximate until "Adjust position" sets it by hand', async ({
  page,
  loginAs,
}) => {
  const suffix = randomBytes(3).toString('hex')
  const name = `Zip Only ${suffix}`
  const street = `${Number.parseInt(suffix, 16) % 9000} Bayshore Blvd`

  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Service address').fill(street)
  await page.getByLabel('ZIP').fill('33606')
  // No position yet: "Adjust position" is open, and blank means "place it by its address".
  await expect(page.getByLabel('Latitude')).toBeVisible()
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByText('Customer saved.')).toBeVisible()
  await expect(page.getByText(/^Approximate: ZIP center \(27\.\d+, -82\.\d+\)$/)).toBeVisible()

  await page.getByRole('link', { name: `Edit ${street}` }).click()
  await waitForHydration(page)
  await page.getByLabel('Latitude').fill('27.9290')
  await page.getByLabel('Longitude').fill('-82.4801')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Service location saved.')).toBeVisible()
  await expect(page.getByText('Set by hand (27.92900, -82.48010)')).toBeVisible()
  await expect(page.getByText(/^Approximate: ZIP center/)).toHaveCount(0)
})
