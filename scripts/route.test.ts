import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { straightLineDriveMeters } from '~/routing/distance'
import { sendJson, startLocalServer } from '../tests/helpers/local-http-server'

const root = path.resolve(import.meta.dirname, '..')
const fixture = (name: string) => path.join(root, 'tests/fixtures/tsplib', name)
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-route-'))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

/** The script that `npm run -s route -- …args` runs, as `tsx` runs it (with no road-distance server configured). */
function route(...args: string[]) {
  return routeWith({ OSRM_URL: '' }, ...args)
}

/**
 * Node with tsx's loader runs the script as the package script's `tsx scripts/route.ts` does, without npm's own start
 * (about 0.8 s of processor time a run, decision 025); `npmRun` goes through npm itself, as a person types it.
 */
function routeWith(environment: Record<string, string>, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/route.ts', ...args], environment)
}

/** `npm run -s route -- …args`, as a person types it. */
function npmRun(...args: string[]) {
  return run('npm', ['run', '-s', 'route', '--', ...args], { OSRM_URL: '' })
}

function run(command: string, args: string[], environment: Record<string, string>) {
  const env = { ...process.env, ...environment }
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(command, args, { cwd: root, env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr })
    })
  })
}

/** Writes a problem file into the scratch directory. */
function problemFile(name: string, problem: unknown) {
  const file = path.join(scratch, name)
  fs.writeFileSync(file, typeof problem === 'string' ? problem : JSON.stringify(problem))
  return file
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
    const missing = await npmRun(path.join(scratch, 'nope.tsp'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('nope.tsp: no such file')
    const usage = await npmRun()
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('Usage: npm run -s route -- <file.tsp>')
  })
})

describe('npm run -s route with a JSON problem (time windows)', () => {
  it('prints the issue’s shape: the order of ids, length, lateness, finish and time, every window kept', async () => {
    // The example file, grown to three stops whose windows can all be kept.
    const file = problemFile('day.json', {
      start: { x: 50, y: 50 },
      startTime: 480,
      speed: 1,
      stops: [
        { id: 's1', x: 12.5, y: 40, open: 480, close: 600, service: 15 },
        { id: 's2', x: 50, y: 80, open: 600, close: 660, service: 20 },
        { id: 's3', x: 80, y: 50, service: 10 },
      ],
    })
    const { code, stdout, stderr } = await route(file)
    expect(code).toBe(0)
    expect(stderr).toBe('')
    expect(stdout.trimEnd().split('\n')).toHaveLength(1)
    const answer = JSON.parse(stdout)
    expect(Object.keys(answer)).toEqual(['order', 'length', 'late', 'finish', 'ms'])
    expect(answer.late).toBe(0)
    // s1 (≈ 38.8 minutes, 15 on site), s2 at ≈ 9:49 waits for 10:00 (20 on site), then s3 (≈ 42.4, 10 on site).
    expect(answer.order).toEqual(['s1', 's2', 's3'])
    expect(answer.length).toBeCloseTo(Math.hypot(37.5, 10) + Math.hypot(37.5, 40) + Math.hypot(30, 30), 3)
    expect(answer.finish).toBeCloseTo(600 + 20 + Math.hypot(30, 30) + 10, 3)
    expect(answer.ms).toBeGreaterThanOrEqual(0)
  })

  it('keeps appointments in time order where the shortest drive would not (the issue’s 12:00 PM before 8:00 AM)', async () => {
    const file = problemFile('appointments.json', {
      start: { x: 0, y: 0 },
      startTime: 470,
      stops: [
        { id: 'noon', x: 5, y: 0, at: 720, service: 30 },
        { id: 'eight', x: 10, y: 0, at: 480, service: 30 },
      ],
    })
    const answer = JSON.parse((await route(file)).stdout)
    expect(answer.order).toEqual(['eight', 'noon'])
    expect(answer.late).toBe(0)
    expect(answer.finish).toBe(750)
  })

  it('names the stop that cannot be reached in time on stderr and still prints the least-late route', async () => {
    const file = problemFile('late.json', {
      start: { x: 0, y: 0 },
      startTime: 479,
      stops: [
        { id: 'near', x: 0, y: 1, at: 480, service: 10 },
        { id: 'far', x: 0, y: 21, at: 480, service: 10 },
      ],
    })
    const { code, stdout, stderr } = await route(file)
    expect(code).toBe(0)
    const answer = JSON.parse(stdout)
    expect(answer.order).toEqual(['near', 'far'])
    expect(answer.late).toBe(30)
    expect(stderr).toContain('far cannot be reached in time: arrives 08:30, 30 minutes after its appointment (08:00)')
    expect(stderr).not.toContain('near cannot')
  })

  it('drives latitude/longitude stops straight-line × 1.3 at 30 mph when no road server is set', async () => {
    const office = { lat: 26.1224, lng: -80.1373 }
    const pool = { lat: 26.2, lng: -80.2 }
    const file = problemFile('earth.json', {
      start: office,
      startTime: 480,
      stops: [{ id: 'pool', ...pool, service: 20 }],
    })
    const answer = JSON.parse((await route(file)).stdout)
    const meters = straightLineDriveMeters(office, pool)
    expect(answer.length).toBeCloseTo(meters, 2)
    expect(answer.finish).toBeCloseTo(480 + meters / ((30 * 1609.344) / 60) + 20, 2)
  })

  it('uses OSRM’s road meters and driving times when OSRM_URL is set', async () => {
    // The office and two pools; OSRM's table (meters and seconds, one-way differences included).
    const table = {
      code: 'Ok',
      distances: [
        [0, 9120.4, 14210.2],
        [9305.1, 0, 22480],
        [14190.7, 22510.3, 0],
      ],
      durations: [
        [0, 702.1, 1010.5],
        [731.9, 0, 1605],
        [1001.2, 1611.8, 0],
      ],
    }
    const server = await startLocalServer((_, response) => sendJson(response, 200, table))
    try {
      const file = problemFile('road.json', {
        start: { lat: 26.1224, lng: -80.1373 },
        startTime: 460,
        stops: [
          { id: 'a', lat: 26.1901, lng: -80.0965, at: 480 },
          { id: 'b', lat: 26.0112, lng: -80.1495 },
        ],
      })
      const { code, stdout, stderr } = await routeWith({ OSRM_URL: server.url }, file)
      expect(code).toBe(0)
      expect(stderr).toBe('')
      const answer = JSON.parse(stdout)
      // a at 7:51.7 waits for 8:00; then 1,605 s to b. b first would reach a about 24 minutes late.
      expect(answer.order).toEqual(['a', 'b'])
      expect(answer.late).toBe(0)
      expect(answer.length).toBeCloseTo(9120.4 + 22480, 3)
      expect(answer.finish).toBeCloseTo(480 + 1605 / 60, 3)
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it('explains bad input as field: message lines on stderr and exits 1', async () => {
    const file = problemFile('bad.json', {
      start: { x: 1, y: 2 },
      startTime: -5,
      stops: [
        { id: 'a', x: 1, open: 600, close: 500 },
        { id: 'a', lat: 1, lng: 2 },
        { id: 'b', x: 1, y: 1, at: 600, open: 500 },
      ],
      color: 'blue',
    })
    const { code, stdout, stderr } = await route(file)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain(`${file}: startTime: must be 0 or more minutes from midnight`)
    expect(stderr).toContain(`${file}: stops[0]: needs both x and y`)
    expect(stderr).toContain(`${file}: stops[0].close: must not be before open`)
    expect(stderr).toContain(`${file}: stops[1]: use x and y like the start`)
    expect(stderr).toContain(`${file}: stops[1].id: is used twice`)
    expect(stderr).toContain(`${file}: stops[2]: give an appointment time (at) or a window (open, close), not both`)
    expect(stderr).toContain('color')
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it('gives the line of a JSON syntax error', async () => {
    const file = problemFile('broken.json', '{"start":\n {"x":1,,}}')
    const { code, stderr } = await route(file)
    expect(code).toBe(1)
    expect(stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line 2: not JSON`))
  })
})
