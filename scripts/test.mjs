// `npm test`: the unit and integration tests (Vitest), then the end-to-end tests (Playwright); the first to fail
// ends the run with its exit code. E2E_FIRST=1 runs the end-to-end tests first: CI runs two passes side by side on
// two cores, and one pass's browsers share the machine better with the other pass's Vitest than with its browsers
// (decision 025).
import { spawnSync } from 'node:child_process'

const steps = [
  ['vitest', 'run'],
  ['playwright', 'test'],
]
if (process.env.E2E_FIRST === '1') steps.reverse()
// A larger young generation for every Node process of the run (Vitest's workers, Playwright's, the app servers the
// tests start, which inherit it): rendering pages and reading rows allocate many short-lived objects, and with V8's
// default 16 MB semi-space the collector runs so often that the PGlite pass's Vitest took 369 s of processor time
// against 324 with 64 MB (decision 025).
const env = {
  ...process.env,
  NODE_OPTIONS: [process.env.NODE_OPTIONS, '--max-semi-space-size=64'].filter(Boolean).join(' '),
}
for (const [tool, ...args] of steps) {
  const { status } = spawnSync('npx', ['--no-install', tool, ...args], { stdio: 'inherit', env })
  if (status !== 0) process.exit(status ?? 1)
}
