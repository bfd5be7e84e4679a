// TSPLIB95 `.tsp` files (symmetric TSP, coordinates in NODE_COORD_SECTION, EDGE_WEIGHT_TYPE EUC_2D or GEO), with
// TSPLIB's own integer distances, so a tour's length here is the length TSPLIB publishes optima for.
// Every file that does not parse gets a message naming its line, never an exception: the file comes from a person.
import { failure, type Result, success } from '~/utils/result'
import { MAX_POINTS } from './optimize'

export type EdgeWeightType = 'EUC_2D' | 'GEO'
export type TsplibNode = { id: number; x: number; y: number }
export type TsplibInstance = { name: string; edgeWeightType: EdgeWeightType; nodes: TsplibNode[] }

const EDGE_WEIGHT_TYPES: readonly string[] = ['EUC_2D', 'GEO'] satisfies EdgeWeightType[]
/** The specification keywords of TSPLIB95 §1.1; the ones that do not matter for EUC_2D/GEO are accepted and ignored. */
const KEYWORDS = new Set([
  'NAME',
  'TYPE',
  'COMMENT',
  'DIMENSION',
  'CAPACITY',
  'EDGE_WEIGHT_TYPE',
  'EDGE_WEIGHT_FORMAT',
  'EDGE_DATA_FORMAT',
  'NODE_COORD_TYPE',
  'DISPLAY_DATA_TYPE',
])
/** TSPLIB95 §1.2's data sections other than NODE_COORD_SECTION: none of them fits a coordinate-based TSP here. */
const OTHER_SECTIONS = new Set([
  'DEPOT_SECTION',
  'DEMAND_SECTION',
  'EDGE_DATA_SECTION',
  'FIXED_EDGES_SECTION',
  'DISPLAY_DATA_SECTION',
  'TOUR_SECTION',
  'EDGE_WEIGHT_SECTION',
])
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/** A control character other than tab, vertical tab or form feed (line ends are split off): a binary file. */
function isBinary(line: string) {
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i)
    if ((code < 0x20 && code !== 0x09 && code !== 0x0b && code !== 0x0c) || code === 0x7f) return true
  }
  return false
}

/** A token quoted for a message, cut short so a binary line cannot flood it. */
function quote(token: string) {
  return JSON.stringify(token.length > 40 ? `${token.slice(0, 40)}…` : token)
}

/** Parses a `.tsp` file's text or bytes. */
export function parseTsplib(input: string | Uint8Array): Result<{ instance: TsplibInstance }> {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input)
  if (text.trim() === '') return failure('invalid', 'line 1: the file is empty')
  const lines = text.split(/\r\n|\r|\n/)
  const invalid = (line: number, message: string) => failure('invalid', `line ${line}: ${message}`)
  const binary = lines.findIndex(isBinary)
  if (binary !== -1) return invalid(binary + 1, 'this is not a text file (binary data)')

  const seen = new Map<string, number>()
  let name = ''
  let dimension: number | undefined
  let edgeWeightType: EdgeWeightType | undefined
  let sectionLine: number | undefined
  let inSection = false
  const nodes: TsplibNode[] = []
  const nodeLines = new Map<number, number>()
  let lastLine = lines.length

  for (let index = 0; index < lines.length; index++) {
    const lineNumber = index + 1
    const line = (lines[index] ?? '').trim()
    if (line === '') continue
    if (line === 'EOF') {
      lastLine = lineNumber
      break
    }

    const section = /^([A-Z_]+_SECTION)\s*:?$/i.exec(line)?.[1]?.toUpperCase()
    if (section === 'NODE_COORD_SECTION') {
      if (sectionLine !== undefined)
        return invalid(lineNumber, `NODE_COORD_SECTION appears twice (first on line ${sectionLine})`)
      if (dimension === undefined) return invalid(lineNumber, 'DIMENSION must be given before NODE_COORD_SECTION')
      if (edgeWeightType === undefined) {
        return invalid(lineNumber, 'EDGE_WEIGHT_TYPE must be given before NODE_COORD_SECTION')
      }
      sectionLine = lineNumber
      inSection = true
      continue
    }
    if (section !== undefined) {
      if (OTHER_SECTIONS.has(section))
        return invalid(lineNumber, `${section} is not supported (only NODE_COORD_SECTION)`)
      return invalid(lineNumber, `unknown section ${quote(section)}`)
    }

    const entry = /^([A-Za-z_]+)\s*:\s*(.*)$/.exec(line)
    if (entry) {
      inSection = false
      const keyword = (entry[1] ?? '').toUpperCase()
      const value = (entry[2] ?? '').trim()
      if (!KEYWORDS.has(keyword)) return invalid(lineNumber, `unknown keyword ${quote(keyword)}`)
      const earlier = seen.get(keyword)
      if (earlier !== undefined) return invalid(lineNumber, `${keyword} appears twice (first on line ${earlier})`)
      seen.set(keyword, lineNumber)
      if (keyword === 'NAME') name = value
      else if (keyword === 'TYPE' && value.toUpperCase() !== 'TSP') {
        return invalid(lineNumber, `TYPE ${quote(value)} is not supported (only TSP)`)
      } else if (keyword === 'DIMENSION') {
        if (!/^\d+$/.test(value) || Number(value) < 1) {
          return invalid(lineNumber, `DIMENSION must be a whole number of nodes, not ${quote(value)}`)
        }
        dimension = Number(value)
        if (dimension > MAX_POINTS) {
          return invalid(lineNumber, `DIMENSION ${dimension} is more than the optimizer takes (${MAX_POINTS})`)
        }
      } else if (keyword === 'EDGE_WEIGHT_TYPE') {
        const type = value.toUpperCase()
        if (!EDGE_WEIGHT_TYPES.includes(type)) {
          return invalid(lineNumber, `EDGE_WEIGHT_TYPE ${quote(value)} is not supported (EUC_2D or GEO)`)
        }
        edgeWeightType = type as EdgeWeightType
      } else if (keyword === 'NODE_COORD_TYPE' && value.toUpperCase() !== 'TWOD_COORDS') {
        return invalid(lineNumber, `NODE_COORD_TYPE ${quote(value)} is not supported (only TWOD_COORDS)`)
      }
      continue
    }

    if (!inSection) return invalid(lineNumber, `expected "KEYWORD : value" or a section, not ${quote(line)}`)
    const fields = line.split(/\s+/)
    if (fields.length !== 3) {
      return invalid(lineNumber, `expected a node as "number x y", not ${fields.length} values (${quote(line)})`)
    }
    const [idText = '', xText = '', yText = ''] = fields
    if (!/^\d+$/.test(idText)) return invalid(lineNumber, `node number ${quote(idText)} is not a whole number`)
    const id = Number(idText)
    if (dimension !== undefined && (id < 1 || id > dimension)) {
      return invalid(lineNumber, `node ${id} is outside 1…${dimension} (DIMENSION)`)
    }
    const firstLine = nodeLines.get(id)
    if (firstLine !== undefined) return invalid(lineNumber, `node ${id} appears twice (first on line ${firstLine})`)
    const coordinates: number[] = []
    for (const token of [xText, yText]) {
      const value = NUMBER.test(token) ? Number(token) : Number.NaN
      if (!Number.isFinite(value)) return invalid(lineNumber, `coordinate ${quote(token)} is not a number`)
      coordinates.push(value)
    }
    nodeLines.set(id, lineNumber)
    nodes.push({ id, x: coordinates[0] ?? 0, y: coordinates[1] ?? 0 })
  }

  if (sectionLine === undefined || dimension === undefined || edgeWeightType === undefined) {
    const missing =
      dimension === undefined ? 'DIMENSION' : edgeWeightType === undefined ? 'EDGE_WEIGHT_TYPE' : 'NODE_COORD_SECTION'
    return invalid(lastLine, `the file ends without ${missing}`)
  }
  if (nodes.length !== dimension) {
    return invalid(sectionLine, `NODE_COORD_SECTION lists ${nodes.length} nodes but DIMENSION is ${dimension}`)
  }
  return success({ instance: { name, edgeWeightType, nodes } })
}

/** TSPLIB's nint: (int)(x + 0.5). */
function nint(value: number) {
  return Math.floor(value + 0.5)
}

/** TSPLIB's π, to six decimals: with Math.PI some GEO distances come out one less or more. */
// biome-ignore lint/suspicious/noApproximativeNumericConstant: TSPLIB95 defines GEO distances with exactly this value.
const TSPLIB_PI = 3.141592
/** TSPLIB's idealised Earth radius in kilometers. */
const RRR = 6378.388

/**
 * TSPLIB's GEO coordinate, DDD.MM (degrees and minutes), in radians. TSPLIB95's text writes `nint` for the degrees,
 * but its FAQ and every reference implementation truncate, and the published optima (burma14: 3,323, ulysses16:
 * 6,859) are computed that way: 16.53 is 16° 53′, not 17° − 7′.
 */
function geoRadians(value: number) {
  const degrees = Math.trunc(value)
  const minutes = value - degrees
  return (TSPLIB_PI * (degrees + (5.0 * minutes) / 3.0)) / 180.0
}

/** The distance between nodes i and j (0-based positions in the file's node list), as TSPLIB defines it. */
export function tsplibDistance(instance: TsplibInstance): (i: number, j: number) => number {
  const { nodes } = instance
  if (instance.edgeWeightType === 'EUC_2D') {
    return (i, j) => {
      const a = nodes[i] as TsplibNode
      const b = nodes[j] as TsplibNode
      return nint(Math.sqrt((a.x - b.x) ** 2 + (a.y - b.y) ** 2))
    }
  }
  const latitude = nodes.map((node) => geoRadians(node.x))
  const longitude = nodes.map((node) => geoRadians(node.y))
  return (i, j) => {
    const q1 = Math.cos((longitude[i] as number) - (longitude[j] as number))
    const q2 = Math.cos((latitude[i] as number) - (latitude[j] as number))
    const q3 = Math.cos((latitude[i] as number) + (latitude[j] as number))
    // Clamped: rounding can take the cosine a hair past ±1, where acos is NaN (C's too).
    const cosine = Math.min(1, Math.max(-1, 0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)))
    return Math.trunc(RRR * Math.acos(cosine) + 1.0)
  }
}
