// A price change that takes effect inside a month (issue 31 item 8, docs/billing.md "A price change mid-month"): the
// month bills each part at its own rate, once. Golden cases written out by hand (November 2026: Mondays 2, 9, 16, 23,
// 30), then properties over random months, plans and cuts (fast-check): every completed visit is billed exactly
// once, and with equal rates the parts sum to what one rate gives, to the cent.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addDays, type IsoWeekday, type LocalDate } from '~/schedule/local-date'
import { type FrequencyWeeks, occurrences } from '~/schedule/recurrence'
import { localDate } from '~/schedule/test-arbitraries'
import {
  type BillingPeriod,
  draftInvoice,
  monthlyCharge,
  monthlyParts,
  monthOf,
  type PlanToBill,
  perVisitParts,
  type RateChange,
  rateParts,
} from './invoice-draft'
import { NO_TAX } from './tax'

const NOVEMBER_2026: BillingPeriod = { start: '2026-11-01', end: '2026-11-30' }

function plan(fields: Partial<PlanToBill> & Pick<PlanToBill, 'rateType' | 'rateCents'>): PlanToBill {
  return {
    id: 'plan-1',
    locationId: 'loc-palm',
    place: '12 Palm Ave',
    frequencyWeeks: 1,
    weekday: 1,
    startsOn: '2025-03-03',
    endsOn: null,
    completedVisits: 0,
    ...fields,
  }
}

const draft = (p: PlanToBill, period = NOVEMBER_2026) =>
  draftInvoice({ period, plans: [p], chemicals: [], itemizeChemicals: true, tax: NO_TAX, creditCents: 0 })

describe('a price change inside the month', () => {
  it('bills a monthly plan by scheduled visits in each part: $160 to $176 from Nov 16 is $64.00 + $105.60', () => {
    const invoice = draft(
      plan({ rateType: 'monthly', rateCents: 16_000, rateChanges: [{ on: '2026-11-16', rateCents: 17_600 }] }),
    )
    expect(invoice?.lines.map((l) => [l.description, l.amountCents])).toEqual([
      ['Monthly pool service, 12 Palm Ave — November 2026, Nov 1–15 (2 of 5 visits)', 6_400],
      ['Monthly pool service, 12 Palm Ave — November 2026, Nov 16–30 (3 of 5 visits)', 10_560],
    ])
    expect(invoice?.totalCents).toBe(16_960)
  })

  it('bills a per-visit plan by each visit’s date: $45 to $50 from Nov 16, visits on Nov 2, 9 and 23', () => {
    const invoice = draft(
      plan({
        rateType: 'per-visit',
        rateCents: 4_500,
        completedVisits: 3,
        completedOn: ['2026-11-02', '2026-11-09', '2026-11-23'],
        rateChanges: [{ on: '2026-11-16', rateCents: 5_000 }],
      }),
    )
    expect(invoice?.lines.map((l) => [l.description, l.quantity, l.unitCents, l.amountCents])).toEqual([
      ['Pool service, 12 Palm Ave — Nov 1–15, 2 visits', '2', 4_500, 9_000],
      ['Pool service, 12 Palm Ave — Nov 16–30, 1 visit', '1', 5_000, 5_000],
    ])
  })

  it('is no cut when the change takes effect on the 1st (the rate in force that day is the plan’s)', () => {
    expect(rateParts(NOVEMBER_2026, 16_000, [{ on: '2026-11-01', rateCents: 17_600 }])).toEqual([
      { from: '2026-11-01', to: '2026-11-30', rateCents: 16_000 },
    ])
    expect(rateParts(NOVEMBER_2026, 16_000, [{ on: '2026-12-01', rateCents: 17_600 }])).toHaveLength(1)
  })
})

/** A month, a plan that may start or end inside it, cuts on any days but the 1st, and a rate per part. */
const scenario = localDate.map(monthOf).chain((period) => {
  const days = Number(period.end.slice(8, 10))
  return fc.record({
    period: fc.constant(period),
    weekday: fc.integer({ min: 1, max: 7 }).map((d) => d as IsoWeekday),
    frequencyWeeks: fc.constantFrom(1, 2).map((f) => f as FrequencyWeeks),
    startOffset: fc.integer({ min: -400, max: days - 1 }),
    runsFor: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: days - 1 }), { maxLength: 5 }),
    rates: fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 6, maxLength: 6 }),
    completedMask: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    rateType: fc.constantFrom('monthly', 'per-visit') as fc.Arbitrary<PlanToBill['rateType']>,
  })
})

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never

function build(s: Scenario, equalRates: boolean) {
  const startsOn = addDays(s.period.start, s.startOffset)
  const endsOn = s.runsFor === null ? null : addDays(startsOn, s.runsFor)
  const changes: RateChange[] = [...s.cuts]
    .sort((a, b) => a - b)
    .map((day, i) => ({
      on: addDays(s.period.start, day),
      rateCents: equalRates ? (s.rates[0] ?? 0) : (s.rates[i + 1] ?? 0),
    }))
  const schedule = { weekday: s.weekday, frequencyWeeks: s.frequencyWeeks, startsOn, endsOn }
  const visits = occurrences(schedule, s.period.start, s.period.end)
  const completedOn: LocalDate[] = visits.filter((_, i) => s.completedMask[i % s.completedMask.length])
  const p = plan({
    ...schedule,
    rateType: s.rateType,
    rateCents: s.rates[0] ?? 0,
    completedVisits: completedOn.length,
    completedOn,
    rateChanges: changes,
  })
  return { p, changes, visits, completedOn }
}

describe('any split of a month into rate periods (property)', () => {
  it('has parts that cover the month exactly, in order, without overlap', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { p, changes } = build(s, false)
        const parts = rateParts(s.period, p.rateCents, changes)
        expect(parts[0]?.from).toBe(s.period.start)
        expect(parts.at(-1)?.to).toBe(s.period.end)
        for (let i = 1; i < parts.length; i++) expect(parts[i]?.from).toBe(addDays(parts[i - 1]?.to ?? '', 1))
        expect(parts).toHaveLength(s.cuts.length + 1)
      }),
    )
  })

  it('bills every completed visit exactly once, at the rate of the part holding its date', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { p, changes, completedOn } = build(s, false)
        const parts = rateParts(s.period, p.rateCents, changes)
        const byPart = perVisitParts(parts, completedOn)
        expect(byPart.reduce((sum, { visits }) => sum + visits, 0)).toBe(completedOn.length)
        for (const date of completedOn) {
          expect(parts.filter((part) => date >= part.from && date <= part.to)).toHaveLength(1)
        }
        if (p.rateType === 'per-visit') {
          const lines = draft(p, s.period)?.lines ?? []
          expect(lines.reduce((sum, l) => sum + Number(l.quantity), 0)).toBe(completedOn.length)
          const expected = completedOn.reduce(
            (sum, date) => sum + (parts.find((part) => date >= part.from && date <= part.to)?.rateCents ?? NaN),
            0,
          )
          expect(lines.reduce((sum, l) => sum + l.amountCents, 0)).toBe(expected)
        }
      }),
    )
  })

  it('counts every scheduled visit of a monthly plan in exactly one part', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { p, changes, visits } = build(s, false)
        const parts = monthlyParts(p, s.period, rateParts(s.period, p.rateCents, changes))
        expect(parts.reduce((sum, part) => sum + part.scheduled, 0)).toBe(visits.length)
      }),
    )
  })

  it('sums, when the rates are equal, to exactly what a single rate gives', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { p } = build(s, true)
        const split = draft(p, s.period)
        const single = draft({ ...p, rateChanges: [] }, s.period)
        expect(split?.totalCents ?? 0).toBe(single?.totalCents ?? 0)
        if (p.rateType === 'monthly') {
          const parts = monthlyParts(p, s.period, rateParts(s.period, p.rateCents, p.rateChanges))
          const whole = monthlyCharge(p, s.period)
          expect(parts.reduce((sum, part) => sum + part.amountCents, 0)).toBe(whole.amountCents)
        }
      }),
    )
  })
})
