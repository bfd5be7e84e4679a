// "Adjust position" with the pin (issue 32 item 1, docs/subsystems.md "Positions"): on the location's form the pin is
// dragged with the mouse or moved with the arrow keys, the Latitude and Longitude boxes follow, and saving stores
// the new point; the form fits a 360 px phone and passes axe.
import { randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { capture, expect, test, waitForHydration } from './fixtures'

test('dragging the pin and pressing the arrow keys adjust the position that is saved', async ({
  page,
  loginAs,
}, testInfo) => {
  const suffix = randomBytes(3).toString('hex')
  const street = `${Number.parseInt(suffix, 16) % 9000} Pin Drop Way`

  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(`Pin Drop ${suffix}`)
  await page.getByLabel('Service address').fill(street)
  await page.getByLabel('ZIP').fill('33606')
  await page.getByLabel('Latitude').fill('27.929000')
  await page.getByLabel('Longitude').fill('-82.480100')
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByText('Customer saved.')).toBeVisible()

  await page.getByRole('link', { name: `Edit ${street}` }).click()
  await waitForHydration(page)
  await page.getByText('Adjust position', { exact: true }).click()
  const latitude = page.getByLabel('Latitude')
  const longitude = page.getByLabel('Longitude')
  const pin = page.getByRole('button', { name: 'Position pin: drag, or use the arrow keys' })
  await expect(pin).toBeVisible()

  // Drag the pin down and to the right: south-east, a few hundred meters.
  const box = await pin.boundingBox()
  if (!box) throw new Error('The pin has no box')
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  await page.mouse.move(x, y)
  await page.mouse.down()
  await page.mouse.move(x + 30, y + 20, { steps: 5 })
  await page.mouse.up()
  await expect(latitude).not.toHaveValue('27.929000')
  const dragged = { lat: Number(await latitude.inputValue()), lng: Number(await longitude.inputValue()) }
  expect(dragged.lat).toBeLessThan(27.929)
  expect(dragged.lng).toBeGreaterThan(-82.4801)
  // Street-level: the drag moved it less than a kilometer.
  expect(27.929 - dragged.lat).toBeLessThan(0.01)

  // The arrow key moves it north by a step.
  await pin.focus()
  await page.keyboard.press('ArrowUp')
  await expect.poll(async () => Number(await latitude.inputValue())).toBeGreaterThan(dragged.lat)
  await expect(page.getByText(/^Pin moved to latitude 27\.\d{5}, longitude -82\.\d{5}$/)).toBeAttached()
  const moved = { lat: Number(await latitude.inputValue()), lng: Number(await longitude.inputValue()) }
  expect(moved.lng).toBeCloseTo(dragged.lng, 6)

  // Typing in the boxes moves the pin back; the boxes are the truth.
  const before = await pin.boundingBox()
  await latitude.fill((moved.lat + 0.001).toFixed(6))
  await expect.poll(async () => (await pin.boundingBox())?.y).toBeLessThan(before?.y ?? 0)
  await latitude.fill(moved.lat.toFixed(6))

  // A phone: the form fits 360 px and passes axe.
  await page.setViewportSize({ width: 360, height: 800 })
  await expect(pin).toBeVisible()
  await capture(page, testInfo, 'location-pin')
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([])

  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Service location saved.')).toBeVisible()
  await expect(page.getByText(`Set by hand (${moved.lat.toFixed(5)}, ${moved.lng.toFixed(5)})`)).toBeVisible()

  // Reopened, the form holds the saved point and the pin stands on it.
  await page.getByRole('link', { name: `Edit ${street}` }).click()
  await waitForHydration(page)
  await page.getByText('Adjust position', { exact: true }).click()
  expect(Number(await latitude.inputValue())).toBeCloseTo(moved.lat, 6)
  expect(Number(await longitude.inputValue())).toBeCloseTo(moved.lng, 6)
  await expect(pin).toBeVisible()
})

test('a pool placed at its ZIP center shows the pin there, and moving it sets the position by hand', async ({
  page,
  loginAs,
}) => {
  const suffix = randomBytes(3).toString('hex')
  const street = `${Number.parseInt(suffix, 16) % 9000} Zip Pin Court`

  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill(`Zip Pin ${suffix}`)
  await page.getByLabel('Service address').fill(street)
  await page.getByLabel('ZIP').fill('33606')
  await page.getByRole('button', { name: 'Add customer' }).click()
  await expect(page.getByText(/^Approximate: ZIP center \(27\.\d+, -82\.\d+\)$/)).toBeVisible()

  await page.getByRole('link', { name: `Edit ${street}` }).click()
  await waitForHydration(page)
  // Blank boxes ("placed by its address"), and the pin at the ZIP center to start from.
  await expect(page.getByLabel('Latitude')).toHaveValue('')
  await expect(page.getByText('Approximate: ZIP center. Move the pin to set it.')).toBeVisible()
  const pin = page.getByRole('button', { name: 'Position pin: drag, or use the arrow keys' })
  // A finger on the map off the pin is scrolling, not placing: the boxes stay blank.
  const map = page.locator('svg:has([data-pin])')
  const init = { pointerType: 'touch', isPrimary: true, pointerId: 7, button: 0, bubbles: true }
  await map.dispatchEvent('pointerdown', { ...init, clientX: 5, clientY: 5 })
  await map.dispatchEvent('pointerup', { ...init, clientX: 5, clientY: 5 })
  await expect(page.getByLabel('Latitude')).toHaveValue('')
  await pin.focus()
  await page.keyboard.press('Shift+ArrowRight')
  await expect(page.getByLabel('Latitude')).toHaveValue(/^27\.\d{6}$/)
  await expect(page.getByLabel('Longitude')).toHaveValue(/^-82\.\d{6}$/)
  await expect(page.getByText('Approximate: ZIP center. Move the pin to set it.')).toHaveCount(0)
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Service location saved.')).toBeVisible()
  await expect(page.getByText(/^Set by hand \(27\.\d{5}, -82\.\d{5}\)$/)).toBeVisible()
})
