// "Balance the day" and "Cover this day" measured (docs/routing.md "Balancing", docs/performance.md): 20, 60 and 200
// stops around one office shared by 3 and 6 technicians at 30 mph (straight-line × 1.3), 10–30 minutes on site, a
// third of the stops with a four-hour window, dealt to the technicians round-robin in a random order (a day the office
// assigned by hand). Each row: best and median of `runs` balances (and covers of the first technician) in this
// process, and the total miles before → after. `npx tsx bench/balance.ts [runs]`. Pure CPU, no database or server.
import { balancePlan, coverRoute, type FleetProblem, type Plan, planTimes, totals } from '../app/routing/balance'
import { type LatLng, metersToMiles, straightLineDriveMeters } from '../app/routing/distance'
import type { TimedStop } from '../app/routing/windows'

const METERS_PER_MINUTE = (30 * 1609.344) / 60

function generator(seed: number) {
  let state = seed
  return () => {
    state = (state * 48_271) % 2_147_483_647
    return state / 2_147_483_647
  }
}

function day(stops: number, technicians: number, seed: number) {
  const random = generator(seed)
  const office = { lat: 27.96611, lng: -82.56222 }
  const points: LatLng[] = [office]
  const timed: TimedStop[] = [{}]
  for (let i = 0; i < stops; i += 1) {
    points.push({ lat: office.lat + (random() - 0.5) * 0.4, lng: office.lng + (random() - 0.5) * 0.4 })
    const open = random() < 1 / 3 ? 480 + Math.floor(random() * 5) * 60 : undefined
    timed.push({ ...(open !== undefined ? { open, close: open + 240 } : {}), service: 10 + Math.floor(random() * 21) })
  }
  const meters = points.map((from) => points.map((to) => straightLineDriveMeters(from, to)))
  const distance = (from: number, to: number) => meters[from]?.[to] ?? 0
  const fleet: FleetProblem = {
    size: points.length,
    stops: timed,
    distance,
    travel: (from, to) => distance(from, to) / METERS_PER_MINUTE,
    vehicles: Array.from({ length: technicians }, () => ({ start: 0, startTime: 480, dayEnd: 1020 })),
  }
  const order = Array.from({ length: stops }, (_, i) => i + 1).sort(() => random() - 0.5)
  const plan: Plan = Array.from({ length: technicians }, () => [])
  order.forEach((point, i) => {
    plan[i % technicians]?.push(point)
  })
  return { fleet, plan }
}

function measure(runs: number, work: () => void) {
  const times: number[] = []
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now()
    work()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return { best: times[0] ?? 0, median: times[Math.floor(times.length / 2)] ?? 0 }
}

const runs = Number(process.argv[2] ?? 5)
const rows = []
for (const stops of [20, 60, 200]) {
  for (const technicians of [3, 6]) {
    const { fleet, plan } = day(stops, technicians, 1000 + stops + technicians)
    let balanced = plan
    const balance = measure(stops === 200 ? Math.min(runs, 3) : runs, () => {
      balanced = balancePlan(fleet, plan)
    })
    const cover = measure(stops === 200 ? Math.min(runs, 3) : runs, () => coverRoute(fleet, plan, 0))
    const before = totals(planTimes(fleet, plan))
    const after = totals(planTimes(fleet, balanced))
    rows.push({
      stops,
      technicians,
      balanceBestMs: Number(balance.best.toFixed(1)),
      balanceMedianMs: Number(balance.median.toFixed(1)),
      coverBestMs: Number(cover.best.toFixed(1)),
      coverMedianMs: Number(cover.median.toFixed(1)),
      milesBefore: Number(metersToMiles(before.length).toFixed(1)),
      milesAfter: Number(metersToMiles(after.length).toFixed(1)),
      lateBefore: Math.round(before.late),
      lateAfter: Math.round(after.late),
    })
  }
}
console.table(rows)
