// Customer notices in Chromium (issue #20, docs/product.md "Notices").
//
// Settings → "Customer notices" as Sunset's owner, on the shared server: turn "Visit reminder" texts on, change their
// wording, watch the segment count change with an emoji, save; then put it back.
//
// A day's notices on a server configured as a developer runs one — no SMTP server, no Twilio account — so emails and
// texts land in the built-in mailbox (/dev/mailbox, "Emails" and "Texts"), all through the real flow: Tyler completes
// one of Dana's visits (held 10 s for "Undo"), taps "On my way" on Today's "Up next" card — its customer's text, with
// an arrival time, is in "Texts" — and skips that stop with "Locked gate" — the skip text follows, to the same number;
// the report of Dana's visit is in "Emails"; the office sees each notice, sent, in the customers' "Messages", and turns
// Dana's texts off. The Twilio path (texts to a Twilio-speaking server, a signed STOP, "Messages" saying why) is
// notices.spec; statuses a day of real notices does not produce here (failed, held for quiet hours, opted out) and
// paging are the route test's (app/routes/app/notices.test.ts) and message-status.test's.
//
// The shared server sends texts to Twilio, so this part starts a server of its own, once, on a copy of the seeded demo
// (seeded-copy.ts): PGlite in a temp folder or, with DATABASE_URL, a scratch PostgreSQL database; both are gone afterwards.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { BrowserContext, Page } from '@playwright/test'
import { type RunningServer, startServer } from '../../scripts/lib/app-server'
import { freePort } from '../../scripts/lib/free-port'
import { capture, expect, gotoHydrated, loginAs, test, waitForHydration } from './fixtures'
import { copySeededDemo } from './seeded-copy'
import { bookVisits } from './visits'

const ROOT = path.resolve(import.meta.dirname, '../..')

test.describe('Settings → Customer notices', () => {
  test('the owner turns "Visit reminder" texts on, words them, sees the segments change, and puts them back', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await loginAs(page, 'owner@sunsetpools.test', { open: '/app/settings' })
    const section = page.getByRole('region', { name: 'Customer notices' })
    const reminder = section.getByRole('group', { name: 'Visit reminder' })
    const texts = reminder.getByRole('switch', { name: 'Text' })
    await expect(texts).not.toBeChecked()
    await expect(reminder.getByRole('switch', { name: 'Email' })).not.toBeChecked()
    await texts.click()
    await expect(texts).toBeChecked()

    const wording = reminder.getByLabel('Text wording')
    const count = reminder.getByText(/characters · \d+ segments?/)
    await wording.fill('Hi {customer}, {technician} comes tomorrow. Please leave the gate unlocked.')
    await expect(
      reminder.getByText('Hi Jordan Lee, Sam Rivera comes tomorrow. Please leave the gate unlocked.'),
    ).toBeVisible()
    await expect(count).toHaveText('73 characters · 1 segment')
    // One emoji sends the whole text as Unicode (UCS-2): 70 units a segment instead of 160.
    await wording.press('End')
    await wording.pressSequentially(' 🏊')
    await expect(count).toHaveText('75 characters · 2 segments · Unicode')
    await capture(page, testInfo, 'notice-settings')

    await section.getByRole('button', { name: 'Save customer notices' }).click()
    await expect(section.getByText('Customer notices saved.')).toBeVisible()
    await page.reload()
    await waitForHydration(page)
    await expect(texts).toBeChecked()
    await expect(wording).toHaveValue('Hi {customer}, {technician} comes tomorrow. Please leave the gate unlocked. 🏊')

    // A placeholder that does not exist is refused at its field, with what to use instead.
    await wording.fill('See you tomorrow at {time}')
    await section.getByRole('button', { name: 'Save customer notices' }).click()
    await expect(reminder.getByText('{time} is not a placeholder.', { exact: false })).toBeVisible()

    // Back to Sunset's defaults, so the page looks as seeded for anyone after.
    await reminder.getByRole('button', { name: /Reset to default.*Text/ }).click()
    await expect(wording).toHaveValue(
      '{company}: {technician} will service your pool tomorrow. {arrival} Please leave the gate unlocked.',
    )
    await texts.click()
    await section.getByRole('button', { name: 'Save customer notices' }).click()
    await expect(section.getByText('Customer notices saved.')).toBeVisible()
    await page.reload()
    await expect(texts).not.toBeChecked()
    await page.setViewportSize({ width: 1280, height: 800 })
    await capture(page, testInfo, 'notice-settings')
  })
})

const PHONE = { width: 390, height: 844 }
const DESK = { width: 1280, height: 800 }
/** Mark Complete waits 10 s for "Undo" before the phone sends it; the outbox worker looks every 5 s. */
const SENT_SOON = 30_000

/** A Twilio account as a developer's shell may hold one (its API unreachable: nothing may be sent there). */
const SHELL_TWILIO = {
  TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
  TWILIO_AUTH_TOKEN: 'not-for-this-server',
  TWILIO_FROM: '+18135550100',
  TWILIO_API_BASE: 'http://127.0.0.1:9',
}

/**
 * A seeded server of its own, as a developer runs one: no SMTP_URL and no TWILIO_* (not even from the shell that runs
 * the tests), so emails and texts go to the built-in mailbox, listed at /dev/mailbox (DEV_MAILBOX=1 under
 * NODE_ENV=production). No proxy in front (TRUST_PROXY=0): the mailbox answers only a browser on this machine, and
 * the server must see the browser's own loopback address, not the per-test addresses the fixtures forward.
 */
async function serverWithoutTwilio() {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-notices-'))
  const options = {
    port: String(await freePort()),
    dataDir: path.join(runDir, 'data'),
    logPath: path.join(runDir, 'server.log'),
    env: { SEED_DEMO: '1', DEV_MAILBOX: '1', TRUST_PROXY: '0' },
    withoutEnv: /^(TWILIO_|SMTP_URL$)/,
  }
  const adminUrl = process.env.DATABASE_URL
  let server: RunningServer
  let cleanupDatabase = async () => {}
  // Proof that withoutEnv holds: the shell starts it with a Twilio account set (only while it starts; no test of this
  // worker runs meanwhile). Were it passed on, the mailbox would have no "Texts" tab and the test would fail there.
  const shell = Object.fromEntries(Object.keys(SHELL_TWILIO).map((name) => [name, process.env[name]]))
  Object.assign(process.env, SHELL_TWILIO)
  try {
    const copy = await copySeededDemo(options.dataDir, adminUrl, 'pool_bud_notices')
    cleanupDatabase = copy.drop
    server = await startServer(ROOT, { ...options, databaseUrl: copy.databaseUrl })
  } catch (error) {
    await cleanupDatabase()
    fs.rmSync(runDir, { recursive: true, force: true })
    throw error
  } finally {
    for (const [name, value] of Object.entries(shell)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
  return {
    origin: server.origin,
    stop: async () => {
      await server.stop()
      await cleanupDatabase()
      fs.rmSync(runDir, { recursive: true, force: true })
    },
  }
}

/** The built-in mailbox's message (in "Emails" or "Texts") holding `text`, once it has arrived: exactly one. */
async function inMailbox(mailbox: Page, tab: 'Emails' | 'Texts', text: string | RegExp) {
  const message = mailbox.getByRole('main').getByRole('listitem').filter({ hasText: text })
  await expect(async () => {
    await mailbox.goto(tab === 'Texts' ? '/dev/mailbox?tab=texts' : '/dev/mailbox')
    await expect(mailbox.getByRole('link', { name: tab })).toHaveAttribute('aria-current', 'page', { timeout: 1_000 })
    await expect(message).toHaveCount(1, { timeout: 1_000 })
  }).toPass({ timeout: SENT_SOON })
  return message
}

/** Minutes past midnight of "h:mm AM/PM". */
function minutesOfDay(time: string) {
  const [, hour = '', minute = '', half] = /^(\d{1,2}):(\d{2}) ([AP]M)$/.exec(time) ?? []
  return ((Number(hour) % 12) + (half === 'PM' ? 12 : 0)) * 60 + Number(minute)
}

/** Minutes past midnight now, on `timeZone`'s clock. */
function minutesNow(timeZone: string) {
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date())
  return minutesOfDay(time.replace(/\s/g, ' '))
}

/** Blue Lagoon's quiet hours off (From = Until), as its owner: the test runs at any hour and its texts go at once. */
async function quietHoursOff(page: Page) {
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/settings' })
  const settings = page.locator('#customer-notices')
  await settings.getByLabel('From', { exact: true }).fill('00:00')
  await settings.getByLabel('Until', { exact: true }).fill('00:00')
  await settings.getByRole('button', { name: 'Save customer notices' }).click()
  await expect(settings.getByText('Customer notices saved.')).toBeVisible()
}

test.describe('notices without Twilio', () => {
  test('"On my way", a "Locked gate" skip and a report reach the built-in mailbox, and Messages lists them', async ({
    browser,
  }, testInfo) => {
    // A server of its own, started and seeded here, then a whole day of notices: three times the usual budget.
    test.slow()
    const server = await serverWithoutTwilio()
    const contexts: BrowserContext[] = []
    // No forwarded client address (see serverWithoutTwilio): every request is the browser's own.
    const browse = async (viewport: typeof PHONE) => {
      const context = await browser.newContext({ baseURL: server.origin, viewport })
      contexts.push(context)
      return context
    }
    try {
      // Tyler's phone, the office's desk (with the developer's mailbox in a tab of its own) and the owner's.
      const phone = await (await browse(PHONE)).newPage()
      const officeContext = await browse(DESK)
      const office = await officeContext.newPage()
      const mailbox = await officeContext.newPage()
      const ownerContext = await browse(DESK)
      // At once: the owner turns quiet hours off (the database goes with the server afterwards, so they stay off), the
      // dispatcher books two visits of Dana's for Tyler today (late in the evening, when his route is done, the first
      // is "Up next"), and Tyler signs in.
      const [, { ids: danasVisits, customerId: dana }] = await Promise.all([
        quietHoursOff(await ownerContext.newPage()),
        loginAs(office, 'dispatch@bluelagoon.test').then(() => bookVisits(office, 2)),
        loginAs(phone, 'tech@bluelagoon.test'),
      ])
      await ownerContext.close()

      // Tyler's next stop, whoever's it is; he first completes one of Dana's visits further down the day (not "Up
      // next"), which the phone holds 10 s for "Undo" before sending: meanwhile he goes on (in the app, so the page
      // that holds it stays open).
      await gotoHydrated(phone, '/app')
      const upNext = phone.getByRole('region', { name: 'Up next' })
      const stop = upNext.getByRole('heading').getByRole('link')
      const customer = (await stop.textContent()) ?? ''
      const stopId = (await stop.getAttribute('href'))?.split('/').pop() ?? ''
      const completed = danasVisits.find((id) => id !== stopId) ?? ''
      await phone.locator(`a[href^="/app/visits/${completed}"]`).click()
      await expect(phone).toHaveURL(new RegExp(`/app/visits/${completed}$`))
      await phone.getByRole('button', { name: 'Mark Complete' }).click()
      await phone
        .getByRole('dialog', { name: 'Complete this visit?' })
        .getByRole('button', { name: 'Complete visit' })
        .click()
      await expect(phone.getByRole('button', { name: 'Undo' })).toBeVisible()
      await phone.goBack()

      // "On my way" on the next stop …
      const tappedAt = minutesNow('America/New_York')
      await upNext.getByRole('button', { name: 'On my way' }).click()
      await expect(upNext.getByText(`${customer} is told you are on the way.`)).toBeVisible()

      // … where the gate is locked: he skips it.
      await stop.click()
      await expect(phone).toHaveURL(new RegExp(`/app/visits/${stopId}$`))
      await phone.getByRole('button', { name: 'Skip visit' }).click()
      await phone.getByLabel('Locked gate').check()
      await phone.getByRole('button', { name: 'Skip visit' }).click()
      await expect(phone.getByText('Skipped: Locked gate')).toBeVisible({ timeout: SENT_SOON })

      // The developer's mailbox: the customer's text with an arrival time. The estimate is the drive from the stop
      // before (done: this is the first open one), rounded up to five minutes: a five-minute mark from the tap to two
      // hours after it, on Blue Lagoon's clock. The skip notice went to the same number.
      const onMyWay = await inMailbox(
        mailbox,
        'Texts',
        /Blue Lagoon Pool Co\.: Tyler Brooks is on the way to service your pool, arriving about \d{1,2}:\d{2} [AP]M\./,
      )
      const arrival = /arriving about (\d{1,2}:\d{2} [AP]M)\./.exec((await onMyWay.textContent()) ?? '')?.[1] ?? ''
      expect(minutesOfDay(arrival) % 5, `arrival ${arrival}`).toBe(0)
      const ahead = (minutesOfDay(arrival) - tappedAt + 24 * 60) % (24 * 60)
      expect(ahead, `arrival ${arrival}: minutes after the tap`).toBeLessThanOrEqual(120)
      const number = /· to (\+\d+)/.exec((await onMyWay.textContent()) ?? '')?.[1] ?? ''
      expect(number).toMatch(/^\+1\d{10}$/)
      const skipped = await inMailbox(mailbox, 'Texts', /could not service your pool today \(Locked gate\)/)
      await expect(skipped).toContainText(`to ${number}`)
      await capture(mailbox, testInfo, 'mailbox-texts')

      // The office finds both in that customer's Messages, sent.
      const notices = office.getByRole('region', { name: 'Notices' })
      const rows = notices.getByRole('listitem')
      await gotoHydrated(office, `/app/customers?q=${encodeURIComponent(customer)}`)
      await office.getByRole('link', { name: customer, exact: true }).first().click()
      await expect(office.getByRole('heading', { level: 1, name: customer })).toBeVisible()
      for (const notice of ['On my way · Text', 'Visit skipped · Text']) {
        await expect(rows.filter({ hasText: notice })).toHaveCount(1)
        await expect(rows.filter({ hasText: notice })).toContainText('Sent')
      }
      await capture(office, testInfo, 'customer-messages')

      // Dana's own choice, while her completion is on its way: texts off, kept after a reload.
      await gotoHydrated(office, `/app/customers/${dana}`)
      const byText = notices.getByRole('switch', { name: 'Notices by text' })
      await expect(byText).toBeChecked()
      await byText.click()
      await expect(office.getByText('Notices by text turned off.')).toBeVisible()
      await office.reload()
      await expect(byText).not.toBeChecked()
      await expect(notices.getByRole('switch', { name: 'Notices by email' })).toBeChecked()

      // The report, linking to the visit he completed, is in "Emails", and Dana's Messages show it sent.
      const report = await inMailbox(mailbox, 'Emails', `/visits/${completed}`)
      await expect(report).toContainText('to customer@bluelagoon.test')
      await expect(report.getByRole('heading')).toHaveText(/^Service report: Blue Lagoon Pool Co\., /)
      await office.reload()
      await expect(rows.filter({ hasText: 'Visit completed · Email' })).toHaveCount(1)
      await expect(rows.filter({ hasText: 'Visit completed · Email' })).toContainText('Sent')
      await office.setViewportSize(PHONE)
      await capture(office, testInfo, 'customer-messages')
    } finally {
      for (const context of contexts) await context.close()
      await server.stop()
    }
  })
})
