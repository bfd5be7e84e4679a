import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addDays, instantAt, type LocalDate, maxDate, minDate } from './local-date'
import { changePlanFrom } from './plan-changes'
import {
  checkPlanSchedule,
  datesToGenerate,
  firstOccurrence,
  GENERATION_WEEKS,
  generationWindow,
  isOccurrence,
  occurrences,
  type PlanSchedule,
} from './recurrence'
import { SERVICE_WINDOW_HOURS, SERVICE_WINDOWS } from './service-window'
import {
  epochDay,
  frequency,
  fromEpochDay,
  localDate,
  oracleWeekday,
  plan,
  wallClock,
  wallTime,
  weekday,
  ZONES,
} from './test-arbitraries'

const WEEKS = 52
/** A plan and a 52-week window that starts up to a year before or after the plan does, so windows catch its start, its end and its middle. */
const planInWindow = fc
  .record({ plan, offset: fc.integer({ min: -365, max: 365 }), zone: fc.constantFrom(...ZONES) })
  .map(({ plan, offset, zone }) => {
    const from = fromEpochDay(epochDay(plan.startsOn) + offset)
    return { plan, zone, from, to: fromEpochDay(epochDay(from) + 7 * WEEKS - 1) }
  })

/** The plan's dates by brute force over every day of the window, with the oracle's arithmetic. */
function oracleOccurrences(p: PlanSchedule, from: LocalDate, to: LocalDate): LocalDate[] {
  const start = epochDay(p.startsOn)
  const anchor = start + ((p.weekday - oracleWeekday(p.startsOn) + 7) % 7)
  const dates: LocalDate[] = []
  for (let day = epochDay(from); day <= epochDay(to); day++) {
    const date = fromEpochDay(day)
    if (day >= anchor && (day - anchor) % (7 * p.frequencyWeeks) === 0 && (p.endsOn === null || date <= p.endsOn)) {
      dates.push(date)
    }
  }
  return dates
}

describe('a plan’s dates', () => {
  it('start on the first of its weekday on or after "Starts on", then every 1–4 weeks, never after "Ends on"', () => {
    const weekly: PlanSchedule = { frequencyWeeks: 1, weekday: 1, startsOn: '2026-03-04', endsOn: '2026-03-30' }
    expect(firstOccurrence(weekly)).toBe('2026-03-09')
    expect(occurrences(weekly, '2026-01-01', '2026-12-31')).toEqual([
      '2026-03-09',
      '2026-03-16',
      '2026-03-23',
      '2026-03-30',
    ])
    // Starting on its weekday: that day is the first.
    const biweekly: PlanSchedule = { frequencyWeeks: 2, weekday: 3, startsOn: '2026-10-21', endsOn: null }
    expect(occurrences(biweekly, '2026-10-01', '2026-11-30')).toEqual(['2026-10-21', '2026-11-04', '2026-11-18'])
    // A window that begins between two visits, years after the start.
    expect(occurrences(biweekly, '2030-01-01', '2030-01-31')).toEqual(['2030-01-09', '2030-01-23'])
    expect(isOccurrence(biweekly, '2030-01-23')).toBe(true)
    expect(isOccurrence(biweekly, '2030-01-16')).toBe(false)
    // An end before the first visit, and an empty window.
    expect(occurrences({ ...weekly, endsOn: '2026-03-08' }, '2026-01-01', '2026-12-31')).toEqual([])
    expect(occurrences(weekly, '2026-03-20', '2026-03-10')).toEqual([])
  })

  it('property: on the weekday in the company’s zone, 7 × frequency days apart, within the plan and the window, each once', () => {
    fc.assert(
      fc.property(planInWindow, fc.constantFrom(...SERVICE_WINDOWS), ({ plan, zone, from, to }, window) => {
        const dates = occurrences(plan, from, to)
        expect(dates).toEqual(oracleOccurrences(plan, from, to))
        for (const date of dates) {
          expect(oracleWeekday(date)).toBe(plan.weekday)
          expect(date >= from && date <= to).toBe(true)
          expect(date >= plan.startsOn).toBe(true)
          if (plan.endsOn !== null) expect(date <= plan.endsOn).toBe(true)
          // At the window's start time on the company's wall clock, and back: the same date and weekday.
          const start = SERVICE_WINDOW_HOURS[window].start
          const seen = wallClock(instantAt(date, start, zone), zone)
          expect(seen).toEqual({ date, time: start, weekday: plan.weekday })
        }
        for (let i = 1; i < dates.length; i++) {
          expect(epochDay(dates[i] as LocalDate) - epochDay(dates[i - 1] as LocalDate)).toBe(7 * plan.frequencyWeeks)
        }
        expect(new Set(dates).size).toBe(dates.length)
        // A plan that runs through the window has a visit in every stretch of `frequencyWeeks` weeks.
        if (plan.startsOn <= from && (plan.endsOn === null || plan.endsOn >= to)) {
          expect(dates.length).toBeGreaterThanOrEqual(Math.floor(WEEKS / plan.frequencyWeeks))
        }
      }),
      { numRuns: 300 },
    )
  })

  it('property: generating over overlapping windows gives, together, exactly the dates of one window', () => {
    fc.assert(
      fc.property(
        planInWindow,
        fc.array(fc.integer({ min: 0, max: 7 * WEEKS - 1 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 60 }),
        ({ plan, from, to }, cuts, overlap) => {
          // Windows [from, c1 + overlap], [c1, c2 + overlap], …, [ck, to]: each overlaps the next.
          const bounds = [...new Set(cuts)].sort((a, b) => a - b).map((cut) => addDays(from, cut))
          const starts = [from, ...bounds]
          const seen: LocalDate[] = []
          starts.forEach((start, i) => {
            const next = starts[i + 1]
            const end = next === undefined ? to : addDays(next, overlap)
            seen.push(...occurrences(plan, start, minDate(end, to)))
          })
          expect([...new Set(seen)].sort()).toEqual(occurrences(plan, from, to))
        },
      ),
      { numRuns: 200 },
    )
  })

  it('property: rolling generation, day by day at any hour, creates each visit once and keeps 8 weeks ahead', () => {
    fc.assert(
      fc.property(
        planInWindow,
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 20 }), time: wallTime }), { minLength: 1, maxLength: 20 }),
        ({ plan, zone, from }, runs) => {
          const created: LocalDate[] = []
          let today = from
          for (const { gap, time } of runs) {
            today = addDays(today, gap)
            const window = generationWindow(instantAt(today, time, zone), zone)
            expect(window.from).toBe(today)
            expect(epochDay(window.to) - epochDay(window.from)).toBe(7 * GENERATION_WEEKS - 1)
            const fresh = datesToGenerate(plan, window, created)
            // Generating again at once adds nothing.
            expect(datesToGenerate(plan, window, [...created, ...fresh])).toEqual([])
            created.push(...fresh)
            // Everything the plan has in the window exists after the run.
            expect(occurrences(plan, window.from, window.to).every((date) => created.includes(date))).toBe(true)
          }
          expect(new Set(created).size).toBe(created.length)
          expect(created.every((date) => isOccurrence(plan, date))).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('property: a weekly plan always has 8 visits in the generation window', () => {
    fc.assert(
      fc.property(weekday, localDate, wallTime, fc.constantFrom(...ZONES), (day, today, time, zone) => {
        const window = generationWindow(instantAt(today, time, zone), zone)
        const weekly: PlanSchedule = { frequencyWeeks: 1, weekday: day, startsOn: '2020-01-01', endsOn: null }
        expect(occurrences(weekly, window.from, window.to)).toHaveLength(GENERATION_WEEKS)
      }),
    )
  })

  it('property: "this and following" gives the old plan’s dates before the split and the new plan’s from it', () => {
    fc.assert(
      fc.property(
        planInWindow,
        fc.integer({ min: 0, max: 7 * WEEKS - 1 }),
        fc.record({
          weekday: fc.option(weekday, { nil: undefined }),
          frequencyWeeks: fc.option(frequency, { nil: undefined }),
        }),
        ({ plan, from, to }, at, rawChanges) => {
          const split = addDays(from, at)
          const changes = Object.fromEntries(Object.entries(rawChanges).filter(([, value]) => value !== undefined))
          const result = changePlanFrom(plan, split, changes, { today: from, visits: [], isUntouched: () => true })
          if (plan.endsOn !== null && split > plan.endsOn) {
            expect(result).toMatchObject({ ok: false, code: 'invalid' })
            return
          }
          if (!result.ok) throw new Error(result.message)
          const { current, next } = result.change
          const replacement = { ...plan, ...changes, startsOn: maxDate(split, plan.startsOn) }
          const before = occurrences(plan, from, to).filter((date) => date < split)
          const after = occurrences(replacement, from, to)
          const union = [...occurrences(current, from, to), ...(next ? occurrences(next, from, to) : [])]
          expect(union.sort()).toEqual([...before, ...after])
          expect(after.every((date) => date >= split)).toBe(true)
          // The old row keeps its own dates before the split; a new row starts on the split date.
          if (next) {
            expect(current).toEqual({ ...plan, endsOn: addDays(split, -1) })
            expect(next.startsOn).toBe(split)
          } else {
            expect(split <= plan.startsOn).toBe(true)
            expect(before).toEqual([])
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('a plan’s schedule as typed', () => {
  it('is refused with the field’s name when it cannot make dates', () => {
    const good: Parameters<typeof checkPlanSchedule>[0] = {
      frequencyWeeks: 2,
      weekday: 1,
      startsOn: '2026-03-09',
      endsOn: null,
    }
    expect(checkPlanSchedule(good)).toEqual({ ok: true, schedule: good })
    expect(checkPlanSchedule({ ...good, endsOn: '2026-03-09' }).ok).toBe(true)
    const cases: [Partial<typeof good>, string][] = [
      [{ frequencyWeeks: 5 }, '"Frequency" must be every 1, 2, 3 or 4 weeks.'],
      [{ frequencyWeeks: 1.5 }, '"Frequency" must be every 1, 2, 3 or 4 weeks.'],
      [{ weekday: 0 }, 'Choose a "Day".'],
      [{ weekday: 8 }, 'Choose a "Day".'],
      [{ startsOn: '2026-02-30' }, '"Starts on" must be a date.'],
      [{ endsOn: 'soon' }, '"Ends on" must be a date.'],
      [{ endsOn: '2026-03-08' }, '"Ends on" cannot be before "Starts on".'],
    ]
    for (const [change, message] of cases) {
      expect(checkPlanSchedule({ ...good, ...change })).toEqual({ ok: false, code: 'invalid', message })
    }
  })
})
