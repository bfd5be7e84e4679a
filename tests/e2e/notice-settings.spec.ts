// Customer notices in Chromium (issue #20): Settings → "Customer notices" as Sunset's owner (turn "Visit reminder"
// texts on, change their wording, watch the segment count change with an emoji, save; then put it back), and a
// customer's "Notices" with the messages the outbox holds for them.
//
// The messages are written into the database directly, as the delivery engine would have left them. The shared e2e
// server holds its embedded database alone, so that part runs its own server: seeded on a first start, stopped while
// the rows go in (PGlite has one process per folder), started again. With DATABASE_URL it gets a scratch database.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import pg from 'pg'
import { createScratchDatabase, dropDatabase, type RunningServer, startServer } from '../../scripts/lib/app-server'
import { freePort } from '../../scripts/lib/free-port'
import { capture, expect, gotoHydrated, loginAs, test, waitForHydration } from './fixtures'

const ROOT = path.resolve(import.meta.dirname, '../..')

test.describe('Settings → Customer notices', () => {
  test('the owner turns "Visit reminder" texts on, words them, sees the segments change, and puts them back', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await loginAs(page, 'owner@sunsetpools.test')
    await gotoHydrated(page, '/app/settings')
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
      '{company}: {technician} will service your pool tomorrow. Please leave the gate unlocked.',
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

/** The next 8:00 AM in Phoenix (UTC−7 all year): when Sunset's quiet hours end. */
function nextPhoenixMorning(now = new Date()) {
  const at = new Date(now)
  at.setUTCHours(15, 0, 0, 0)
  if (at <= now) at.setUTCDate(at.getUTCDate() + 1)
  return at
}

type Sql = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>

/** Writes Marco Ruiz's messages (Sunset Pool Care's portal customer) and his STOP; returns his id. */
async function writeMessages(query: Sql) {
  const [marco] = await query(`select id, company_id, phone, email from customers where customer_name = 'Marco Ruiz'`)
  if (!marco) throw new Error('Marco Ruiz is not in the demo data')
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000)
  const row = (ago: number, fields: Record<string, unknown>) => ({
    kind: 'text',
    to: marco.phone,
    status: 'sent',
    last_error: null,
    next_attempt_at: new Date(),
    sent_at: null,
    notice_event: 'on-my-way',
    created_at: minutesAgo(ago),
    ...fields,
  })
  const rows = [
    row(1, { status: 'pending', next_attempt_at: nextPhoenixMorning() }),
    row(2, { status: 'failed', last_error: 'The number cannot receive texts.' }),
    row(3, { kind: 'email', to: marco.email, notice_event: 'visit-completed', sent_at: minutesAgo(3) }),
    row(4, { notice_event: 'visit-skipped', status: 'opted-out' }),
    // Older ones, enough for a second page.
    ...Array.from({ length: 20 }, (_, i) =>
      row(60 + i, { notice_event: 'visit-reminder', sent_at: minutesAgo(60 + i) }),
    ),
  ]
  for (const [i, r] of rows.entries()) {
    await query(
      `insert into email_outbox (company_id, customer_id, kind, "to", subject, html, text, status, last_error,
         next_attempt_at, sent_at, notice_event, notice_subject, created_at)
       values ($1, $2, $3, $4, 'Notice', '', 'Notice', $5, $6, $7, $8, $9, $10, $11)`,
      [
        marco.company_id,
        marco.id,
        r.kind,
        r.to,
        r.status,
        r.last_error,
        r.next_attempt_at,
        r.sent_at,
        r.notice_event,
        `e2e-${i}`,
        r.created_at,
      ],
    )
  }
  await query(`insert into text_opt_outs (phone, via, opted_out_at) values ($1, 'STOP', $2)`, [
    marco.phone,
    new Date('2026-11-02T18:00:00Z'),
  ])
  return marco.id as string
}

/** A server of its own whose database holds Marco's messages. */
async function serverWithMessages() {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-notices-'))
  const dataDir = path.join(runDir, 'data')
  const port = String(await freePort())
  const options = { port, dataDir, logPath: path.join(runDir, 'server.log'), env: { SEED_DEMO: '1' } }
  const adminUrl = process.env.DATABASE_URL
  let server: RunningServer
  let customerId: string
  let cleanupDatabase = async () => {}
  if (adminUrl) {
    const database = await createScratchDatabase(adminUrl, 'pool_bud_notices')
    cleanupDatabase = () => dropDatabase(adminUrl, database.name)
    server = await startServer(ROOT, { ...options, databaseUrl: database.url })
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      customerId = await writeMessages(async (text, params) => (await client.query(text, params)).rows)
    } finally {
      await client.end()
    }
  } else {
    await (await startServer(ROOT, options)).stop()
    const db = await PGlite.create({ dataDir: path.join(dataDir, 'db'), extensions: { pg_trgm, btree_gin } })
    try {
      customerId = await writeMessages(
        async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows,
      )
    } finally {
      await db.close()
    }
    server = await startServer(ROOT, options)
  }
  return {
    origin: server.origin,
    customerId,
    stop: async () => {
      await server.stop()
      await cleanupDatabase()
      fs.rmSync(runDir, { recursive: true, force: true })
    },
  }
}

test.describe("a customer's Notices", () => {
  test('Messages lists what the outbox holds for the customer, with STOP said at the top', async ({
    browser,
    extraHTTPHeaders,
  }, testInfo) => {
    const server = await serverWithMessages()
    const context = await browser.newContext({
      baseURL: server.origin,
      extraHTTPHeaders,
      viewport: { width: 390, height: 844 },
    })
    try {
      const page = await context.newPage()
      await loginAs(page, 'owner@sunsetpools.test')
      await gotoHydrated(page, `/app/customers/${server.customerId}`)
      const notices = page.getByRole('region', { name: 'Notices' })
      await expect(notices.getByRole('status')).toHaveText('Texts are off: this number replied STOP on Nov 2, 2026.')
      const rows = notices.getByRole('listitem')
      await expect(rows).toHaveCount(20)
      await expect(rows.nth(0)).toContainText('On my way · Text')
      await expect(rows.nth(0)).toContainText('Waiting (quiet hours until 8:00 AM)')
      await expect(rows.nth(1)).toContainText('Failed: The number cannot receive texts.')
      await expect(rows.nth(2)).toContainText('Visit completed · Email')
      await expect(rows.nth(2)).toContainText('Sent')
      await expect(rows.nth(3)).toContainText('Visit skipped · Text')
      await expect(rows.nth(3)).toContainText('Not sent: the customer replied STOP')
      await capture(page, testInfo, 'customer-messages')

      // The older messages are on the next page.
      await notices.getByRole('link', { name: 'Next' }).click()
      await expect(notices.getByText('Page 2 of 2')).toBeVisible()
      await expect(rows).toHaveCount(4)
      await expect(rows.first()).toContainText('Visit reminder · Text')

      // The customer's own choice: texts off, kept after a reload.
      const byText = notices.getByRole('switch', { name: 'Notices by text' })
      await expect(byText).toBeChecked()
      await byText.click()
      await expect(page.getByText('Notices by text turned off.')).toBeVisible()
      await page.reload()
      await expect(byText).not.toBeChecked()
      await expect(notices.getByRole('switch', { name: 'Notices by email' })).toBeChecked()
      await page.setViewportSize({ width: 1280, height: 800 })
      await capture(page, testInfo, 'customer-messages')
    } finally {
      await context.close()
      await server.stop()
    }
  })
})
