import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')
const fixture = (name: string) => path.join(root, 'tests/fixtures/tsplib', name)
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-route-'))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

/** `npm run -s route -- …args`, as a person types it. */
function route(...args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('npm', ['run', '-s', 'route', '--', ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr })
    })
  })
}

/** TSPLIB's EUC_2D length of a closed tour over the file's nodes, computed here from the file itself. */
function eucTourLength(file: string, order: number[]) {
  const nodes = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((fields) => fields.length === 3 && fields.every(Number.isFinite))
  let length = 0
  order.forEach((node, k) => {
    const [, x1 = 0, y1 = 0] = nodes[node] ?? []
    const [, x2 = 0, y2 = 0] = nodes[order[(k + 1) % order.length] as number] ?? []
    length += Math.floor(Math.hypot(x1 - x2, y1 - y2) + 0.5)
  })
  return length
}

describe('npm run -s route', () => {
  it.each([
    ['berlin52.tsp', 52, 7542],
    ['eil51.tsp', 51, 426],
  ])(
    'prints one JSON line for %s: a tour at most 1.05 × the optimum, its length and the time',
    async (file, size, optimum) => {
      const { code, stdout } = await route(fixture(file))
      expect(code).toBe(0)
      expect(stdout.endsWith('\n')).toBe(true)
      expect(stdout.trimEnd().split('\n')).toHaveLength(1)
      const answer = JSON.parse(stdout)
      expect(Object.keys(answer)).toEqual(['length', 'ms', 'order'])
      expect([...answer.order].sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: size }, (_, i) => i))
      expect(answer.length).toBe(eucTourLength(fixture(file), answer.order))
      expect(answer.length).toBeLessThanOrEqual(optimum * 1.05)
      expect(answer.ms).toBeGreaterThanOrEqual(0)
    },
  )

  it('takes GEO files, with TSPLIB’s GEO length', async () => {
    const { code, stdout } = await route(fixture('burma14.tsp'))
    expect(code).toBe(0)
    expect(JSON.parse(stdout).length).toBe(3323)
  })

  it('explains a file that does not parse on stderr and exits 1', async () => {
    const broken = path.join(scratch, 'broken.tsp')
    fs.writeFileSync(
      broken,
      'NAME: broken\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 x 1\n',
    )
    const { code, stdout, stderr } = await route(broken)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain(`${broken}: line 7: coordinate "x" is not a number`)
    expect(stderr).not.toMatch(/\n\s+at /) // no stack trace
  })

  it('explains a missing file and a wrong command line', async () => {
    const missing = await route(path.join(scratch, 'nope.tsp'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('nope.tsp: no such file')
    const usage = await route()
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('Usage: npm run -s route -- <file.tsp>')
  })
})
