// The first `npm start` (issue 16 item 9, decision 026): on an empty data folder, with nothing configured, the
// built server says where it runs and who can sign in, and nothing else: no warning, no deprecation notice. Runs
// `scripts/start.mjs` as someone who just cloned the repository would (after the build, which CI checks on its own).
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_LOGINS, DEMO_PASSWORD } from '~/demo/seed.server'
import { buildIfNeeded } from '../../scripts/lib/app-server'
import { freePort } from '../../scripts/lib/free-port'

const ROOT = path.resolve(import.meta.dirname, '../..')
/** The banner's last line: every demo login is listed once it is there. */
const LAST_LOGIN = DEMO_LOGINS.at(-1)?.email ?? ''

let scratch: string
let child: ChildProcess | undefined

beforeAll(() => {
  buildIfNeeded(ROOT, 'first start')
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-first-start-'))
})

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM')
    await new Promise((resolve) => child?.once('exit', resolve))
  }
  fs.rmSync(scratch, { recursive: true, force: true })
})

/** Starts `npm start`'s script and collects its output until the banner lists the last demo login. */
async function firstStart(port: number) {
  // A fresh clone's environment: no DATABASE_URL, SMTP, secret or NODE_ENV (the test run's own are left out).
  const started = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), DATA_DIR: path.join(scratch, 'data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child = started
  let stdout = ''
  let stderr = ''
  started.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8')
  })
  started.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (stdout.includes(LAST_LOGIN)) finish()
    }, 100)
    const onExit = (code: number | null) => finish(new Error(`npm start exited (${code}):\n${stdout}\n${stderr}`))
    function finish(error?: Error) {
      clearInterval(timer)
      started.off('exit', onExit)
      if (error) reject(error)
      else resolve()
    }
    started.once('exit', onExit)
  })
  // Whatever a late start-up step prints comes right after the banner.
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  return { stdout, stderr }
}

describe('the first npm start', () => {
  it('prints the URL and the demo logins, and no warning', async () => {
    const port = await freePort()
    const { stdout, stderr } = await firstStart(port)
    expect(stdout).toContain(`Pool Bud is running at http://localhost:${port}\n`)
    expect(stdout).toContain(`embedded PGlite in ${path.join(scratch, 'data')}/db`)
    expect(stdout).toContain(`Demo logins (password ${DEMO_PASSWORD}`)
    for (const login of DEMO_LOGINS) expect(stdout).toMatch(new RegExp(`^ {2}${login.email} `, 'm'))
    const warnings = (output: string) => output.split('\n').filter((line) => /warn|deprecat/i.test(line))
    expect(warnings(stderr)).toEqual([])
    expect(warnings(stdout)).toEqual([])
    expect(stderr).toBe('')
  })
})
