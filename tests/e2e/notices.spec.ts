// Customer notices end to end (issue #20, docs/product.md "Notices"): "On my way" from the technician's phone texts the
// customer an arrival time; skipping with "Locked gate" texts the reason; completing emails the report; a STOP reply
// (signed as Twilio signs it) stops the next text, and the office sees why in the customer's Messages. Texts go to the
// local server that speaks Twilio's API (global setup); emails to the SMTP sink.

import { capture, expect, gotoHydrated, test, waitForHydration } from './fixtures'
import { readAllEmails } from './mail'
import { replyText, sentTexts } from './texts'
import { bookVisitsToday, expectPhoneSent } from './visits'

const DANA = 'Dana Whitfield'
const DANA_PHONE = '+18135550101'
const PHONE = { width: 390, height: 844 }
/** Mark Complete waits 10 s for "Undo", then the queue sends it; the worker then sends the notices. */
const SENT_SOON = 30_000

/** Polls the Twilio-speaking server until a text to `to` (any number when null) matches `body`. */
async function textMatching(to: string | null, body: RegExp, since: Date) {
  let found: Awaited<ReturnType<typeof sentTexts>>[number] | undefined
  await expect
    .poll(
      async () => {
        found = (await sentTexts(to ?? undefined)).find(
          (text) => body.test(text.body) && new Date(text.date_created).getTime() >= since.getTime() - 1000,
        )
        return Boolean(found)
      },
      { timeout: SENT_SOON },
    )
    .toBe(true)
  return found
}

test('On my way, a skip and a completion reach the customer; STOP stops the next text and Messages says why', async ({
  page,
  loginAs,
  baseURL,
}, testInfo) => {
  // Three visits' notices, each waiting on the outbox worker's next pass: three times the usual budget.
  test.slow()
  const started = new Date()
  // The suite runs at any hour: Blue Lagoon's quiet hours are turned off (From = Until) for this test's texts.
  await loginAs(page, 'owner@bluelagoon.test', { open: '/app/settings' })
  const notices = page.locator('#customer-notices')
  await notices.getByLabel('From', { exact: true }).fill('00:00')
  await notices.getByLabel('Until', { exact: true }).fill('00:00')
  await notices.getByRole('button', { name: 'Save customer notices' }).click()
  await expect(notices.getByText('Customer notices saved.')).toBeVisible()
  await page.context().clearCookies()

  const {
    ids: [toSkip, toComplete, afterStop],
  } = await bookVisitsToday(page, loginAs, 3)

  // "On my way" on the technician's next stop: its customer gets a text with an arrival time.
  await page.setViewportSize(PHONE)
  await loginAs(page, 'tech@bluelagoon.test')
  await waitForHydration(page)
  const upNext = page.getByRole('region', { name: 'Up next' })
  await upNext.getByRole('button', { name: 'On my way' }).click()
  await expect(upNext.getByText(/is told you are on the way\.$/)).toBeVisible()
  await capture(page, testInfo, 'on-my-way')
  const onMyWay = await textMatching(
    null,
    /^Blue Lagoon Pool Co\.: Tyler Brooks is on the way to service your pool, arriving about \d{1,2}:\d{2} [AP]M\.$/,
    started,
  )
  expect(onMyWay).toBeDefined()

  // Skipping with "Locked gate": Dana is texted the reason.
  await gotoHydrated(page, `/app/visits/${toSkip}`)
  await page.getByRole('button', { name: 'Skip visit' }).click()
  await page.getByLabel('Locked gate').check()
  await page.getByRole('button', { name: 'Skip visit' }).click()
  await expect(page.getByText('Skipped: Locked gate')).toBeVisible({ timeout: SENT_SOON })
  await textMatching(DANA_PHONE, /could not service your pool today \(Locked gate\)/, started)

  // Completing: the report is emailed to Dana.
  await gotoHydrated(page, `/app/visits/${toComplete}`)
  await page.getByRole('button', { name: 'Mark Complete' }).click()
  await page
    .getByRole('dialog', { name: 'Complete this visit?' })
    .getByRole('button', { name: 'Complete visit' })
    .click()
  await expect(page.getByText(/^Completed .+ by Tyler Brooks$/)).toBeVisible({ timeout: SENT_SOON })
  // Other specs complete Dana's visits too: this visit's report is the one linking to it.
  await expect
    .poll(
      () =>
        readAllEmails().some(
          (email) =>
            email.to.includes('customer@bluelagoon.test') &&
            /^Service report: Blue Lagoon/.test(email.subject) &&
            email.text.includes(`/visits/${toComplete}`),
        ),
      { timeout: SENT_SOON },
    )
    .toBe(true)

  // Dana replies STOP. A forged reply is refused first; the signed one is taken.
  expect((await replyText(baseURL ?? '', DANA_PHONE, 'STOP', { sign: false })).status).toBe(403)
  const stop = await replyText(baseURL ?? '', DANA_PHONE, 'STOP')
  expect(stop.status).toBe(200)

  // The next skip texts nothing; the office sees why on Dana's record.
  await gotoHydrated(page, `/app/visits/${afterStop}`)
  await page.getByRole('button', { name: 'Skip visit' }).click()
  await page.getByLabel('Dog in yard').check()
  await page.getByRole('button', { name: 'Skip visit' }).click()
  await expect(page.getByText('Skipped: Dog in yard')).toBeVisible({ timeout: SENT_SOON })
  // Shown as soon as it is on the phone: signing out before the phone sent it would leave it there, never skipped.
  await expectPhoneSent(page)
  await page.context().clearCookies()

  await loginAs(page, 'dispatch@bluelagoon.test')
  // Found by search: the list pages 25 at a time, and other specs add customers alongside.
  await gotoHydrated(page, '/app/customers?q=Whitfield')
  await page.getByRole('link', { name: DANA }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: DANA })).toBeVisible()
  // Why, in her Messages: the number replied STOP, and the newest skip text (this one: any later skip of Dana's is
  // also held back, as START comes only at the end) was not sent for that reason.
  const messages = page.getByRole('region', { name: 'Notices' })
  await expect(messages.getByRole('status')).toHaveText(/^Texts are off: this number replied STOP on /)
  await expect(messages.getByRole('listitem').filter({ hasText: 'Visit skipped · Text' }).first()).toContainText(
    'Not sent: the customer replied STOP',
  )
  await capture(page, testInfo, 'customer-messages-stop')
  // No "Dog in yard" text reached her phone (only this test skips with that reason). Not "no text since the STOP":
  // another spec's skip of Dana's, queued before the STOP, may still be leaving as it arrives.
  expect((await sentTexts(DANA_PHONE)).filter((text) => text.body.includes('(Dog in yard)'))).toEqual([])

  // Dana opts back in, so the rest of the suite's texts go as before.
  expect((await replyText(baseURL ?? '', DANA_PHONE, 'START')).status).toBe(200)
})
