// Time windows, minutes on site and estimated arrival times in the route optimizer (docs/routing.md, decision 034).
//
// The objective is lexicographic: first the total lateness (minutes past each stop's `close`, and past the day's end),
// then the driving length. Arriving before `open` waits; lateness is measured on arrival, so a stop whose window is
// [T, T] is an appointment at T: arrive by T, start at T.
//
// Up to EXACT_UP_TO stops the answer is exact: a dynamic program over (stops visited, last stop) that keeps every
// label (departure time, lateness, length) no other label of the same state beats in all three. A later departure can
// never make the rest of the route earlier (waiting is allowed, travel times are fixed), so a dominated label can
// never finish better, and the kept labels contain an optimum. If the labels outgrow LABEL_BUDGET (travel times that
// disagree with distances can make many incomparable labels), the heuristic's answer is returned with `exact: false`.
// Beyond EXACT_UP_TO: the better of cheapest insertion in order of closing time and decision 012's shortest order
// (so never worse than the window-free route), local search (moving segments of 1–3 stops either way round,
// reversing stretches), then seeded ruin-and-recreate kicks, each followed by local search, kept if not worse. The
// budgets are counts, never a clock (decision 012): the same input gives the same order on any machine.
import { type Distance, optimizeRoute } from './optimize'

/** A stop's window and minutes on site; the start's and the end's entries are ignored. */
export type TimedStop = {
  /** Earliest service start, minutes from midnight; arriving earlier waits. */
  open?: number
  /** Latest arrival, minutes from midnight; arriving later is late by the difference. */
  close?: number
  /** Minutes on site. */
  service?: number
}

export type TimedRouteProblem = {
  /** Points 0…size−1: the start, the end (if any) and the stops. */
  size: number
  start: number
  /** Departure from the start, minutes from midnight. */
  startTime: number
  /** Where the route ends (the technician's end address; `end === start` is a round trip). Free when absent. */
  end?: number
  /** The working day's end: arriving at the end (or leaving the last stop, with no end) later is late. */
  dayEnd?: number
  /** One entry per point (index = point). */
  stops: readonly TimedStop[]
  /** Driving minutes from one point to another. */
  travel: Distance
  /** Driving distance, in any unit: `length` is reported in it. */
  distance: Distance
}

/** One stop's estimated times, all in minutes from midnight except `wait` and `late` (minutes). */
export type StopTimes = {
  point: number
  arrival: number
  /** Minutes waiting for the window to open. */
  wait: number
  /** Service start: the arrival, or the window's opening if later. */
  start: number
  departure: number
  /** Minutes past the window's close on arrival; 0 when on time. */
  late: number
}

export type RouteTimes = {
  stops: StopTimes[]
  /** Arrival at the end, or departure from the last stop when the end is free (the start time if no stops). */
  finish: number
  /** Minutes past the day's end at `finish`. */
  endLate: number
  /** Total lateness: every stop's plus the day end's. */
  late: number
  /** Driving length from the start through the stops (to the end, if any). */
  length: number
}

export type TimedRoute = {
  /** The stops in visiting order (neither the start nor the end). */
  order: number[]
  times: RouteTimes
  /** Proven optimal: the exact search finished within its budget. */
  exact: boolean
}

/** Up to this many stops the search is exact (within LABEL_BUDGET). */
export const EXACT_UP_TO = 12
const LABEL_BUDGET = 400_000
export const MAX_TIMED_STOPS = 500
const MAX_SEGMENT = 3
/** Up to this many stops every move is tried; beyond, only moves next to a stop's NEIGHBORS nearest. */
const FULL_MOVES_UP_TO = 60
const NEIGHBORS = 16
/** At most this many stops leave the route in a kick. */
const MAX_RUIN = 8
const KICKS_PER_STOP = 20
const MAX_KICKS = 1000
/**
 * Kicks stop early after this many stops have been timed: a day whose windows cannot all be kept times most moves
 * over the rest of the route. Counted, not clocked, so the answer is the same on any machine.
 */
const WORK_BUDGET = 40_000_000
const SEED = 0x5eed_0034
/** Lateness differences below this (minutes) are rounding, not lateness. */
const LATE_EPSILON = 1e-6

/**
 * Estimated times for visiting `order` (stops only) from the problem's start: drive, wait for the window, serve,
 * drive on. Pure: the optimizer and the screens share it.
 */
export function routeTimes(problem: TimedRouteProblem, order: readonly number[]): RouteTimes {
  const stops: StopTimes[] = []
  let time = problem.startTime
  let at = problem.start
  let late = 0
  let length = 0
  for (const point of order) {
    const stop = problem.stops[point] ?? {}
    const arrival = time + problem.travel(at, point)
    length += problem.distance(at, point)
    const start = Math.max(arrival, stop.open ?? Number.NEGATIVE_INFINITY)
    const stopLate = Math.max(0, arrival - (stop.close ?? Number.POSITIVE_INFINITY))
    const departure = start + (stop.service ?? 0)
    stops.push({ point, arrival, wait: start - arrival, start, departure, late: stopLate })
    late += stopLate
    time = departure
    at = point
  }
  let finish = time
  if (problem.end !== undefined) {
    finish = time + problem.travel(at, problem.end)
    length += problem.distance(at, problem.end)
  }
  const endLate = problem.dayEnd === undefined ? 0 : Math.max(0, finish - problem.dayEnd)
  return { stops, finish, endLate, late: late + endLate, length }
}

/** The stops that cannot all be reached in time on this route: the late ones. */
export function lateStops(times: RouteTimes) {
  return times.stops.filter((stop) => stop.late > LATE_EPSILON)
}

/** Orders the problem's stops: every window kept when possible with the least driving, else the least lateness. */
export function optimizeTimedRoute(
  problem: TimedRouteProblem,
  { labelBudget = LABEL_BUDGET }: { labelBudget?: number } = {},
): TimedRoute {
  const data = prepare(problem)
  const heuristic = search(data)
  let order = heuristic
  let exact = false
  if (data.count <= EXACT_UP_TO) {
    const bound = evaluate(data, heuristic)
    const best = exactSearch(data, bound, labelBudget)
    if (best !== undefined) {
      exact = true
      if (best.length > 0 || data.count === 0) order = best
    }
  }
  const points = order.map((k) => data.points[k] as number)
  return { order: points, times: routeTimes(problem, points), exact }
}

/** The problem as flat arrays over the stops 0…count−1, with the start as index count and the end as count+1. */
type Data = {
  count: number
  /** Problem point of each stop. */
  points: Int32Array
  open: Float64Array
  close: Float64Array
  service: Float64Array
  /** (count + 2)² matrices; row `count` is the start, column `count + 1` the end (0 when the end is free). */
  travel: Float64Array
  distance: Float64Array
  width: number
  /** Each stop's other stops, nearest first (by the shorter direction), ties to the lower index. */
  nearest: Int32Array[]
  startTime: number
  dayEnd: number
  lengthEpsilon: number
}

function prepare(problem: TimedRouteProblem): Data {
  const { size, start, end } = problem
  if (!Number.isInteger(size) || size < 1 || size > MAX_TIMED_STOPS + 2) {
    throw new RangeError(`The timed optimizer takes 1 to ${MAX_TIMED_STOPS + 2} points, not ${size}`)
  }
  for (const [what, point] of [
    ['start', start],
    ['end', end],
  ] as const) {
    if (point !== undefined && !(Number.isInteger(point) && point >= 0 && point < size)) {
      throw new RangeError(`The ${what} must be one of the ${size} points, not ${point}`)
    }
  }
  if (!Number.isFinite(problem.startTime)) throw new RangeError('The start time must be a finite number of minutes')
  if (problem.dayEnd !== undefined && Number.isNaN(problem.dayEnd)) throw new RangeError('The day end is not a number')
  const stopPoints: number[] = []
  for (let point = 0; point < size; point++) if (point !== start && point !== end) stopPoints.push(point)
  const count = stopPoints.length
  const width = count + 2
  const data: Data = {
    count,
    points: Int32Array.from(stopPoints),
    open: new Float64Array(count),
    close: new Float64Array(count),
    service: new Float64Array(count),
    travel: new Float64Array(width * width),
    distance: new Float64Array(width * width),
    width,
    nearest: [],
    startTime: problem.startTime,
    dayEnd: problem.dayEnd ?? Number.POSITIVE_INFINITY,
    lengthEpsilon: 0,
  }
  stopPoints.forEach((point, k) => {
    const stop = problem.stops[point] ?? {}
    const open = stop.open ?? Number.NEGATIVE_INFINITY
    const close = stop.close ?? Number.POSITIVE_INFINITY
    const service = stop.service ?? 0
    if (Number.isNaN(open) || Number.isNaN(close) || open > close) {
      throw new RangeError(`Point ${point}'s window must open no later than it closes`)
    }
    if (!(Number.isFinite(service) && service >= 0)) {
      throw new RangeError(`Point ${point}'s minutes on site must be a finite, non-negative number`)
    }
    data.open[k] = open
    data.close[k] = close
    data.service[k] = service
  })
  // Index k < count is a stop, count the start, count + 1 the end.
  const pointOf = (k: number) => (k < count ? (stopPoints[k] as number) : k === count ? start : end)
  let longest = 0
  for (let from = 0; from <= count; from++) {
    for (let to = 0; to < width; to++) {
      if (to === count || from === to) continue
      const a = pointOf(from) as number
      const b = pointOf(to)
      let minutes = 0
      let length = 0
      if (b !== undefined) {
        minutes = problem.travel(a, b)
        length = problem.distance(a, b)
        if (!(minutes >= 0 && length >= 0 && Number.isFinite(minutes + length))) {
          throw new RangeError(
            `The travel time or distance from point ${a} to ${b} is not a finite, non-negative number`,
          )
        }
      }
      data.travel[from * width + to] = minutes
      data.distance[from * width + to] = length
      longest = Math.max(longest, length)
    }
  }
  data.lengthEpsilon = longest * width * 1e-12
  const near = (a: number, b: number) =>
    Math.min(data.distance[a * width + b] as number, data.distance[b * width + a] as number)
  for (let stop = 0; stop < count; stop++) {
    const others = Array.from({ length: count }, (_, k) => k).filter((k) => k !== stop)
    others.sort((a, b) => near(stop, a) - near(stop, b) || a - b)
    data.nearest.push(Int32Array.from(others))
  }
  return data
}

type Cost = { late: number; length: number }

/** Lexicographically better by more than rounding. */
function better(data: Data, a: Cost, b: Cost) {
  if (a.late < b.late - LATE_EPSILON) return true
  if (a.late > b.late + LATE_EPSILON) return false
  return a.length < b.length - data.lengthEpsilon
}

/** The lateness and length of an order of stop indices. */
function evaluate(data: Data, order: ArrayLike<number>): Cost {
  const { width, count, travel, distance } = data
  let time = data.startTime
  let at = count
  let late = 0
  let length = 0
  for (let k = 0; k < order.length; k++) {
    const stop = order[k] as number
    const arrival = time + (travel[at * width + stop] as number)
    length += distance[at * width + stop] as number
    if (arrival > (data.close[stop] as number)) late += arrival - (data.close[stop] as number)
    time = Math.max(arrival, data.open[stop] as number) + (data.service[stop] as number)
    at = stop
  }
  const finish = time + (travel[at * width + count + 1] as number)
  length += distance[at * width + count + 1] as number
  if (finish > data.dayEnd) late += finish - data.dayEnd
  return { late, length }
}

// ---- The exact search ----

type Label = { time: number; late: number; length: number; last: number; previous: Label | undefined }

/**
 * Labels over (visited set, last stop), extended set by set; a label is dropped when another of its state is no later,
 * no later-running and no longer, or when it can no longer beat `bound` (lateness and length only grow).
 */
function exactSearch(data: Data, bound: Cost, budget: number): number[] | undefined {
  const { count, width, travel, distance, open, close, service } = data
  if (count === 0) return []
  const states: (Label[] | undefined)[] = new Array((1 << count) * count)
  let labels = 0
  const hopeless = (late: number, length: number) =>
    late > bound.late + LATE_EPSILON ||
    (late >= bound.late - LATE_EPSILON && length > bound.length + data.lengthEpsilon)
  const add = (state: number, label: Label) => {
    let list = states[state]
    if (list === undefined) {
      list = []
      states[state] = list
    }
    for (const other of list) {
      if (other.time <= label.time && other.late <= label.late && other.length <= label.length) return true
    }
    let kept = 0
    for (const other of list) {
      if (!(label.time <= other.time && label.late <= other.late && label.length <= other.length)) list[kept++] = other
    }
    list.length = kept
    list.push(label)
    labels++
    return labels <= budget
  }
  const extend = (from: Label | undefined, at: number, time: number, late: number, length: number, to: number) => {
    const arrival = time + (travel[at * width + to] as number)
    const newLate = late + Math.max(0, arrival - (close[to] as number))
    const newLength = length + (distance[at * width + to] as number)
    if (hopeless(newLate, newLength)) return undefined
    const departure = Math.max(arrival, open[to] as number) + (service[to] as number)
    return { time: departure, late: newLate, length: newLength, last: to, previous: from }
  }
  for (let stop = 0; stop < count; stop++) {
    const label = extend(undefined, count, data.startTime, 0, 0, stop)
    if (label && !add((1 << stop) * count + stop, label)) return undefined
  }
  const full = (1 << count) - 1
  let best: Label | undefined
  let bestCost: Cost = bound
  for (let set = 1; set <= full; set++) {
    for (let last = 0; last < count; last++) {
      const list = states[set * count + last]
      if (list === undefined) continue
      states[set * count + last] = undefined // never read again: free it as we go
      for (const label of list) {
        if (set === full) {
          const finish = label.time + (travel[last * width + count + 1] as number)
          const cost = {
            late: label.late + Math.max(0, finish - data.dayEnd),
            length: label.length + (distance[last * width + count + 1] as number),
          }
          // Ties keep the heuristic's order (it is the bound); a better route replaces it.
          if (better(data, cost, bestCost)) {
            best = label
            bestCost = cost
          }
          continue
        }
        for (let next = 0; next < count; next++) {
          if (set & (1 << next)) continue
          const extended = extend(label, last, label.time, label.late, label.length, next)
          if (extended && !add((set | (1 << next)) * count + next, extended)) return undefined
        }
      }
    }
  }
  const order: number[] = []
  for (let label = best; label !== undefined; label = label.previous) order.push(label.last)
  return order.reverse()
}

// ---- The heuristic ----

/** Cheapest insertion in order of closing time, then local search and seeded kicks, and a final sweep. */
function search(data: Data): number[] {
  const { count } = data
  if (count === 0) return []
  const byClose = Array.from({ length: count }, (_, k) => k).sort(byWindow(data))
  const inserted = insertAll(data, [], byClose)
  // The window-free optimizer's shortest order starts the search when it is no worse (loose or no windows).
  const shortest = shortestOrder(data)
  const order = better(data, evaluate(data, shortest), evaluate(data, inserted)) ? shortest : inserted
  const local = new LocalSearch(data, order)
  local.sweep()
  if (count < 4) return Array.from(local.order)
  const random = mulberry32(SEED ^ count)
  let best = local.order.slice()
  let bestCost = local.cost()
  const kicks = Math.min(MAX_KICKS, KICKS_PER_STOP * count)
  for (let kick = 0; kick < kicks && local.work < WORK_BUDGET; kick++) {
    local.kick(random)
    local.run()
    const cost = local.cost()
    if (!better(data, bestCost, cost)) {
      best = local.order.slice()
      bestCost = cost
    } else local.restore(best)
  }
  // Don't-look bits can miss a move whose surroundings changed after its stop was looked at: a last full sweep.
  local.restore(best)
  local.sweep()
  return Array.from(local.order)
}

/**
 * Local search over an order of stops. Each position's departure time, lateness so far and length so far are kept,
 * so a move's length change costs O(1) (forward and backward edge sums make reversals O(1) too, on asymmetric
 * distances), and a move is timed only when it could win: when it shortens the route, or when something from its
 * first position on is late. Timing runs over the changed stretch and on along the unchanged rest until the
 * departures agree again (the rest is then as before) or are no later with nothing late after them.
 */
class LocalSearch {
  order: Int32Array
  private readonly n: number
  /** departure[k + 1]: leaving position k (departure[0]: leaving the start). */
  private readonly departure: Float64Array
  /** lateBefore[k + 1]: lateness of positions 0…k. */
  private readonly lateBefore: Float64Array
  /** lateAfter[k]: lateness of positions k…n−1 and the day end, with today's times. */
  private readonly lateAfter: Float64Array
  /** forward[k]: the edges between positions 0…k, forward; backward[k]: the same edges driven the other way. */
  private readonly forward: Float64Array
  private readonly backward: Float64Array
  private readonly slice: Int32Array
  private readonly stopLate: Float64Array
  /** position[stop]: where the stop is in the order. */
  private readonly position: Int32Array
  /** Candidate positions for a move, when the route is too long to try them all. */
  private readonly targets: number[] = []
  /** Stops to look from (don't-look bits: the others found nothing since their neighborhood last changed). */
  private readonly queue: number[] = []
  private readonly queued: Uint8Array
  private total: Cost = { late: 0, length: 0 }
  /** Stops timed so far: the search's budget is counted in these, never in clock time. */
  work = 0

  constructor(
    private readonly data: Data,
    order: number[],
  ) {
    this.n = order.length
    this.order = Int32Array.from(order)
    this.departure = new Float64Array(this.n + 1)
    this.lateBefore = new Float64Array(this.n + 1)
    this.lateAfter = new Float64Array(this.n + 1)
    this.forward = new Float64Array(this.n)
    this.backward = new Float64Array(this.n)
    this.slice = new Int32Array(this.n)
    this.stopLate = new Float64Array(this.n)
    this.position = new Int32Array(data.count)
    this.queued = new Uint8Array(data.count)
    this.refresh()
  }

  cost(): Cost {
    return { ...this.total }
  }

  restore(order: Int32Array) {
    this.order.set(order)
    this.refresh()
  }

  private refresh() {
    const { data, n, order, stopLate } = this
    const { width, count, travel, distance } = data
    let time = data.startTime
    let at = count
    let late = 0
    let length = 0
    this.departure[0] = time
    this.work += n
    for (let k = 0; k < n; k++) {
      const stop = order[k] as number
      this.position[stop] = k
      const arrival = time + (travel[at * width + stop] as number)
      length += distance[at * width + stop] as number
      const over = Math.max(0, arrival - (data.close[stop] as number))
      stopLate[k] = over
      late += over
      time = Math.max(arrival, data.open[stop] as number) + (data.service[stop] as number)
      this.departure[k + 1] = time
      this.lateBefore[k + 1] = late
      if (k > 0) {
        this.forward[k] = (this.forward[k - 1] as number) + (distance[at * width + stop] as number)
        this.backward[k] = (this.backward[k - 1] as number) + (distance[stop * width + at] as number)
      }
      at = stop
    }
    const finish = time + (travel[at * width + count + 1] as number)
    const endLate = Math.max(0, finish - data.dayEnd)
    this.lateAfter[n] = endLate
    for (let k = n - 1; k >= 0; k--) this.lateAfter[k] = (this.lateAfter[k + 1] as number) + (stopLate[k] as number)
    this.total = { late: late + endLate, length: length + (distance[at * width + count + 1] as number) }
  }

  private stopAt(k: number) {
    return this.order[k] as number
  }

  private d(a: number, b: number) {
    return this.data.distance[a * this.data.width + b] as number
  }

  /** The point before position k (the start before the first). */
  private before(k: number) {
    return k === 0 ? this.data.count : this.stopAt(k - 1)
  }

  /** The point after position k (the end after the last; distance 0 to it when the end is free). */
  private after(k: number) {
    return k === this.n - 1 ? this.data.count + 1 : this.stopAt(k + 1)
  }

  /** The edges between positions i…j, driven forward or the other way. */
  private inner(i: number, j: number, reversed: boolean) {
    return reversed
      ? (this.backward[j] as number) - (this.backward[i] as number)
      : (this.forward[j] as number) - (this.forward[i] as number)
  }

  /** Whether a move changing positions a… by `delta` in length could be better: worth timing. */
  private worth(a: number, delta: number) {
    return delta < -this.data.lengthEpsilon || (this.lateAfter[a] as number) > LATE_EPSILON
  }

  /** The cost if positions a…b held slice[0…b−a] instead, when that is better than now. */
  private timed(a: number, b: number, length: number): Cost | undefined {
    const { data, n, slice } = this
    const { width, count, travel } = data
    let time = this.departure[a] as number
    let late = this.lateBefore[a] as number
    let at = this.before(a)
    const limit = this.total.late + LATE_EPSILON
    this.work += b - a + 1
    for (let k = 0; k <= b - a; k++) {
      const stop = slice[k] as number
      const arrival = time + (travel[at * width + stop] as number)
      if (arrival > (data.close[stop] as number)) {
        late += arrival - (data.close[stop] as number)
        if (late > limit) return undefined
      }
      time = Math.max(arrival, data.open[stop] as number) + (data.service[stop] as number)
      at = stop
    }
    for (let k = b + 1; k < n; k++) {
      // From b + 2 on the previous stop is the old one too: equal departures mean equal times from here.
      const old = this.departure[k] as number
      if (k > b + 1 && (time === old || (time <= old && (this.lateAfter[k] as number) <= LATE_EPSILON))) {
        if (time === old) late += this.lateAfter[k] as number
        return this.accept(late, length)
      }
      this.work++
      const stop = this.stopAt(k)
      const arrival = time + (travel[at * width + stop] as number)
      if (arrival > (data.close[stop] as number)) {
        late += arrival - (data.close[stop] as number)
        if (late > limit) return undefined
      }
      time = Math.max(arrival, data.open[stop] as number) + (data.service[stop] as number)
      at = stop
    }
    if (b + 1 < n && time === this.departure[n]) return this.accept(late + (this.lateAfter[n] as number), length)
    const finish = time + (travel[at * width + count + 1] as number)
    if (finish > data.dayEnd) late += finish - data.dayEnd
    return this.accept(late, length)
  }

  private accept(late: number, length: number): Cost | undefined {
    const cost = { late, length }
    return better(this.data, cost, this.total) ? cost : undefined
  }

  /** Writes the slice over positions a…b, and looks again from every stop the change touched. */
  private apply(a: number, b: number) {
    for (let k = a; k <= b; k++) this.order[k] = this.slice[k - a] as number
    this.refresh()
    this.lookFrom(a - 1, b + 1)
  }

  /** Queues the stops at positions from…to. */
  lookFrom(from: number, to: number) {
    for (let k = Math.max(0, from); k <= Math.min(this.n - 1, to); k++) {
      const stop = this.stopAt(k)
      if (this.queued[stop]) continue
      this.queued[stop] = 1
      this.queue.push(stop)
    }
  }

  /** Until no queued stop has an improving move: segments of 1–3 stops moved either way round, stretches reversed. */
  run() {
    let head = 0
    while (head < this.queue.length) {
      const stop = this.queue[head++] as number
      this.queued[stop] = 0
      // The segment may start here or end here.
      const i = this.position[stop] as number
      for (let start = i; start >= Math.max(0, i - MAX_SEGMENT + 1); start--) {
        if (this.moveSegmentFrom(start) || this.reverseFrom(start)) break
      }
      if (head > 4 * this.n) {
        this.queue.splice(0, head)
        head = 0
      }
    }
    this.queue.length = 0
  }

  /** Looks from every stop until none has an improving move. */
  sweep() {
    this.lookFrom(0, this.n - 1)
    this.run()
  }

  /**
   * The positions next to the nearest stops of `points` (positions −1, 0 and +1 around each), or undefined (every
   * position) on a route of up to FULL_MOVES_UP_TO stops.
   */
  private near(...points: number[]) {
    if (this.n <= FULL_MOVES_UP_TO) return undefined
    const { targets } = this
    targets.length = 0
    for (const point of points) {
      const nearest = this.data.nearest[point]
      if (nearest === undefined) return undefined // the start: no list, every position
      for (let rank = 0; rank < NEIGHBORS && rank < nearest.length; rank++) {
        const at = this.position[nearest[rank] as number] as number
        targets.push(at - 1, at, at + 1)
      }
    }
    return targets
  }

  /** Moves the segment at positions i…i+length−1 (length 1–3) anywhere else, either way round. */
  private moveSegmentFrom(i: number) {
    const { n, slice } = this
    for (let length = 1; length <= MAX_SEGMENT && i + length <= n; length++) {
      const last = i + length - 1
      const p = this.before(i)
      const q = this.after(last)
      const first = this.stopAt(i)
      const end = this.stopAt(last)
      const removed = this.d(p, first) + this.d(end, q) - this.d(p, q)
      const targets = this.near(first, end)
      const count = targets === undefined ? n : targets.length
      for (let reversed = 0; reversed < (length === 1 ? 1 : 2); reversed++) {
        const head = reversed ? end : first
        const tail = reversed ? first : end
        const turned = reversed ? this.inner(i, last, true) - this.inner(i, last, false) : 0
        for (let t = 0; t < count; t++) {
          const j = targets === undefined ? t : (targets[t] as number)
          if (j >= 0 && j < i) {
            // Earlier: between the points before and at position j; positions j…last change.
            const u = this.before(j)
            const v = this.stopAt(j)
            const delta = this.d(u, head) + this.d(tail, v) - this.d(u, v) - removed + turned
            if (!this.worth(j, delta)) continue
            let w = 0
            for (let s = 0; s < length; s++) slice[w++] = this.stopAt(reversed ? last - s : i + s)
            for (let k = j; k < i; k++) slice[w++] = this.stopAt(k)
            if (this.timed(j, last, this.total.length + delta)) {
              this.apply(j, last)
              return true
            }
          } else if (j > last && j < n) {
            // Later: between the points at and after position j; positions i…j change.
            const u = this.stopAt(j)
            const v = this.after(j)
            const delta = this.d(u, head) + this.d(tail, v) - this.d(u, v) - removed + turned
            if (!this.worth(i, delta)) continue
            let w = 0
            for (let k = last + 1; k <= j; k++) slice[w++] = this.stopAt(k)
            for (let s = 0; s < length; s++) slice[w++] = this.stopAt(reversed ? last - s : i + s)
            if (this.timed(i, j, this.total.length + delta)) {
              this.apply(i, j)
              return true
            }
          }
        }
      }
    }
    return false
  }

  /** Reverses positions i…j for every j > i (or, on a long route, where a new edge joins near neighbors). */
  private reverseFrom(i: number) {
    const { n, slice } = this
    const p = this.before(i)
    const first = this.stopAt(i)
    const targets = this.near(p, first)
    const count = targets === undefined ? n : targets.length
    for (let t = 0; t < count; t++) {
      const j = targets === undefined ? t : (targets[t] as number)
      if (j <= i || j >= n) continue
      const q = this.after(j)
      const end = this.stopAt(j)
      const delta =
        this.d(p, end) +
        this.d(first, q) -
        this.d(p, first) -
        this.d(end, q) +
        this.inner(i, j, true) -
        this.inner(i, j, false)
      if (!this.worth(i, delta)) continue
      for (let k = i; k <= j; k++) slice[k - i] = this.stopAt(j - (k - i))
      if (this.timed(i, j, this.total.length + delta)) {
        this.apply(i, j)
        return true
      }
    }
    return false
  }

  /**
   * Ruin and recreate: a random stop and its nearest few leave the route and go back one by one, in order of closing
   * time, each where it costs least. A double bridge would break windows downstream and leave the search timing every
   * move; reinsertion keeps a feasible route feasible whenever it can.
   */
  kick(random: () => number) {
    const { n, data } = this
    if (n < 4) return
    const size = 2 + Math.floor(random() * Math.min(MAX_RUIN - 1, Math.floor(n / 4)))
    const center = this.stopAt(Math.floor(random() * n))
    const nearest = data.nearest[center] as Int32Array
    const removed = new Uint8Array(data.count)
    removed[center] = 1
    for (let k = 0; k < nearest.length && k < size - 1; k++) removed[nearest[k] as number] = 1
    const rest: number[] = []
    const out: number[] = []
    for (const stop of this.order) (removed[stop] ? out : rest).push(stop)
    out.sort(byWindow(data))
    this.restore(Int32Array.from(insertAll(data, rest, out)))
    for (const stop of out) {
      const at = this.position[stop] as number
      this.lookFrom(at - 1, at + 1)
    }
  }
}

/** The stops in the order decision 012's optimizer finds shortest, ignoring every time. */
function shortestOrder(data: Data) {
  const { count, width, distance } = data
  // Rows from the end and columns into the start are never driven: read them the other way round.
  const d: Distance = (a, b) =>
    a === count + 1 || b === count ? (distance[b * width + a] as number) : (distance[a * width + b] as number)
  const route = optimizeRoute(count + 2, d, { start: count, end: count + 1 })
  return route.filter((point) => point < count)
}

/** Closing time first, then opening time, then index: the order stops are inserted in. */
function byWindow(data: Data) {
  return (a: number, b: number) =>
    compare(data.close[a] as number, data.close[b] as number) ||
    compare(data.open[a] as number, data.open[b] as number) ||
    a - b
}

/**
 * Inserts each stop, in turn, where the route's cost (lateness, then length) grows least; ties to the earlier place.
 * Inserting never makes anything earlier, so once a place adds no lateness only shorter detours are timed, and
 * timing stops where the departures agree with the route's again.
 */
function insertAll(data: Data, route: readonly number[], stops: readonly number[]) {
  const { width, count, travel, distance, open, close, service } = data
  const order = [...route]
  const total = route.length + stops.length
  const departure = new Float64Array(total + 1)
  const lateBefore = new Float64Array(total + 1)
  const lateAfter = new Float64Array(total + 1)
  const stopLate = new Float64Array(total)
  for (const stop of stops) {
    const n = order.length
    let time = data.startTime
    let at = count
    let late = 0
    departure[0] = time
    for (let k = 0; k < n; k++) {
      const next = order[k] as number
      const arrival = time + (travel[at * width + next] as number)
      stopLate[k] = Math.max(0, arrival - (close[next] as number))
      late += stopLate[k] as number
      time = Math.max(arrival, open[next] as number) + (service[next] as number)
      departure[k + 1] = time
      lateBefore[k + 1] = late
      at = next
    }
    lateAfter[n] = Math.max(0, time + (travel[at * width + count + 1] as number) - data.dayEnd)
    for (let k = n - 1; k >= 0; k--) lateAfter[k] = (lateAfter[k + 1] as number) + (stopLate[k] as number)
    const baseLate = lateAfter[0] as number
    let bestPlace = -1
    let bestLate = Number.POSITIVE_INFINITY
    let bestDelta = Number.POSITIVE_INFINITY
    for (let place = 0; place <= n; place++) {
      const u = place === 0 ? count : (order[place - 1] as number)
      const v = place === n ? count + 1 : (order[place] as number)
      const delta =
        (distance[u * width + stop] as number) +
        (distance[stop * width + v] as number) -
        (distance[u * width + v] as number)
      if (bestLate <= baseLate + LATE_EPSILON && delta >= bestDelta - data.lengthEpsilon) continue
      const limit = bestLate + LATE_EPSILON
      let t = departure[place] as number
      let lateness = lateBefore[place] as number
      let from = u
      let to = stop
      let k = place
      let hopeless = false
      for (;;) {
        const arrival = t + (travel[from * width + to] as number)
        if (arrival > (close[to] as number)) lateness += arrival - (close[to] as number)
        if (lateness > limit) {
          hopeless = true
          break
        }
        t = Math.max(arrival, open[to] as number) + (service[to] as number)
        from = to
        if (k === n) {
          lateness += Math.max(0, t + (travel[from * width + count + 1] as number) - data.dayEnd)
          break
        }
        // Past the new stop the previous point is the old one: equal departures mean the old times from here.
        if (from !== stop) {
          const old = departure[k] as number
          if (t === old) {
            lateness += lateAfter[k] as number
            break
          }
          if (t < old && (lateAfter[k] as number) <= LATE_EPSILON) break
        }
        to = order[k] as number
        k++
      }
      if (hopeless) continue
      if (
        lateness < bestLate - LATE_EPSILON ||
        (lateness <= bestLate + LATE_EPSILON && delta < bestDelta - data.lengthEpsilon)
      ) {
        bestPlace = place
        bestLate = lateness
        bestDelta = delta
      }
    }
    order.splice(bestPlace, 0, stop)
  }
  return order
}

/** Ascending, with infinities (no window) and no NaN. */
function compare(a: number, b: number) {
  return a < b ? -1 : a > b ? 1 : 0
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
