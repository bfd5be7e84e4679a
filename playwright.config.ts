import { execFileSync } from 'node:child_process'
import { defineConfig, type Project } from '@playwright/test'
import { CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from './scripts/lib/chromium'

// The config is evaluated in the runner and again in every worker; the port is chosen once,
// in the runner, and handed down through the environment (workers inherit it, and so does
// the global setup that starts the server on it).
function freePort(): number {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim())
}

process.env.E2E_PORT ??= String(freePort())
const OUTPUT_DIR = process.env.E2E_OUTPUT_DIR ?? 'test-results'
const baseURL = `http://localhost:${process.env.E2E_PORT}`
process.env.E2E_BASE_URL = baseURL

// CI runs the suite twice side by side on two cores, once per database (.ci/run), and gives each pass one half of
// the projects (E2E_HALF=1 or 2): every spec runs once per CI run, and the database code under all of them runs on
// both databases in the unit and integration tests (decision 025). A project of one half that needs a project of the
// other (`dependencies`) takes it along. Unset, as anywhere but CI, every project runs.
const half = process.env.E2E_HALF
function inThisHalf(projects: Project[]) {
  if (!half) return projects
  const wanted = new Set(projects.filter((project) => String(project.metadata?.half) === half).map((p) => p.name))
  for (let grew = true; grew; ) {
    grew = false
    for (const project of projects) {
      if (!wanted.has(project.name)) continue
      for (const dependency of project.dependencies ?? []) {
        if (!wanted.has(dependency)) {
          wanted.add(dependency)
          grew = true
        }
      }
    }
  }
  return projects.filter((project) => wanted.has(project.name))
}

export default defineConfig({
  testDir: 'tests/e2e',
  // CI runs the PGlite and PostgreSQL passes side by side: each gets its own folders (E2E_OUTPUT_DIR).
  outputDir: OUTPUT_DIR,
  globalSetup: './tests/e2e/global-setup.ts',
  globalTeardown: './tests/e2e/global-teardown.ts',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  retries: 0,
  // Generous: in CI this run shares two cores with the other database's run (.ci/run).
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: `${OUTPUT_DIR}-report` }]],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_FLAGS },
    baseURL,
    // A screenshot on failure costs every test, passing ones too (about 0.24 s of processor time each, measured on 120
    // empty tests): CI, whose files nobody opens, goes without; locally it is kept for failures.
    screenshot: process.env.CI ? 'off' : 'only-on-failure',
    // Recording a trace of every test costs CI a fair share of its two cores; locally it is kept for failures.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // The staff app's service worker saves every built file of the app on a phone's first visit (about 200 files):
    // in a fresh browser context per test that was 196 requests more for every test. Blocked here; the specs about
    // working offline allow it (`test.use({ serviceWorkers: 'allow' })`, decision 025).
    serviceWorkers: 'block',
  },
  projects: inThisHalf([
    // These need the demo accounts as seeded (newtech has not finished setup yet) …
    { name: 'seeded-state', metadata: { half: 1 }, testMatch: ['auth-landing.spec.ts', 'screenshots.spec.ts'] },
    // … so the spec that completes newtech's setup runs after them.
    { name: 'welcome', metadata: { half: 1 }, testMatch: ['welcome.spec.ts'], dependencies: ['seeded-state'] },
    // Independent flows run alongside (auth-reset changes tech2's password: nobody else uses tech2).
    {
      name: 'accounts',
      metadata: { half: 1 },
      testMatch: ['auth-signup.spec.ts', 'auth-reset.spec.ts', 'hardening.spec.ts', 'invitations.spec.ts'],
    },
    // The office's flows create their own visits, customers and visits, so they never disturb the seeded views above.
    {
      name: 'visits',
      metadata: { half: 2 },
      testMatch: [
        'visits.spec.ts',
        'customers.spec.ts',
        'stored-xss.spec.ts',
        'staff.spec.ts',
        'idempotency.spec.ts',
        'calendar-feed.spec.ts',
        'schedule.spec.ts',
        'service-plans.spec.ts',
        'plan-changes.spec.ts',
        'route-day.spec.ts',
        'balance-day.spec.ts',
        'positions.spec.ts',
        'recurring-routes.spec.ts',
      ],
    },
    // The technician's phone: each spec books the visits it works.
    {
      name: 'field',
      metadata: { half: 2 },
      testMatch: [
        'tech-day.spec.ts',
        'offline.spec.ts',
        'visit-page.spec.ts',
        'notices.spec.ts',
        'visit-photos.spec.ts',
        'offline-day.spec.ts',
        'first-month.spec.ts',
        // Invites a technician of its own, whose day it clocks, edits, approves and exports.
      ],
    },
    // notice-settings changes (and restores) Sunset's customer notices; its day of notices runs on a server of its
    // own (no Twilio: the built-in mailbox).
    // account.spec changes (and restores) tech@sunsetpools.test's login, which only 'seeded-state'
    // logs in as; inventory-settings adds its own Sunset item and restores the settings it saves; checklist-settings
    // leaves Sunset's checklist as seeded.
    {
      name: 'company',
      metadata: { half: 1 },
      testMatch: [
        'account.spec.ts',
        'inventory-settings.spec.ts',
        'team.spec.ts',
        'checklist-settings.spec.ts',
        'notice-settings.spec.ts',
        'api-settings.spec.ts',
        'customer-times.spec.ts',
      ],
      dependencies: ['seeded-state'],
    },
    // Stage three's office and field flows, each on customers and a technician of its own: suggesting a plan's day,
    // quotes approved in the portal, the technician's clock and timesheets. In the first half, whose end-to-end share
    // is the lighter; after the seeded views are photographed.
    {
      name: 'stage-three',
      metadata: { half: 1 },
      testMatch: [
        'plan-suggest.spec.ts',
        'quotes.spec.ts',
        'timesheets.spec.ts',
        'location-pin.spec.ts',
        'truck-stock.spec.ts',
        'work-orders.spec.ts',
      ],
      dependencies: ['seeded-state'],
    },
    // The repairs chain (issue 33: quote → card deposit → truck stock → work order → invoice) on a server of its own
    // with Stripe set (a local fake), once per database: PGlite in the first half, PostgreSQL (a scratch database on
    // DATABASE_URL, which .ci/run sets for the second half) in the second. The spec reads `database` to choose. Without
    // DATABASE_URL (a local run on PGlite alone) there is no PostgreSQL project, rather than one that skips.
    { name: 'repairs-pglite', metadata: { half: 1, database: 'pglite' }, testMatch: ['quote-deposit.spec.ts'] },
    ...(process.env.DATABASE_URL
      ? [
          {
            name: 'repairs-postgres',
            metadata: { half: 2, database: 'postgres' },
            testMatch: ['quote-deposit.spec.ts'],
          },
        ]
      : []),
    // Imports add customers to Blue Lagoon (names with a random suffix), so the seeded views are photographed first.
    {
      name: 'customer-import',
      metadata: { half: 1 },
      testMatch: ['customer-import.spec.ts'],
      dependencies: ['seeded-state'],
    },
    // Water balance creates its own visit for Dana (issue #10), so after the seeded views are photographed.
    { name: 'water', metadata: { half: 1 }, testMatch: ['water.spec.ts'], dependencies: ['seeded-state'] },
    // The public site (issue #7): read-only.
    { name: 'public', metadata: { half: 1 }, testMatch: ['marketing.spec.ts'] },
    // The signed-in frame: menus and the phone header (read-only).
    { name: 'shell', metadata: { half: 1 }, testMatch: ['shell.spec.ts'] },
    // Billing (issue #21) adds a customer and invoices the month for every Blue Lagoon customer with billable work:
    // the seeded views are photographed first, and "reports" downloads the month twice (same bytes) before it.
    {
      name: 'billing',
      metadata: { half: 1 },
      testMatch: ['billing.spec.ts'],
      dependencies: ['seeded-state', 'reports'],
    },
    // "Download PDF" in the portal and the office (issue 31 item 4): read-only.
    // The company brand (decision 044) runs a server of its own, so it may sit with them.
    {
      name: 'invoice-pdf',
      metadata: { half: 1 },
      testMatch: ['invoice-pdf.spec.ts', 'company-brand.spec.ts'],
    },
    // The owner's billing (issue #21): on a server of its own, whose database it writes and reads.
    { name: 'owner-billing', metadata: { half: 1 }, testMatch: ['owner-billing.spec.ts'] },
    // Editable drafts (issue 31 item 1): on a server of its own, whose database it writes first.
    // Tax rates (issue 31 item 9) and late completions (item 8) run a server of their own too.
    {
      name: 'draft-invoices',
      // In the first half: it runs on a server of its own, and the second half's end-to-end share was the longer.
      metadata: { half: 1 },
      testMatch: ['draft-invoices.spec.ts', 'billing-rates.spec.ts', 'tax-rates.spec.ts', 'late-completions.spec.ts'],
    },
    // "Profit per pool" and the QuickBooks downloads (issue #21): read-only.
    { name: 'reports', metadata: { half: 1 }, testMatch: ['reports.spec.ts', 'team-profit.spec.ts'] },
    // Card payments with Stripe configured: the spec runs its own server against a local fake Stripe.
    { name: 'card-payments', metadata: { half: 1 }, testMatch: ['card-payments.spec.ts'] },
    // Every page on a 360 px phone: width, axe and touch targets (issue #19 item 6); read-only but for the plan forms,
    // which add a customer of their own, so after the seeded views are photographed. In the first half: the PostgreSQL
    // pass runs the larger share of the unit and integration tests (tests/setup/ci-databases.ts).
    {
      name: 'phone',
      metadata: { half: 1 },
      testMatch: ['phone-width.spec.ts'],
      dependencies: ['seeded-state'],
    },
  ] as Project[]),
})
