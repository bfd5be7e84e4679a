// The route optimizer (decision 012): a nearest-neighbor tour, improved by 2-opt and Or-opt over neighbor lists
// with don't-look bits, then iterated local search: a seeded double-bridge kick, local search again, keep the tour if
// it is no longer. The work is a fixed number of kicks, never a clock, so the same input always gives the same order.
//
// Everything is a closed tour underneath. An open route from a fixed start to a fixed end is the tour whose edge
// end → start may never be removed; a route with a free end adds a dummy point at distance 0 from every point and
// fixes the edge dummy → start, so the tour's last real point is wherever the route ends best.

export type Distance = (from: number, to: number) => number

/** Beyond this the distance matrix alone would take more than 32 MB; a day's route has a few dozen stops. */
export const MAX_POINTS = 2000
/** Up to this size every point is a neighbor of every other: the result is then exactly 2-opt-optimal. */
const FULL_NEIGHBOR_LISTS_UP_TO = 200
const NEIGHBORS = 12
const MAX_OR_OPT_SEGMENT = 3
/** Kicks per point, and in all. Without kicks berlin52 ends 3 % over the optimum; 20 per point reach it in ≈ 8 ms. */
const KICKS_PER_POINT = 20
const MAX_KICKS = 20_000
const MAX_KICK_SEGMENT = 50
const SEED = 0x2f6b_1d35

/** A closed tour through points 0…size−1, listed from point 0. */
export function optimizeTour(size: number, distance: Distance): number[] {
  checkSize(size)
  if (size === 0) return []
  const tour = improve(prepare(size, distance), nearestNeighbor(size, distance, 0), undefined)
  return tour.walk(0, undefined)
}

/**
 * An open route from `start` through every other point, ending at `end` when given (`end === start` is a round trip:
 * a closed tour listed from the start). The order lists each point once, the start first.
 */
export function optimizeRoute(size: number, distance: Distance, { start, end }: { start: number; end?: number }) {
  checkSize(size)
  checkPoint(start, size, 'start')
  if (end !== undefined) checkPoint(end, size, 'end')
  if (end === start) {
    const tour = improve(prepare(size, distance), nearestNeighbor(size, distance, start), undefined)
    return tour.walk(start, undefined)
  }
  if (end !== undefined) {
    const tour = improve(prepare(size, distance), nearestNeighbor(size, distance, start, end), [end, start])
    return tour.walk(start, end)
  }
  const dummy = size
  const withDummy: Distance = (from, to) => (from === dummy || to === dummy ? 0 : distance(from, to))
  const initial = nearestNeighbor(size + 1, withDummy, start, dummy)
  const tour = improve(prepare(size + 1, withDummy), initial, [dummy, start])
  return tour.walk(start, dummy).filter((point) => point !== dummy)
}

/** The length of an order: closed returns from the last point to the first. */
export function routeLength(order: readonly number[], distance: Distance, { closed }: { closed: boolean }) {
  let length = 0
  for (let i = 1; i < order.length; i++) length += distance(order[i - 1] as number, order[i] as number)
  if (closed && order.length > 1) length += distance(order[order.length - 1] as number, order[0] as number)
  return length
}

function checkSize(size: number) {
  if (!Number.isInteger(size) || size < 0 || size > MAX_POINTS) {
    throw new RangeError(`The optimizer takes 0 to ${MAX_POINTS} points, not ${size}`)
  }
}

function checkPoint(point: number, size: number, what: string) {
  if (!Number.isInteger(point) || point < 0 || point >= size) {
    throw new RangeError(`The ${what} must be one of the ${size} points, not ${point}`)
  }
}

/** Nearest neighbor from `first`, ties to the lower index; `last`, if given, is kept for the end. */
function nearestNeighbor(size: number, distance: Distance, first: number, last?: number) {
  const visited = new Uint8Array(size)
  visited[first] = 1
  if (last !== undefined) visited[last] = 1
  const order = [first]
  let current = first
  for (let step = order.length + (last === undefined ? 0 : 1); step < size; step++) {
    let best = -1
    let bestDistance = Number.POSITIVE_INFINITY
    for (let candidate = 0; candidate < size; candidate++) {
      if (visited[candidate]) continue
      const d = distance(current, candidate)
      if (d < bestDistance) {
        best = candidate
        bestDistance = d
      }
    }
    visited[best] = 1
    order.push(best)
    current = best
  }
  if (last !== undefined) order.push(last)
  return order
}

type Problem = { size: number; matrix: Float64Array; epsilon: number }

/**
 * The symmetric distance matrix the search works on. A road network's distances differ by direction (one-way
 * streets); 2-opt reverses stretches of the route, so it optimizes the mean of both directions.
 */
function prepare(size: number, distance: Distance): Problem {
  const matrix = new Float64Array(size * size)
  let longest = 0
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const there = distance(i, j)
      const back = distance(j, i)
      if (!(there >= 0 && back >= 0 && Number.isFinite(there + back))) {
        throw new RangeError(`The distance between points ${i} and ${j} is not a finite, non-negative number`)
      }
      const mean = (there + back) / 2
      matrix[i * size + j] = mean
      matrix[j * size + i] = mean
      longest = Math.max(longest, mean)
    }
  }
  // A move must gain more than rounding can invent, or equal tours could swap for ever.
  return { size, matrix, epsilon: longest * 1e-9 }
}

/** Local search, then iterated local search with kicks, then sweeps until no 2-opt or Or-opt move gains. */
function improve(problem: Problem, initial: number[], fixedEdge: [number, number] | undefined) {
  const tour = new Tour(initial)
  if (problem.size < 4) return tour
  const search = new LocalSearch(problem, tour, fixedEdge)
  search.run()
  const random = mulberry32(SEED ^ problem.size)
  let best = tour.snapshot()
  let bestLength = search.length()
  const kicks = Math.min(MAX_KICKS, KICKS_PER_POINT * problem.size)
  for (let kick = 0; kick < kicks; kick++) {
    if (!search.kick(random)) continue
    search.run()
    const length = search.length()
    // Equal tours are taken too: a plateau is walked, never a longer tour.
    if (length <= bestLength) {
      best = tour.snapshot()
      bestLength = length
    } else tour.restore(best)
  }
  search.sweep()
  return tour
}

/** A cyclic tour as an array and each point's position in it. */
class Tour {
  readonly order: Int32Array
  readonly position: Int32Array
  readonly size: number

  constructor(order: number[]) {
    this.size = order.length
    this.order = Int32Array.from(order)
    this.position = new Int32Array(this.size)
    order.forEach((point, index) => {
      this.position[point] = index
    })
  }

  at(index: number) {
    return this.order[index] as number
  }

  positionOf(point: number) {
    return this.position[point] as number
  }

  next(point: number) {
    const index = this.positionOf(point) + 1
    return this.at(index === this.size ? 0 : index)
  }

  previous(point: number) {
    const index = this.positionOf(point)
    return this.at(index === 0 ? this.size - 1 : index - 1)
  }

  /** Whether `point` lies in the `length` points that follow `from` (inclusive). */
  within(point: number, from: number, length: number) {
    return (this.positionOf(point) - this.positionOf(from) + this.size) % this.size < length
  }

  /**
   * Removes edges (a, b) and (c, d), adds (a, c) and (b, d). b follows a and d follows c in the same direction,
   * whichever way round the array holds the tour.
   */
  exchange(a: number, b: number, c: number, d: number) {
    if (this.next(a) === b) this.reverse(b, c)
    else this.reverse(a, d)
  }

  /** Reverses the path from `from` forward to `to`, or, the same cycle, the rest of the tour if that is shorter. */
  private reverse(from: number, to: number) {
    const { size } = this
    let i = this.positionOf(from)
    let j = this.positionOf(to)
    let length = ((j - i + size) % size) + 1
    if (length * 2 > size) {
      i = (j + 1) % size
      j = (this.positionOf(from) - 1 + size) % size
      length = size - length
    }
    for (let swaps = length >> 1; swaps > 0; swaps--) {
      const a = this.at(i)
      const b = this.at(j)
      this.order[i] = b
      this.position[b] = i
      this.order[j] = a
      this.position[a] = j
      i = i + 1 === size ? 0 : i + 1
      j = j === 0 ? size - 1 : j - 1
    }
  }

  /** Moves the `first` points after index `start` behind the `second` points that follow them. */
  swapSegments(start: number, first: number, second: number) {
    const moved: number[] = []
    for (let k = 1; k <= first + second; k++) moved.push(this.at((start + k) % this.size))
    const reordered = [...moved.slice(first), ...moved.slice(0, first)]
    reordered.forEach((point, k) => {
      const index = (start + 1 + k) % this.size
      this.order[index] = point
      this.position[point] = index
    })
  }

  snapshot() {
    return this.order.slice()
  }

  restore(order: Int32Array) {
    this.order.set(order)
    order.forEach((point, index) => {
      this.position[point] = index
    })
  }

  /** The points from `start` round the tour, heading away from `behind` when it is start's neighbor. */
  walk(start: number, behind: number | undefined) {
    const backwards = behind !== undefined && this.next(start) === behind && this.size > 2
    const result: number[] = []
    let point = start
    for (let k = 0; k < this.size; k++) {
      result.push(point)
      point = backwards ? this.previous(point) : this.next(point)
    }
    return result
  }
}

class LocalSearch {
  private readonly size: number
  private readonly matrix: Float64Array
  private readonly epsilon: number
  private readonly neighbors: Int32Array
  private readonly neighborCount: number
  private readonly queue: Int32Array
  private readonly queued: Uint8Array
  private head = 0
  private count = 0

  constructor(
    problem: Problem,
    private readonly tour: Tour,
    private readonly fixedEdge: [number, number] | undefined,
  ) {
    this.size = problem.size
    this.matrix = problem.matrix
    this.epsilon = problem.epsilon
    this.neighborCount = this.size <= FULL_NEIGHBOR_LISTS_UP_TO ? this.size - 1 : NEIGHBORS
    this.neighbors = this.nearest()
    this.queue = new Int32Array(this.size)
    this.queued = new Uint8Array(this.size)
    for (let point = 0; point < this.size; point++) this.push(point)
  }

  private distance(a: number, b: number) {
    return this.matrix[a * this.size + b] as number
  }

  private neighbor(point: number, rank: number) {
    return this.neighbors[point * this.neighborCount + rank] as number
  }

  /** Each point's nearest others, nearest first, ties to the lower index. */
  private nearest() {
    const { size, neighborCount } = this
    const lists = new Int32Array(size * neighborCount)
    const others: number[] = []
    for (let point = 0; point < size; point++) {
      others.length = 0
      for (let other = 0; other < size; other++) if (other !== point) others.push(other)
      others.sort((a, b) => this.distance(point, a) - this.distance(point, b) || a - b)
      for (let rank = 0; rank < neighborCount; rank++) lists[point * neighborCount + rank] = others[rank] as number
    }
    return lists
  }

  private isFixed(a: number, b: number) {
    const edge = this.fixedEdge
    return edge !== undefined && ((edge[0] === a && edge[1] === b) || (edge[0] === b && edge[1] === a))
  }

  private push(point: number) {
    if (this.queued[point]) return
    this.queued[point] = 1
    this.queue[(this.head + this.count) % this.size] = point
    this.count++
  }

  private pushAll(...points: number[]) {
    for (const point of points) this.push(point)
  }

  private pop() {
    const point = this.queue[this.head] as number
    this.head = (this.head + 1) % this.size
    this.count--
    this.queued[point] = 0
    return point
  }

  length() {
    let total = 0
    for (let index = 0; index < this.size; index++) {
      total += this.distance(this.tour.at(index), this.tour.at((index + 1) % this.size))
    }
    return total
  }

  /** Improves from the queued points until none has a gaining move (don't-look bits: the rest are left alone). */
  run() {
    while (this.count > 0) {
      const point = this.pop()
      if (this.improveFrom(point)) this.push(point)
    }
  }

  /**
   * Full sweeps until one finds nothing. Don't-look bits can miss a move whose edges appeared after its points were
   * looked at; a sweep in which every point finds nothing proves the tour 2-opt-optimal (within the neighbor lists).
   */
  sweep() {
    let improved = true
    while (improved) {
      improved = false
      for (let point = 0; point < this.size; point++) {
        while (this.improveFrom(point)) improved = true
      }
    }
  }

  private improveFrom(point: number) {
    return this.twoOpt(point, true) || this.twoOpt(point, false) || this.orOpt(point)
  }

  /**
   * 2-opt from `a` and its successor (or predecessor) b: a new edge (a, c) shorter than (a, b). Every gaining 2-opt
   * move has such an end, so looking from all four ends finds them all.
   */
  private twoOpt(a: number, forward: boolean) {
    const { tour } = this
    const b = forward ? tour.next(a) : tour.previous(a)
    if (this.isFixed(a, b)) return false
    const ab = this.distance(a, b)
    for (let rank = 0; rank < this.neighborCount; rank++) {
      const c = this.neighbor(a, rank)
      const ac = this.distance(a, c)
      if (ac >= ab) break
      const d = forward ? tour.next(c) : tour.previous(c)
      if (c === b || d === a || this.isFixed(c, d)) continue
      const gain = ab + this.distance(c, d) - ac - this.distance(b, d)
      if (gain > this.epsilon) {
        tour.exchange(a, b, c, d)
        this.pushAll(a, b, c, d)
        return true
      }
    }
    return false
  }

  /** Or-opt: moves a segment of 1–3 points that starts or ends at `point` elsewhere, either way round. */
  private orOpt(point: number) {
    const { tour } = this
    const longest = Math.min(MAX_OR_OPT_SEGMENT, this.size - 3)
    for (let length = 1; length <= longest; length++) {
      let last = point
      for (let k = 1; k < length; k++) last = tour.next(last)
      if (this.moveSegment(point, last, length)) return true
      if (length === 1) continue
      let first = point
      for (let k = 1; k < length; k++) first = tour.previous(first)
      if (this.moveSegment(first, point, length)) return true
    }
    return false
  }

  /** Moves the segment first…last (forward, `length` points) between two neighbors elsewhere, if that gains. */
  private moveSegment(first: number, last: number, length: number) {
    const { tour } = this
    const before = tour.previous(first)
    const after = tour.next(last)
    if (this.isFixed(before, first) || this.isFixed(last, after)) return false
    const removed = this.distance(before, first) + this.distance(last, after) - this.distance(before, after)
    if (removed <= this.epsilon) return false
    // Plain loops, no small arrays: this is the hottest code, and it runs interpreted on a cold server.
    for (let side = length === 1 ? 1 : 0; side < 2; side++) {
      const end = side === 0 ? first : last
      for (let rank = 0; rank < this.neighborCount; rank++) {
        const c = this.neighbor(end, rank)
        if (this.distance(end, c) >= removed) break
        if (tour.within(c, first, length)) continue
        // The edges on either side of c: (c, next) and (previous, c).
        for (let edge = 0; edge < 2; edge++) {
          const u = edge === 0 ? c : tour.previous(c)
          const v = edge === 0 ? tour.next(c) : c
          if (tour.within(u, first, length) || tour.within(v, first, length) || this.isFixed(u, v)) continue
          const uv = this.distance(u, v)
          const straight = this.distance(u, first) + this.distance(last, v) - uv
          const reversed = this.distance(u, last) + this.distance(first, v) - uv
          if (removed - Math.min(straight, reversed) <= this.epsilon) continue
          // before [first…last] after … u v  →  before after … u [last…first] v, then turned round if straight.
          tour.exchange(before, first, u, v)
          tour.exchange(before, u, after, last)
          if (straight < reversed) tour.exchange(u, last, first, v)
          this.pushAll(before, first, last, after, u, v)
          return true
        }
      }
    }
    return false
  }

  /**
   * The double bridge: two adjacent segments of the tour change places (no 2-opt or Or-opt move undoes it). The
   * segments are at most MAX_KICK_SEGMENT long, so on a large tour the kick stays local.
   */
  kick(random: () => number) {
    const { tour, size } = this
    const longest = Math.max(1, Math.min(MAX_KICK_SEGMENT, Math.floor(size / 3)))
    for (let attempt = 0; attempt < 10; attempt++) {
      const start = Math.floor(random() * size)
      const first = 1 + Math.floor(random() * longest)
      const second = 1 + Math.floor(random() * longest)
      if (first + second > size - 2) continue
      const ends = [0, 1, first, first + 1, first + second, first + second + 1].map((k) => tour.at((start + k) % size))
      const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = ends
      if (this.isFixed(a, b) || this.isFixed(c, d) || this.isFixed(e, f)) continue
      tour.swapSegments(start, first, second)
      this.pushAll(...ends)
      return true
    }
    return false
  }
}

/** A small seeded generator (mulberry32): the kicks are random, the result is not. */
function mulberry32(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
