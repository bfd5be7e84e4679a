// "Calendar feed" on My Account (docs/product.md "Schedule"): a technician makes the secret .ics link, the link is a
// calendar of their visits for a phone to subscribe to, and "Reset link" makes the old one stop working.
import { capture, expect, gotoHydrated, test } from './fixtures'

test.use({ viewport: { width: 390, height: 844 } })

test('a technician makes a calendar link, and a reset retires the old one', async ({ page, loginAs }, testInfo) => {
  await loginAs(page, 'tech@bluelagoon.test', { open: '/app/account' })
  const section = page.getByRole('region', { name: 'Calendar feed' })
  await expect(section).toBeVisible()
  await capture(page, testInfo, 'calendar-feed-none')

  await section.getByRole('button', { name: 'Create calendar link' }).click()
  const link = section.getByRole('textbox', { name: 'Your calendar link' })
  await expect(link).toHaveValue(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
  await expect(section).toContainText(
    "Add this link to your phone's calendar as a subscription. It is shown only now; if you lose it, reset it.",
  )
  await expect(section.getByRole('button', { name: 'Copy' })).toBeVisible()
  await capture(page, testInfo, 'calendar-feed-created')
  const firstUrl = await link.inputValue()

  const feed = await page.request.get(firstUrl)
  expect(feed.status()).toBe(200)
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8')
  expect(feed.headers()['cache-control']).toBe('private, max-age=300')
  const text = await feed.text()
  expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/)
  expect(text).toContain('BEGIN:VEVENT\r\n')
  // A HEAD answers as the GET does, without the body.
  const head = await page.request.head(firstUrl)
  expect(head.status()).toBe(200)
  expect(head.headers()['content-type']).toBe('text/calendar; charset=utf-8')

  // Back later: the link is not shown again, only that it is active.
  await gotoHydrated(page, '/app/account')
  await expect(section).toContainText('Your calendar link is active.')
  await expect(section.getByRole('textbox', { name: 'Your calendar link' })).toHaveCount(0)
  await section.getByRole('button', { name: 'Reset link' }).click()
  await expect(section).toContainText('The old link stops working')
  await capture(page, testInfo, 'calendar-feed-confirm-reset')
  await section.getByRole('button', { name: 'Yes, reset link' }).click()
  await expect(link).toHaveValue(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
  const secondUrl = await link.inputValue()
  expect(secondUrl).not.toBe(firstUrl)

  const old = await page.request.get(firstUrl)
  expect(old.status()).toBe(404)
  expect(old.headers()['content-type']).toBe('text/plain; charset=utf-8')
  expect((await page.request.get(secondUrl)).status()).toBe(200)

  await page.setViewportSize({ width: 1280, height: 800 })
  await capture(page, testInfo, 'calendar-feed-reset')
})

test('the office has no calendar link', async ({ page, loginAs }) => {
  await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/account' })
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Calendar feed' })).toHaveCount(0)
})
