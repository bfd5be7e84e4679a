import os from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'server/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    environment: 'node',
    pool: 'forks',
    // Files share their worker's modules instead of importing the app afresh each: that import was about 40 % of a
    // run. Each file still gets its own database, data folder and environment (tests/setup/test-env.ts).
    isolate: false,
    // Never fewer than two files at once, even on two cores (Vitest's default there is one): the slowest files mostly
    // wait — a server restarted after a kill, an email lease running out — and another file runs meanwhile.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/test-env.ts'],
    // Generous: in CI this run shares two cores with the other database's run (.ci/run).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { NODE_ENV: 'test' },
  },
})
