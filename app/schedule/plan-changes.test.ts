import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addDays, isoWeekOf, type LocalDate, maxDate } from './local-date'
import { changePlanFrom, endPlan, moveFollowingVisits, type PlanChange, pausePlan } from './plan-changes'
import { datesToGenerate, occurrences, type PlanSchedule } from './recurrence'
import { epochDay, frequency, fromEpochDay, plan as planArbitrary, weekday } from './test-arbitraries'

type Plan = PlanSchedule & { technicianId: string | null }
type Visit = { id: string; occurrenceDate: LocalDate; state: 'scheduled' | 'moved' | 'skipped' | 'completed' }

const untouched = (visit: Visit) => visit.state === 'scheduled'
const monday: Plan = { frequencyWeeks: 1, weekday: 1, startsOn: '2026-03-02', endsOn: null, technicianId: 'sam' }
const visit = (occurrenceDate: LocalDate, state: Visit['state'] = 'scheduled'): Visit => ({
  id: occurrenceDate,
  occurrenceDate,
  state,
})
const ids = (visits: Visit[]) => visits.map((v) => v.id)
const rehomed = (change: PlanChange<Plan, Visit>) =>
  change.rehome.map(({ visit, plan, occurrenceDate }) => [visit.id, plan, occurrenceDate])

function ok<T>(result: { ok: true; change: T } | { ok: false; message: string }): T {
  if (!result.ok) throw new Error(result.message)
  return result.change
}

// Today is Tuesday 10 March 2026; the Monday plan has visits from the 16th on, two of them no longer untouched.
const context = {
  today: '2026-03-10',
  visits: [visit('2026-03-16'), visit('2026-03-23', 'skipped'), visit('2026-03-30', 'moved'), visit('2026-04-06')],
  isUntouched: untouched,
}

describe('changing a plan from a date', () => {
  it('ends the plan the day before, starts the changed one, and replaces only untouched visits', () => {
    const change = ok(changePlanFrom(monday, '2026-03-16', { technicianId: 'alex' }, context))
    expect(change.current).toEqual({ ...monday, endsOn: '2026-03-15' })
    expect(change.next).toEqual({ ...monday, startsOn: '2026-03-16', technicianId: 'alex' })
    expect(ids(change.remove)).toEqual(['2026-03-16', '2026-04-06'])
    // The skipped and the moved visit stand for the new plan's visits of their weeks.
    expect(rehomed(change)).toEqual([
      ['2026-03-23', 'next', '2026-03-23'],
      ['2026-03-30', 'next', '2026-03-30'],
    ])
    expect(change.keep).toEqual([])
  })

  it('maps a kept visit onto the new weekday in its week, or leaves it on the old plan when that week has none', () => {
    const wednesdays = ok(changePlanFrom(monday, '2026-03-16', { weekday: 3 }, context))
    expect(rehomed(wednesdays)).toEqual([
      ['2026-03-23', 'next', '2026-03-25'],
      ['2026-03-30', 'next', '2026-04-01'],
    ])
    // Every other Monday from the 16th: the 23rd's week has no visit any more, so the skipped visit stays as it was.
    const biweekly = ok(changePlanFrom(monday, '2026-03-16', { frequencyWeeks: 2 }, context))
    expect(ids(biweekly.keep)).toEqual(['2026-03-23'])
    expect(rehomed(biweekly)).toEqual([['2026-03-30', 'next', '2026-03-30']])
    // Generation for the new plan then leaves the rehomed visit's week alone.
    const window = { from: '2026-03-10', to: '2026-05-04' }
    const existing = biweekly.rehome.map((r) => r.occurrenceDate)
    expect(datesToGenerate(biweekly.next as Plan, window, existing)).toEqual(['2026-03-16', '2026-04-13', '2026-04-27'])
  })

  it('changes the row in place when the plan has not started by then', () => {
    const later = { ...monday, startsOn: '2026-03-20' }
    const laterVisits = { ...context, visits: [visit('2026-03-23', 'skipped'), visit('2026-03-30')] }
    const change = ok(changePlanFrom(later, '2026-03-12', { weekday: 2 }, laterVisits))
    expect(change.current).toEqual({ ...later, weekday: 2 })
    expect(change.next).toBeNull()
    expect(ids(change.remove)).toEqual(['2026-03-30'])
    expect(rehomed(change)).toEqual([['2026-03-23', 'current', '2026-03-24']])
  })

  it('refuses a date in the past, after the plan ends, or changes that make no schedule', () => {
    expect(changePlanFrom(monday, '2026-03-09', {}, context)).toEqual({
      ok: false,
      code: 'invalid',
      message: 'Choose today or a later date.',
    })
    expect(changePlanFrom({ ...monday, endsOn: '2026-03-31' }, '2026-04-06', {}, context)).toMatchObject({
      ok: false,
      message: 'The plan ends on 2026-03-31, before 2026-04-06.',
    })
    expect(changePlanFrom(monday, '2026-03-16', { endsOn: '2026-03-01' }, context)).toMatchObject({
      ok: false,
      message: '"Ends on" cannot be before "Starts on".',
    })
    expect(changePlanFrom(monday, '16/03/2026', {}, context)).toMatchObject({ ok: false, code: 'invalid' })
  })
})

describe('"Move visit" with "This and following visits"', () => {
  it('moves within the week without a gap: the new plan starts on the earlier date, its first visit the new one', () => {
    const later = ok(
      moveFollowingVisits(
        monday,
        { occurrenceDate: '2026-03-16', to: '2026-03-18', changes: { technicianId: 'alex' } },
        context,
      ),
    )
    expect(later.current.endsOn).toBe('2026-03-15')
    expect(later.next).toEqual({ ...monday, weekday: 3, startsOn: '2026-03-16', technicianId: 'alex' })
    expect(occurrences(later.next as Plan, '2026-03-16', '2026-03-31')).toEqual(['2026-03-18', '2026-03-25'])
    expect(ids(later.remove)).toEqual(['2026-03-16', '2026-04-06'])

    const earlier = ok(moveFollowingVisits(monday, { occurrenceDate: '2026-03-16', to: '2026-03-13' }, context))
    expect(earlier.current.endsOn).toBe('2026-03-12')
    expect(earlier.next).toMatchObject({ weekday: 5, startsOn: '2026-03-13' })
  })

  it('moves by a week or more as a pause: nothing between the visit and its new date', () => {
    const change = ok(moveFollowingVisits(monday, { occurrenceDate: '2026-03-16', to: '2026-03-31' }, context))
    expect(change.current.endsOn).toBe('2026-03-15')
    expect(change.next).toMatchObject({ weekday: 2, startsOn: '2026-03-31' })
  })

  it('moves the plan’s last visit past its end along with the end', () => {
    const ending = { ...monday, endsOn: '2026-03-16' }
    const change = ok(moveFollowingVisits(ending, { occurrenceDate: '2026-03-16', to: '2026-03-18' }, context))
    expect(change.next).toMatchObject({ weekday: 3, startsOn: '2026-03-16', endsOn: '2026-03-18' })
    expect(occurrences(change.next as Plan, '2026-03-16', '2026-12-31')).toEqual(['2026-03-18'])
  })

  it('moves an overdue visit forward and leaves the other overdue visits for the office', () => {
    const overdue = {
      today: '2026-03-20',
      visits: [visit('2026-03-09'), visit('2026-03-16'), visit('2026-03-23')],
      isUntouched: untouched,
    }
    const change = ok(moveFollowingVisits(monday, { occurrenceDate: '2026-03-09', to: '2026-03-21' }, overdue))
    expect(change.current.endsOn).toBe('2026-03-08')
    expect(change.next).toMatchObject({ weekday: 6, startsOn: '2026-03-21' })
    expect(ids(change.remove)).toEqual(['2026-03-09', '2026-03-23'])
    expect(ids(change.keep)).toEqual(['2026-03-16'])
  })

  it('refuses a date that is not one of the plan’s visits, or a move into the past', () => {
    expect(moveFollowingVisits(monday, { occurrenceDate: '2026-03-17', to: '2026-03-18' }, context)).toMatchObject({
      ok: false,
      message: 'That visit is not one of this plan’s.',
    })
    expect(moveFollowingVisits(monday, { occurrenceDate: '2026-03-16', to: '2026-03-09' }, context)).toMatchObject({
      ok: false,
      message: 'Choose today or a later date.',
    })
  })
})

describe('ending and pausing a plan', () => {
  it('ends on a date: untouched visits after it go, moved and skipped ones stay', () => {
    const change = ok(endPlan(monday, '2026-03-22', context))
    expect(change.current).toEqual({ ...monday, endsOn: '2026-03-22' })
    expect(change.next).toBeNull()
    expect(ids(change.remove)).toEqual(['2026-04-06'])
    expect(ids(change.keep)).toEqual(['2026-03-23', '2026-03-30'])
    // Yesterday is the earliest end: it stops the plan from today.
    expect(ok(endPlan(monday, '2026-03-09', context)).current.endsOn).toBe('2026-03-09')
    expect(endPlan(monday, '2026-03-08', context)).toMatchObject({
      ok: false,
      message: '"Ends on" cannot be before yesterday.',
    })
    expect(endPlan({ ...monday, startsOn: '2026-03-20' }, '2026-03-19', context)).toMatchObject({
      ok: false,
      message: '"Ends on" cannot be before "Starts on".',
    })
  })

  it('pauses until a date, or for good', () => {
    const paused = ok(pausePlan(monday, { from: '2026-03-16', resumeOn: '2026-04-01' }, context))
    expect(paused.current.endsOn).toBe('2026-03-15')
    expect(paused.next).toEqual({ ...monday, startsOn: '2026-04-01' })
    expect(occurrences(paused.next as Plan, '2026-03-16', '2026-04-12')).toEqual(['2026-04-06'])
    expect(ids(paused.remove)).toEqual(['2026-03-16', '2026-04-06'])
    expect(ids(paused.keep)).toEqual(['2026-03-23', '2026-03-30'])

    const stopped = ok(pausePlan(monday, { from: '2026-03-16', resumeOn: null }, context))
    expect(stopped).toEqual(ok(endPlan(monday, '2026-03-15', context)))
    // Resuming after the plan's end is ending it.
    const ending = { ...monday, endsOn: '2026-03-31' }
    expect(ok(pausePlan(ending, { from: '2026-03-16', resumeOn: '2026-04-13' }, context)).current.endsOn).toBe(
      '2026-03-15',
    )
  })

  it('refuses a pause that resumes before it starts, begins after the plan ends, or stops a plan before it starts', () => {
    expect(pausePlan(monday, { from: '2026-03-16', resumeOn: '2026-03-16' }, context)).toMatchObject({
      ok: false,
      message: '"Resume on" must be after the pause starts.',
    })
    expect(
      pausePlan({ ...monday, endsOn: '2026-03-31' }, { from: '2026-04-06', resumeOn: null }, context),
    ).toMatchObject({
      ok: false,
      message: 'The plan ends on 2026-03-31, before 2026-04-06.',
    })
    expect(
      pausePlan({ ...monday, startsOn: '2026-03-20' }, { from: '2026-03-16', resumeOn: null }, context),
    ).toMatchObject({ ok: false, message: 'The plan starts on 2026-03-20: end it, or change "Starts on", instead.' })
  })
})

describe('property: a change replaces only untouched future visits and never leaves a week with two', () => {
  const scenario = fc
    .record({
      plan: planArbitrary,
      todayOffset: fc.integer({ min: -60, max: 400 }),
      changeOffset: fc.integer({ min: 0, max: 56 }),
      changes: fc.record({
        weekday: fc.option(weekday, { nil: undefined }),
        frequencyWeeks: fc.option(frequency, { nil: undefined }),
      }),
      states: fc.array(fc.constantFrom<Visit['state']>('scheduled', 'scheduled', 'moved', 'skipped', 'completed'), {
        minLength: 20,
        maxLength: 20,
      }),
    })
    .map(({ plan, todayOffset, changeOffset, changes, states }) => {
      const today = fromEpochDay(epochDay(plan.startsOn) + todayOffset)
      const window = { from: today, to: addDays(today, 55) }
      const dates = occurrences(plan, today, window.to)
      const visits = dates.map((date, i) => visit(date, states[i % states.length]))
      const definedChanges = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
      return {
        plan: { ...plan, technicianId: 'sam' },
        today,
        window,
        visits,
        from: addDays(today, changeOffset),
        changes: definedChanges,
      }
    })

  it('holds for "this and following" with any weekday and frequency', () => {
    fc.assert(
      fc.property(scenario, ({ plan, today, window, visits, from, changes }) => {
        const result = changePlanFrom(plan, from, changes, { today, visits, isUntouched: untouched })
        if (!result.ok) {
          expect(plan.endsOn !== null && from > plan.endsOn).toBe(true)
          return
        }
        const { current, next, remove, keep, rehome } = result.change
        const affected = visits.filter((v) => v.occurrenceDate >= from)
        // Every visit from the change date on is accounted for once; moved, skipped and completed ones survive.
        expect([...remove, ...keep, ...rehome.map((r) => r.visit)].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
          affected,
        )
        expect(remove.every(untouched)).toBe(true)
        expect(affected.filter(untouched)).toEqual(remove)

        // Apply it as the database would, then run generation for both plans.
        const rows = new Map<'current' | 'next', LocalDate[]>([
          [
            'current',
            visits
              .filter((v) => !remove.includes(v) && !rehome.some((r) => r.visit === v))
              .map((v) => v.occurrenceDate),
          ],
          ['next', []],
        ])
        for (const r of rehome) {
          const target = r.plan === 'next' ? next : current
          expect(target && occurrences(target, r.occurrenceDate, r.occurrenceDate)).toEqual([r.occurrenceDate])
          expect(isoWeekOf(r.occurrenceDate).start).toBe(isoWeekOf(r.visit.occurrenceDate).start)
          rows.get(r.plan)?.push(r.occurrenceDate)
        }
        rows.get('current')?.push(...datesToGenerate(current, window, rows.get('current') ?? []))
        if (next) rows.get('next')?.push(...datesToGenerate(next, window, rows.get('next') ?? []))
        for (const dates of rows.values()) expect(new Set(dates).size).toBe(dates.length)
        // From the first whole week after the change on, no ISO week has two visits.
        const firstWeek = isoWeekOf(addDays(from, 6)).start
        const weeks = [...rows.values()]
          .flat()
          .filter((date) => date >= firstWeek)
          .map((date) => isoWeekOf(date).start)
        expect(new Set(weeks).size).toBe(weeks.length)
      }),
      { numRuns: 300 },
    )
  })

  it('"Edit plan" from a date: completed visits stay, no date twice, and generated visits follow the new rule', () => {
    fc.assert(
      fc.property(scenario, ({ plan, today, window, visits, from, changes }) => {
        const edit = { ...changes, technicianId: 'alex' }
        const result = changePlanFrom(plan, from, edit, { today, visits, isUntouched: untouched })
        fc.pre(result.ok)
        if (!result.ok) return
        const { current, next, remove, rehome } = result.change
        // Completed (and moved, skipped) visits are never removed, and keep their day.
        expect(remove.some((v) => v.state === 'completed')).toBe(false)
        const holder = next ?? current
        expect(holder).toMatchObject(edit)
        const kept = visits.filter((v) => !remove.includes(v))
        const onHolder = [
          ...(next ? [] : kept.filter((v) => !rehome.some((r) => r.visit === v)).map((v) => v.occurrenceDate)),
          ...rehome.filter((r) => (r.plan === 'next') === Boolean(next)).map((r) => r.occurrenceDate),
        ]
        const generated = datesToGenerate(holder, window, onHolder)
        // Generation again adds nothing: the (plan, occurrence date) key.
        expect(datesToGenerate(holder, window, [...onHolder, ...generated])).toEqual([])
        expect(new Set([...onHolder, ...generated]).size).toBe(onHolder.length + generated.length)
        // Every visit generated is on the new rule, from the change date on; every date of the new rule in the
        // window has its visit (generated, or a moved/skipped/completed one standing for it).
        for (const date of generated) {
          expect(date >= from).toBe(true)
          expect(occurrences(holder, date, date)).toEqual([date])
        }
        const rule = occurrences(holder, maxDate(from, window.from), window.to)
        expect(rule.every((date) => generated.includes(date) || onHolder.includes(date))).toBe(true)
      }),
      { numRuns: 300 },
    )
  })
})
