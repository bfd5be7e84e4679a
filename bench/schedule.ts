// Visit generation's pure part for `npm run bench`: the dates 8 weeks ahead for 5,000 random plans (every frequency
// and weekday, started in the last three years or starting within the 8 weeks, a quarter with an end date), the
// issue's target being under 5 s including the database.
// Timed as the best and the median of `runs` runs in this process; the plans come from a fixed seed. Run alone with
// `npx tsx bench/schedule.ts`.
import { pathToFileURL } from 'node:url'
import { addDays, type IsoWeekday } from '../app/schedule/local-date'
import { datesToGenerate, type FrequencyWeeks, generationWindow, type PlanSchedule } from '../app/schedule/recurrence'

export type ScheduleBenchRow = {
  name: string
  plans: number
  visits: number
  bestMs: number
  medianMs: number
  meetsTarget: boolean
}

const TARGET_MS = 5000
const ZONES = ['America/New_York', 'America/Phoenix', 'Australia/Sydney', 'Europe/London']

function randomPlans(count: number, today: string): PlanSchedule[] {
  let seed = 20_261_124
  const random = (n: number) => {
    seed = (seed * 48_271) % 2_147_483_647
    return seed % n
  }
  return Array.from({ length: count }, () => {
    const startsOn = addDays(today, random(3 * 365 + 56) - 3 * 365)
    return {
      frequencyWeeks: (1 + random(4)) as FrequencyWeeks,
      weekday: (1 + random(7)) as IsoWeekday,
      startsOn,
      endsOn: random(4) === 0 ? addDays(startsOn, random(4 * 365)) : null,
    }
  })
}

export function benchSchedule({ plans: count = 5000, runs = 5 }: { plans?: number; runs?: number } = {}) {
  const now = new Date('2026-11-24T12:00:00Z')
  const plans = randomPlans(count, '2026-11-24')
  const times: number[] = []
  let visits = 0
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    visits = 0
    plans.forEach((plan, i) => {
      // Each plan's company has its own zone and so its own today.
      const window = generationWindow(now, ZONES[i % ZONES.length] as string)
      visits += datesToGenerate(plan, window, []).length
    })
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const round = (ms: number) => Math.round(ms * 100) / 100
  const bestMs = round(times[0] ?? 0)
  const row: ScheduleBenchRow = {
    name: `8 weeks of visits for ${count} plans`,
    plans: count,
    visits,
    bestMs,
    medianMs: round(times[Math.floor(times.length / 2)] ?? 0),
    meetsTarget: bestMs < TARGET_MS,
  }
  return [row]
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(benchSchedule())
}
