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
for (const [tool, ...args] of steps) {
  const { status } = spawnSync('npx', ['--no-install', tool, ...args], { stdio: 'inherit' })
  if (status !== 0) process.exit(status ?? 1)
}
