import { execFileSync } from 'node:child_process'
import { defineConfig } from '@playwright/test'

// The config is evaluated in the runner and again in every worker; the port is chosen once,
// in the runner, and handed down through the environment (workers inherit it, and so does
// the global setup that starts the server on it).
function freePort(): number {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim())
}

process.env.E2E_PORT ??= String(freePort())
const baseURL = `http://localhost:${process.env.E2E_PORT}`
process.env.E2E_BASE_URL = baseURL

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  globalSetup: './tests/e2e/global-setup.ts',
  globalTeardown: './tests/e2e/global-teardown.ts',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    // These need the demo accounts as seeded (newtech has not finished setup yet) …
    { name: 'seeded-state', testMatch: ['auth-landing.spec.ts', 'screenshots.spec.ts'] },
    // … so the spec that completes newtech's setup runs after them.
    { name: 'welcome', testMatch: ['welcome.spec.ts'], dependencies: ['seeded-state'] },
    // Independent flows run alongside (auth-reset changes tech2's password: nobody else uses tech2).
    { name: 'accounts', testMatch: ['auth-signup.spec.ts', 'auth-reset.spec.ts'] },
    // Jobs flows create their own jobs, so they never disturb the seeded views above.
    { name: 'jobs', testMatch: ['jobs.spec.ts', 'customers.spec.ts'] },
  ],
})
