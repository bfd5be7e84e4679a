// What the visit specs share: visits booked as the dispatcher (Dana Whitfield with Tyler Brooks, today on the
// company's clock) and photos to take on them.
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { pickCustomer } from './customer-picker'
import { expect, gotoHydrated } from './fixtures'

type LoginAs = (page: Page, email: string) => Promise<void>

/**
 * The dispatcher's new-visit form on the dashboard, untouched: the page as signing in left it, or else loaded afresh
 * (one page load fewer per booking test; a form that booked already shows its "Open it" link, so it is reloaded).
 */
async function newVisitForm(page: Page) {
  const untouched =
    new URL(page.url()).pathname === '/app' && (await page.getByRole('link', { name: 'Open it' }).count()) === 0
  if (!untouched) await gotoHydrated(page, '/app')
  return page.locator('form').filter({ has: page.getByRole('button', { name: 'Create visit' }) })
}

/**
 * Books `count` open visits for Dana with Tyler, a minute apart, starting an hour before the new-visit form's
 * suggestion (which is an hour from now: late in the evening that would be tomorrow). Returns their ids and Dana's;
 * leaves the browser signed out.
 */
export async function bookVisitsToday(page: Page, loginAs: LoginAs, count: number) {
  await loginAs(page, 'dispatch@bluelagoon.test')
  const booked = await bookVisits(page, count)
  await page.context().clearCookies()
  return booked
}

/** `bookVisitsToday` on a page already signed in as Blue Lagoon's dispatcher, who stays signed in. */
export async function bookVisits(page: Page, count: number) {
  const ids: string[] = []
  let customerId = ''
  for (let i = 0; i < count; i++) {
    const form = await newVisitForm(page)
    customerId = await pickCustomer(form, 'Dana Whitfield')
    await form.getByLabel('Technician (optional)').selectOption({ label: 'Tyler Brooks' })
    const when = form.locator('input[name="scheduledAt"]')
    const suggested = new Date(`${await when.inputValue()}:00Z`)
    await when.fill(new Date(suggested.getTime() - (60 - i) * 60_000).toISOString().slice(0, 16))
    await form.getByRole('button', { name: 'Create visit' }).click()
    const link = page.getByRole('link', { name: 'Open it' })
    await expect(link).toBeVisible()
    ids.push((await link.getAttribute('href'))?.split('/').pop() ?? '')
  }
  return { ids, customerId }
}

/** Blue Lagoon's today on its own clock (it is in New York), as 'YYYY-MM-DD'. */
export function todayInNewYork() {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date())
}

/** The date `days` after `date` (both 'YYYY-MM-DD'). */
export function addDays(date: string, days: number) {
  const moved = new Date(`${date}T12:00:00Z`)
  moved.setUTCDate(moved.getUTCDate() + days)
  return moved.toISOString().slice(0, 10)
}

/** The Monday that starts next week on Blue Lagoon's clock: all of that week is in the future. */
export function nextWeekInNewYork() {
  const today = todayInNewYork()
  const weekday = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7
  return addDays(today, 7 - weekday)
}

/**
 * Books a visit of its own for Dana with `technician` (none: unassigned) on `date` at 10:00, on a page signed in as the dispatcher, and returns
 * its id. Specs that move visits work on their own, so tests running alongside never move the same one.
 */
export async function bookVisitOn(page: Page, date: string, technician: string | null = 'Tyler Brooks') {
  const form = await newVisitForm(page)
  await pickCustomer(form, 'Dana Whitfield')
  if (technician) await form.getByLabel('Technician (optional)').selectOption({ label: technician })
  await form.locator('input[name="scheduledAt"]').fill(`${date}T10:00`)
  await form.getByRole('button', { name: 'Create visit' }).click()
  const link = page.getByRole('link', { name: 'Open it' })
  await expect(link).toBeVisible()
  return (await link.getAttribute('href'))?.split('/').pop() ?? ''
}

/** One open visit for Dana with Tyler now: its id and Dana's. */
export async function bookVisitToday(page: Page, loginAs: LoginAs) {
  const { ids, customerId } = await bookVisitsToday(page, loginAs, 1)
  return { visitId: ids[0] ?? '', customerId }
}

/** A plain JPEG of one color, as a phone's camera would hand over (sharp draws it). */
export function jpeg(color: string, { width = 800, height = 600 } = {}) {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer()
}

/**
 * Waits until the technician's phone has sent what they just did: the visit page shows a skip or a note as soon as it
 * is on the phone, before the server has it, so a test that signs out or closes the phone next must wait for the
 * header's "N changes waiting" to go (and no "not applied").
 */
export async function expectPhoneSent(page: Page) {
  const status = page.getByRole('banner').getByRole('status')
  await expect(status.getByText(/changes? waiting$/)).toHaveCount(0, { timeout: 30_000 })
  await expect(status.getByText(/not applied/)).toHaveCount(0)
}
