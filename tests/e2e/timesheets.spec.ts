// Time on the clock and timesheets (issue 35 items 1–4, docs/time.md): a technician of our own (invited here, so no
// other spec's demo login is touched) starts the day on a 360 px phone, takes a break, comes back and ends the day
// (asked first); the owner sets their hourly rate, opens "Timesheets", edits the day's times with a reason (kept in
// the history), approves the week and downloads the payroll CSV, whose row is the day as edited. Axe and the phone's
// width on Today's clock and on the timesheet page.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { instantAt } from '../../app/schedule/local-date'
import { capture, expect, gotoHydrated, test, waitForHydration } from './fixtures'
import { extractLink, waitForEmail } from './mail'
import { todayInNewYork } from './visits'

// Offline, the phone leans on the staff app's service worker: allowed here (the config blocks it, decision 025).
test.use({ serviceWorkers: 'allow' })

const PHONE = { width: 360, height: 740 }

async function phoneChecks(page: Page, name: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect.soft(width, `${name}: no sideways scrolling`).toBeLessThanOrEqual(PHONE.width)
  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect.soft(serious, `${name}: serious or critical axe violations`).toEqual([])
}

async function acceptInvite(browser: Browser, link: string, password: string) {
  const context = await browser.newContext({ viewport: PHONE, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.9' } })
  const page = await context.newPage()
  await page.goto(link)
  await expect(page).toHaveURL((url) => url.pathname === '/welcome')
  await waitForHydration(page)
  await page.getByLabel('Create password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Complete setup' }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/app')
  return page
}

test('a technician’s day on the clock reaches the timesheet, is edited with a reason, approved and exported', async ({
  page,
  browser,
  loginAs,
}, testInfo) => {
  test.setTimeout(180_000)
  const suffix = randomBytes(3).toString('hex')
  const name = `Tara Clock ${suffix}`
  const email = `tara.clock.${suffix}@example.com`

  // The owner invites a technician of our own.
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/team' })
  const sentAfter = new Date()
  await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Technician' })
  await page.getByLabel('Full name', { exact: true }).fill(name)
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByRole('button', { name: 'Send invite', exact: true }).click()
  await expect(page.getByText('Invitation sent. Your teammate will receive an email shortly.')).toBeVisible()
  const mail = await waitForEmail({ to: email, after: sentAfter })
  const tech = await acceptInvite(browser, extractLink(mail, '/api/auth/magic-link/verify'), `Pool-${suffix}-pass`)

  // Today on the phone: "Start day", "Break", "Back", then "End day", asked first.
  await waitForHydration(tech)
  const clock = tech.getByRole('region', { name: 'Your day' })
  await expect(clock.getByText('Not started yet.')).toBeVisible()
  await phoneChecks(tech, 'Today with the clock')
  // Started without signal: the phone keeps the tap (and its time) and sends it when the signal returns.
  await tech.context().setOffline(true)
  await clock.getByRole('button', { name: 'Start day' }).click()
  await expect(clock.getByText(/^Working since \d{1,2}:\d{2}\s[AP]M\. Saved on this phone/)).toBeVisible()
  await expect(tech.getByText('1 change waiting')).toBeVisible()
  await tech.context().setOffline(false)
  await expect(tech.getByText(/changes? waiting/)).toHaveCount(0)
  await expect(clock.getByText(/^Working since \d{1,2}:\d{2}\s[AP]M\.$/)).toBeVisible()
  // A tap the server has keeps showing while the page's data is loaded again with it, however long that takes: the
  // clock never jumps back to the day before the tap (a finger on its way to "End day" once landed on "Back", which
  // took its place, and CI waited for a question that never came).
  const reload = /\.data(\?|$)/
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await tech.context().route(reload, async (route) => {
    await held
    await route.continue()
  })
  const reloadAsked = tech.context().waitForEvent('request', (request) => reload.test(request.url()))
  await clock.getByRole('button', { name: 'Break' }).click()
  await reloadAsked
  await expect(tech.getByText(/changes? waiting/)).toHaveCount(0)
  await expect(clock.getByRole('status')).toHaveText(/^On a break since \d{1,2}:\d{2}\s[AP]M\.$/)
  release()
  await tech.context().unrouteAll({ behavior: 'wait' })
  await clock.getByRole('button', { name: 'Back' }).click()
  await expect(clock.getByText(/^Working since/)).toBeVisible()
  await clock.getByRole('button', { name: 'End day' }).click()
  const ask = tech.getByRole('dialog', { name: 'End your day?' })
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(clock.getByText(/^Working since/)).toBeVisible()
  await clock.getByRole('button', { name: 'End day' }).click()
  await ask.getByRole('button', { name: 'End day' }).click()
  await expect(clock.getByText(/^Day ended at/)).toBeVisible()
  await phoneChecks(tech, 'Today, day ended')
  await capture(tech, testInfo, 'today-clock-ended')
  // Every tap reached the server: the page as the server draws it says the same.
  await expect(tech.getByText(/changes? waiting/)).toHaveCount(0)
  await tech.reload()
  await expect(tech.getByRole('region', { name: 'Your day' }).getByText(/^Day ended at/)).toBeVisible()
  await tech.context().close()

  // The owner pays them by the hour: $20.00.
  await gotoHydrated(page, '/app/team')
  await page.getByRole('link', { name }).first().click()
  await waitForHydration(page)
  await page.getByLabel('Hourly', { exact: true }).check()
  await page.getByLabel('Hourly rate').fill('20')
  await page.getByRole('button', { name: 'Save technician' }).click()
  await expect(page.getByText(/^Saved\./)).toBeVisible()

  // Timesheets: the week of today, this technician.
  await page.setViewportSize(PHONE)
  await gotoHydrated(page, '/app/timesheets')
  await page.getByLabel('Technician').selectOption({ label: name })
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page.getByRole('heading', { name: new RegExp(`^${name} · week of`) })).toBeVisible()
  await waitForHydration(page)
  const today = todayInNewYork()
  await page.getByRole('button', { name: `Edit ${today}` }).click()
  await page.getByLabel('Start', { exact: true }).fill('00:00')
  await page.getByLabel('End', { exact: true }).fill('23:59')
  await page.getByRole('button', { name: 'Save times' }).click()
  await expect(page.getByText('Say why the time changes.')).toBeVisible()
  await page.getByLabel('Reason', { exact: true }).fill('Forgot to tap in')
  await page.getByRole('button', { name: 'Save times' }).click()
  await expect(page.getByText('Times saved. The change and its reason are kept under the day.')).toBeVisible()
  const history = page.getByRole('region', { name: `Edits of ${today}` })
  await expect(history.getByText(/^Start changed from .* to 12:00 AM by .*: “Forgot to tap in”$/)).toBeVisible()
  await expect(history.getByText(/^End changed from .* to 11:59 PM by .*: “Forgot to tap in”$/)).toBeVisible()
  await phoneChecks(page, 'Timesheets')
  await capture(page, testInfo, 'timesheets-week')

  // "Approve week", asked first; the week is then locked.
  await page.getByRole('button', { name: 'Approve week' }).click()
  await page.getByRole('dialog', { name: 'Approve this week?' }).getByRole('button', { name: 'Approve week' }).click()
  await expect(page.getByText('Week approved. Its times are locked for payroll.')).toBeVisible()
  await expect(page.getByRole('button', { name: `Edit ${today}` })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Reopen week' })).toBeVisible()

  // The payroll CSV: this week's approved day of this technician, as edited.
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download CSV' }).click()
  const download = await downloading
  const text = fs.readFileSync((await download.path()) ?? '', 'utf8').replace(/^\uFEFF/, '')
  const [header, ...rows] = text.trim().split('\r\n')
  expect(header).toBe('Employee,Email,Date,Regular hours,Overtime hours,Stops,Gross pay')
  const [year, month, day] = today.split('-')
  const row = rows.find((line) => line.startsWith(`${name},`))
  // 12:00 AM to 11:59 PM less a break of under a minute (0 or 1 minute on the clock's whole minutes), at $20.00 an
  // hour: 1,439 minutes on most days, an hour less or more on the days New York's clocks change.
  const dayMinutes =
    (instantAt(today, '23:59', 'America/New_York').getTime() -
      instantAt(today, '00:00', 'America/New_York').getTime()) /
    60_000
  expect(
    [dayMinutes, dayMinutes - 1].map(
      (minutes) =>
        `${name},${email},${month}/${day}/${year},${(minutes / 60).toFixed(2)},0.00,0,${(Math.round((minutes * 2000) / 60) / 100).toFixed(2)}`,
    ),
  ).toContain(row)
})
