// Visits booked for a spec as the dispatcher: Dana Whitfield with Tyler Brooks, today on the company's clock.
import type { Page } from '@playwright/test'
import { pickCustomer } from './customer-picker'
import { expect, gotoHydrated } from './fixtures'

/**
 * Books `count` open visits for Dana with Tyler, a minute apart, starting an hour before the new-job form's
 * suggestion (which is an hour from now: late in the evening that would be tomorrow). Returns their ids; leaves the
 * browser signed out.
 */
export async function bookVisitsToday(
  page: Page,
  loginAs: (page: Page, email: string) => Promise<void>,
  count: number,
) {
  await loginAs(page, 'dispatch@bluelagoon.test')
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    await gotoHydrated(page, '/app')
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create job' }) })
    await pickCustomer(form, 'Dana Whitfield')
    await form.getByLabel('Technician (optional)').selectOption({ label: 'Tyler Brooks' })
    const when = form.locator('input[name="scheduledAt"]')
    const suggested = new Date(`${await when.inputValue()}:00Z`)
    await when.fill(new Date(suggested.getTime() - (60 - i) * 60_000).toISOString().slice(0, 16))
    await form.getByRole('button', { name: 'Create job' }).click()
    const link = page.getByRole('link', { name: 'Open it' })
    await expect(link).toBeVisible()
    ids.push((await link.getAttribute('href'))?.split('/').pop() ?? '')
  }
  await page.context().clearCookies()
  return ids
}
