import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseTsplib, type TsplibInstance, tsplibDistance } from './tsplib'

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/tsplib')
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name))

function parsed(input: string | Uint8Array): TsplibInstance {
  const result = parseTsplib(input)
  if (!result.ok) throw new Error(result.message)
  return result.instance
}

function message(input: string | Uint8Array) {
  const result = parseTsplib(input)
  if (result.ok) throw new Error('expected the file to be refused')
  expect(result.code).toBe('invalid')
  return result.message
}

/** The exact optimum by Held–Karp dynamic programming: fine for the 14- and 16-city GEO instances. */
function optimalTourLength(size: number, distance: (i: number, j: number) => number) {
  const others = size - 1
  const full = 1 << others
  const best = new Float64Array(full * others).fill(Number.POSITIVE_INFINITY)
  for (let j = 0; j < others; j++) best[(1 << j) * others + j] = distance(0, j + 1)
  for (let set = 1; set < full; set++) {
    for (let last = 0; last < others; last++) {
      const value = best[set * others + last] as number
      if (!(set & (1 << last)) || value === Number.POSITIVE_INFINITY) continue
      for (let next = 0; next < others; next++) {
        if (set & (1 << next)) continue
        const key = (set | (1 << next)) * others + next
        best[key] = Math.min(best[key] as number, value + distance(last + 1, next + 1))
      }
    }
  }
  let optimum = Number.POSITIVE_INFINITY
  for (let last = 0; last < others; last++) {
    optimum = Math.min(optimum, (best[(full - 1) * others + last] as number) + distance(last + 1, 0))
  }
  return optimum
}

const HEADER = 'NAME: tiny\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n'

describe('reading TSPLIB files', () => {
  it('reads berlin52 ("KEY: value", decimal coordinates) and eil51 ("KEY : value", integers)', () => {
    const berlin = parsed(fixture('berlin52.tsp'))
    expect(berlin).toMatchObject({ name: 'berlin52', edgeWeightType: 'EUC_2D' })
    expect(berlin.nodes).toHaveLength(52)
    expect(berlin.nodes[0]).toEqual({ id: 1, x: 565, y: 575 })
    expect(berlin.nodes[51]).toEqual({ id: 52, x: 1740, y: 245 })
    const eil = parsed(fixture('eil51.tsp'))
    expect(eil).toMatchObject({ name: 'eil51', edgeWeightType: 'EUC_2D' })
    expect(eil.nodes).toHaveLength(51)
    expect(eil.nodes[50]).toEqual({ id: 51, x: 30, y: 40 })
  })

  it('reads GEO files with indented, space-aligned nodes and the keywords that do not matter here', () => {
    const burma = parsed(fixture('burma14.tsp'))
    expect(burma).toMatchObject({ name: 'burma14', edgeWeightType: 'GEO' })
    expect(burma.nodes[10]).toEqual({ id: 11, x: 16.53, y: 97.38 })
    expect(parsed(fixture('ulysses16.tsp')).nodes[10]).toEqual({ id: 11, x: 36.08, y: -5.21 })
  })

  it('takes CRLF line ends, tabs, "SECTION:", a missing EOF, exponents, and anything after EOF', () => {
    const text = 'NAME:tiny\r\nTYPE :\tTSP\r\nDIMENSION\t:  3\r\nEDGE_WEIGHT_TYPE : EUC_2D\r\nNODE_COORD_SECTION:\r\n'
    const nodes = '1\t0 0\r\n2 3.0e0 4\r\n  3 .5 -1\r\n'
    expect(parsed(text + nodes).nodes).toEqual([
      { id: 1, x: 0, y: 0 },
      { id: 2, x: 3, y: 4 },
      { id: 3, x: 0.5, y: -1 },
    ])
    expect(parsed(`${text + nodes}EOF\ngarbage after the end`).nodes).toHaveLength(3)
  })

  it.each([
    ['an empty file', '', 'line 1: the file is empty'],
    ['a file of blank lines', '\n  \n\t\n', 'line 1: the file is empty'],
    [
      'a missing DIMENSION',
      'NAME: x\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n',
      'line 3: DIMENSION must be given before NODE_COORD_SECTION',
    ],
    [
      'a missing EDGE_WEIGHT_TYPE',
      'DIMENSION: 1\nNODE_COORD_SECTION\n1 0 0\n',
      'line 2: EDGE_WEIGHT_TYPE must be given before NODE_COORD_SECTION',
    ],
    [
      'no NODE_COORD_SECTION',
      'NAME: x\nDIMENSION: 2\nEDGE_WEIGHT_TYPE: GEO\nEOF\n',
      'line 4: the file ends without NODE_COORD_SECTION',
    ],
    ['a header alone', 'NAME: x\n', 'line 2: the file ends without DIMENSION'],
    [
      'fewer nodes than DIMENSION',
      `${HEADER}1 0 0\n2 1 1\nEOF\n`,
      'line 5: NODE_COORD_SECTION lists 2 nodes but DIMENSION is 3',
    ],
    ['more nodes than DIMENSION', `${HEADER}1 0 0\n2 1 1\n3 2 2\n4 3 3\n`, 'line 9: node 4 is outside 1…3 (DIMENSION)'],
    ['a node twice', `${HEADER}1 0 0\n2 1 1\n2 2 2\n`, 'line 8: node 2 appears twice (first on line 7)'],
    [
      'an unknown edge weight type',
      'DIMENSION: 2\nEDGE_WEIGHT_TYPE: MANHATTAN\n',
      'line 2: EDGE_WEIGHT_TYPE "MANHATTAN" is not supported (EUC_2D or GEO)',
    ],
    [
      'a TSPLIB type this does not do',
      'DIMENSION: 2\nEDGE_WEIGHT_TYPE: ATT\n',
      'line 2: EDGE_WEIGHT_TYPE "ATT" is not supported (EUC_2D or GEO)',
    ],
    ['an asymmetric problem', 'NAME: br17\nTYPE: ATSP\n', 'line 2: TYPE "ATSP" is not supported (only TSP)'],
    ['a non-numeric coordinate', `${HEADER}1 0 0\n2 1,5 1\n`, 'line 7: coordinate "1,5" is not a number'],
    ['an infinite coordinate', `${HEADER}1 0 1e999\n`, 'line 6: coordinate "1e999" is not a number'],
    ['a node without y', `${HEADER}1 0 0\n2 1\n`, 'line 7: expected a node as "number x y", not 2 values ("2 1")'],
    ['three coordinates', `${HEADER}1 0 0 0\n`, 'line 6: expected a node as "number x y", not 4 values ("1 0 0 0")'],
    ['a fractional node number', `${HEADER}1.5 0 0\n`, 'line 6: node number "1.5" is not a whole number'],
    ['a bad DIMENSION', 'DIMENSION: fifty\n', 'line 1: DIMENSION must be a whole number of nodes, not "fifty"'],
    ['a zero DIMENSION', 'DIMENSION: 0\n', 'line 1: DIMENSION must be a whole number of nodes, not "0"'],
    [
      'a DIMENSION past the optimizer',
      'DIMENSION: 85900\n',
      'line 1: DIMENSION 85900 is more than the optimizer takes (2000)',
    ],
    ['a keyword twice', 'DIMENSION: 3\nDIMENSION: 4\n', 'line 2: DIMENSION appears twice (first on line 1)'],
    ['an unknown keyword', 'NAME: x\nCOLOR: blue\n', 'line 2: unknown keyword "COLOR"'],
    [
      'an explicit matrix',
      'DIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\nEDGE_WEIGHT_SECTION\n',
      'line 3: EDGE_WEIGHT_SECTION is not supported (only NODE_COORD_SECTION)',
    ],
    [
      '3-D coordinates',
      'NODE_COORD_TYPE: THREED_COORDS\n',
      'line 1: NODE_COORD_TYPE "THREED_COORDS" is not supported (only TWOD_COORDS)',
    ],
    [
      'a stray line in the header',
      'NAME: x\nhello world\n',
      'line 2: expected "KEYWORD : value" or a section, not "hello world"',
    ],
    [
      'NODE_COORD_SECTION twice',
      `${HEADER}1 0 0\nNODE_COORD_SECTION\n`,
      'line 7: NODE_COORD_SECTION appears twice (first on line 5)',
    ],
  ])('refuses %s, naming the line', (_, text, expected) => {
    expect(message(text)).toBe(expected)
  })

  it('refuses a binary file, naming the line', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d])
    expect(message(png)).toBe('line 2: this is not a text file (binary data)')
    const eil = fixture('eil51.tsp').toString()
    expect(message(eil.replace('2 49 49', '2 49\u000049'))).toBe('line 8: this is not a text file (binary data)')
  })

  it('quotes at most 40 characters of a bad token', () => {
    expect(message(`NAME: x\n${'y'.repeat(10_000)}\n`)).toBe(
      `line 2: expected "KEYWORD : value" or a section, not "${'y'.repeat(40)}…"`,
    )
  })

  it('answers any text or bytes with a result, never an exception', () => {
    const keywordish = fc.constantFrom(
      'NAME: a',
      'DIMENSION: 2',
      'DIMENSION : x',
      'EDGE_WEIGHT_TYPE: GEO',
      'NODE_COORD_SECTION',
      'EOF',
      '1 2 3',
      '2 a b',
      '',
    )
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(keywordish).map((lines) => lines.join('\n')),
        ),
        (text) => {
          const result = parseTsplib(text)
          if (!result.ok) expect(result.message).toMatch(/^line \d+: /)
        },
      ),
    )
    fc.assert(
      fc.property(fc.uint8Array(), (bytes) => {
        const result = parseTsplib(bytes)
        if (!result.ok) expect(result.message).toMatch(/^line \d+: /)
      }),
    )
  })
})

describe('TSPLIB distances', () => {
  it('EUC_2D is the Euclidean distance rounded to the nearest integer', () => {
    const berlin = tsplibDistance(parsed(fixture('berlin52.tsp')))
    // (565, 575)–(25, 185): √443700 = 666.1…
    expect(berlin(0, 1)).toBe(666)
    expect(berlin(1, 0)).toBe(666)
    const tiny = tsplibDistance(parsed(`${HEADER}1 0 0\n2 0 2.5\n3 0.5 0\n`))
    expect(tiny(0, 1)).toBe(3) // nint(2.5) rounds half up
    expect(tiny(0, 2)).toBe(1)
  })

  it('GEO reads DDD.MM as degrees and minutes and uses TSPLIB’s π, radius and +1.0 truncation', () => {
    const burma = tsplibDistance(parsed(fixture('burma14.tsp')))
    // burma14's first row as TSPLIB publishes it.
    expect(Array.from({ length: 13 }, (_, j) => burma(0, j + 1))).toEqual([
      153, 510, 706, 966, 581, 455, 70, 160, 372, 157, 567, 342, 398,
    ])
  })

  it('uses TSPLIB’s π = 3.141592, not Math.PI', () => {
    // Worked out separately (Python, the TSPLIB95 formula): 4,586 km with 3.141592, 4,585 with Math.PI.
    const text = 'DIMENSION: 2\nEDGE_WEIGHT_TYPE: GEO\nNODE_COORD_SECTION\n1 76.00 -131.21\n2 56.18 -17.19\n'
    expect(tsplibDistance(parsed(text))(0, 1)).toBe(4586)
  })

  it('gives the published optimal tour lengths of burma14 (3,323) and ulysses16 (6,859)', () => {
    for (const [file, optimum] of [
      ['burma14.tsp', 3323],
      ['ulysses16.tsp', 6859],
    ] as const) {
      const instance = parsed(fixture(file))
      expect(optimalTourLength(instance.nodes.length, tsplibDistance(instance))).toBe(optimum)
    }
  })
})
