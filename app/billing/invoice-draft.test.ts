// Golden invoices (issue #21): a month's invoice for one customer, each case written out by hand — the plans, the
// chemicals, and the exact lines and totals a person would put on paper — so a change to the arithmetic shows up as
// a case that no longer matches, not as a test that follows the code. The calendar facts the cases lean on:
// November 2026 starts on a Sunday (Mondays 2, 9, 16, 23, 30; Wednesdays 4, 11, 18, 25; Thursdays 5, 12, 19, 26);
// February 2026 starts on a Sunday (Mondays 2, 9, 16, 23); February 2028 has 29 days and Tuesdays 1, 8, 15, 22, 29.
// After the cases, properties over random months, plans and chemicals (fast-check), checked against an independent
// count of visit dates by day arithmetic.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { IsoWeekday } from '~/schedule/local-date'
import type { FrequencyWeeks } from '~/schedule/recurrence'
import { epochDay, fromEpochDay, localDate, oracleWeekday } from '~/schedule/test-arbitraries'
import { CHEMICAL_UNITS } from '~/utils/chemicals'
import { RATE_TYPES } from '~/utils/customer-fields'
import {
  type BillingPeriod,
  type ChemicalUse,
  type DraftInput,
  type DraftLine,
  draftInvoice,
  type InvoiceDraft,
  monthlyCharge,
  monthOf,
  type PlanToBill,
  periodLabel,
} from './invoice-draft'
import { flatTax } from './tax'

const NOVEMBER_2026: BillingPeriod = { start: '2026-11-01', end: '2026-11-30' }
const FEBRUARY_2026: BillingPeriod = { start: '2026-02-01', end: '2026-02-28' }
const FEBRUARY_2028: BillingPeriod = { start: '2028-02-01', end: '2028-02-29' }

const PALM = { locationId: 'loc-palm', place: '12 Palm Ave' }
const BAY = { locationId: 'loc-bay', place: '40 Bay Rd' }

/** A plan; what a case does not say is a weekly Monday plan at 12 Palm Ave running since March 2025. */
function plan(fields: Partial<PlanToBill> & Pick<PlanToBill, 'rateType' | 'rateCents'>): PlanToBill {
  return {
    id: 'plan-1',
    ...PALM,
    frequencyWeeks: 1,
    weekday: 1,
    startsOn: '2025-03-03',
    endsOn: null,
    completedVisits: 0,
    ...fields,
  }
}

function input(fields: Partial<DraftInput> & Pick<DraftInput, 'period' | 'plans'>): DraftInput {
  return { chemicals: [], itemizeChemicals: true, tax: flatTax(0), creditCents: 0, ...fields }
}

/** An expected line, as it should read on the invoice. */
function line(
  kind: DraftLine['kind'],
  description: string,
  quantity: string,
  unitCents: number,
  amountCents: number,
  at: { locationId: string | null; planId: string | null },
): DraftLine {
  return { kind, description, quantity, unitCents, amountCents, ...at }
}
const onPlan = (planId: string, where = PALM) => ({ locationId: where.locationId, planId })
const atLocation = (where: { locationId: string }) => ({ locationId: where.locationId, planId: null })
const NOWHERE = { locationId: null, planId: null }

type GoldenCase = { name: string; input: DraftInput; expected: InvoiceDraft | null }

const GOLDEN: GoldenCase[] = [
  // Rate types, and weekly and every-2-weeks plans in 4- and 5-visit months.
  {
    name: 'per visit, weekly, November 2026 (5 Mondays): 5 completed × $45.00',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'per-visit', rateCents: 4500, completedVisits: 5 })],
    }),
    expected: {
      lines: [line('visits', 'Pool service, 12 Palm Ave — 5 visits', '5', 4500, 22500, onPlan('plan-1'))],
      subtotalCents: 22500,
      taxCents: 0,
      totalCents: 22500,
      creditAppliedCents: 0,
      amountDueCents: 22500,
    },
  },
  {
    name: 'per visit, weekly, February 2026 (4 Mondays): 4 completed × $45.00',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'per-visit', rateCents: 4500, completedVisits: 4 })],
    }),
    expected: {
      lines: [line('visits', 'Pool service, 12 Palm Ave — 4 visits', '4', 4500, 18000, onPlan('plan-1'))],
      subtotalCents: 18000,
      taxCents: 0,
      totalCents: 18000,
      creditAppliedCents: 0,
      amountDueCents: 18000,
    },
  },
  {
    name: 'monthly, weekly, November 2026 (5 Mondays): the rate, not five visits’ worth',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 16000, completedVisits: 5 })],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-1')),
      ],
      subtotalCents: 16000,
      taxCents: 0,
      totalCents: 16000,
      creditAppliedCents: 0,
      amountDueCents: 16000,
    },
  },
  {
    name: 'monthly, weekly, February 2026 (4 Mondays): the same rate',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 16000, completedVisits: 4 })],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — February 2026', '1', 16000, 16000, onPlan('plan-1')),
      ],
      subtotalCents: 16000,
      taxCents: 0,
      totalCents: 16000,
      creditAppliedCents: 0,
      amountDueCents: 16000,
    },
  },
  {
    // From Monday 5 October 2026 every 2 weeks: 19 Oct, then 2, 16 and 30 November.
    name: 'per visit, every 2 weeks, November 2026 (Nov 2, 16, 30): 3 × $60.00',
    input: input({
      period: NOVEMBER_2026,
      plans: [
        plan({ rateType: 'per-visit', rateCents: 6000, frequencyWeeks: 2, startsOn: '2026-10-05', completedVisits: 3 }),
      ],
    }),
    expected: {
      lines: [line('visits', 'Pool service, 12 Palm Ave — 3 visits', '3', 6000, 18000, onPlan('plan-1'))],
      subtotalCents: 18000,
      taxCents: 0,
      totalCents: 18000,
      creditAppliedCents: 0,
      amountDueCents: 18000,
    },
  },
  {
    // From Monday 12 January 2026 every 2 weeks: 26 Jan, then 9 and 23 February.
    name: 'per visit, every 2 weeks, February 2026 (Feb 9, 23): 2 × $60.00',
    input: input({
      period: FEBRUARY_2026,
      plans: [
        plan({ rateType: 'per-visit', rateCents: 6000, frequencyWeeks: 2, startsOn: '2026-01-12', completedVisits: 2 }),
      ],
    }),
    expected: {
      lines: [line('visits', 'Pool service, 12 Palm Ave — 2 visits', '2', 6000, 12000, onPlan('plan-1'))],
      subtotalCents: 12000,
      taxCents: 0,
      totalCents: 12000,
      creditAppliedCents: 0,
      amountDueCents: 12000,
    },
  },
  {
    name: 'monthly, every 2 weeks, November 2026 (3 visits): the rate',
    input: input({
      period: NOVEMBER_2026,
      plans: [
        plan({ rateType: 'monthly', rateCents: 11000, frequencyWeeks: 2, startsOn: '2026-10-05', completedVisits: 3 }),
      ],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 11000, 11000, onPlan('plan-1')),
      ],
      subtotalCents: 11000,
      taxCents: 0,
      totalCents: 11000,
      creditAppliedCents: 0,
      amountDueCents: 11000,
    },
  },
  {
    name: 'monthly, every 2 weeks, February 2026 (2 visits): the same rate',
    input: input({
      period: FEBRUARY_2026,
      plans: [
        plan({ rateType: 'monthly', rateCents: 11000, frequencyWeeks: 2, startsOn: '2026-01-12', completedVisits: 2 }),
      ],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — February 2026', '1', 11000, 11000, onPlan('plan-1')),
      ],
      subtotalCents: 11000,
      taxCents: 0,
      totalCents: 11000,
      creditAppliedCents: 0,
      amountDueCents: 11000,
    },
  },

  // Plans that start or end inside the month.
  {
    // Starts Tuesday 10 November: Mondays 16, 23, 30 of the month's 5. $160.00 × 3/5 = $96.00.
    name: 'monthly starting mid-month: 3 of 5 visits, prorated',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 16000, startsOn: '2026-11-10' })],
    }),
    expected: {
      lines: [
        line(
          'monthly',
          'Monthly pool service, 12 Palm Ave — November 2026 (3 of 5 visits)',
          '1',
          9600,
          9600,
          onPlan('plan-1'),
        ),
      ],
      subtotalCents: 9600,
      taxCents: 0,
      totalCents: 9600,
      creditAppliedCents: 0,
      amountDueCents: 9600,
    },
  },
  {
    // Starts Tuesday 3 November on Wednesdays: 4, 11, 18, 25 — every Wednesday of the month, so the whole rate.
    name: 'monthly starting after the 1st whose first visit still gives the full count: not prorated',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 16000, weekday: 3, startsOn: '2026-11-03' })],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-1')),
      ],
      subtotalCents: 16000,
      taxCents: 0,
      totalCents: 16000,
      creditAppliedCents: 0,
      amountDueCents: 16000,
    },
  },
  {
    // Ends Friday 20 November: Mondays 2, 9, 16 of 5. $175.00 × 3/5 = $105.00.
    name: 'monthly ending mid-month: 3 of 5 visits, prorated',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 17500, endsOn: '2026-11-20', completedVisits: 3 })],
    }),
    expected: {
      lines: [
        line(
          'monthly',
          'Monthly pool service, 12 Palm Ave — November 2026 (3 of 5 visits)',
          '1',
          10500,
          10500,
          onPlan('plan-1'),
        ),
      ],
      subtotalCents: 10500,
      taxCents: 0,
      totalCents: 10500,
      creditAppliedCents: 0,
      amountDueCents: 10500,
    },
  },
  {
    // Wednesdays from Tuesday 10 to Friday 20 November: 11 and 18 of 4, 18 and 25 missed. $150.00 × 2/4 = $75.00.
    name: 'monthly starting and ending inside the month: 2 of 4 visits',
    input: input({
      period: NOVEMBER_2026,
      plans: [
        plan({ rateType: 'monthly', rateCents: 15000, weekday: 3, startsOn: '2026-11-10', endsOn: '2026-11-20' }),
      ],
    }),
    expected: {
      lines: [
        line(
          'monthly',
          'Monthly pool service, 12 Palm Ave — November 2026 (2 of 4 visits)',
          '1',
          7500,
          7500,
          onPlan('plan-1'),
        ),
      ],
      subtotalCents: 7500,
      taxCents: 0,
      totalCents: 7500,
      creditAppliedCents: 0,
      amountDueCents: 7500,
    },
  },
  {
    // Every 2 weeks from Tuesday 10 November: Mondays 16 and 30. Its rhythm carried back gives 2, 16, 30: 2 of 3.
    // $100.00 × 2/3 = $66.666… → $66.67.
    name: 'monthly every 2 weeks starting mid-month: 2 of the rhythm’s 3 visits, rounded to the cent',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 10000, frequencyWeeks: 2, startsOn: '2026-11-10' })],
    }),
    expected: {
      lines: [
        line(
          'monthly',
          'Monthly pool service, 12 Palm Ave — November 2026 (2 of 3 visits)',
          '1',
          6667,
          6667,
          onPlan('plan-1'),
        ),
      ],
      subtotalCents: 6667,
      taxCents: 0,
      totalCents: 6667,
      creditAppliedCents: 0,
      amountDueCents: 6667,
    },
  },
  {
    // Starts Tuesday 10 February: Mondays 16 and 23 of 4. $123.45 × 2/4 = $61.725 → $61.73 (half up).
    name: 'monthly prorated at exactly half a cent rounds up',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 12345, startsOn: '2026-02-10' })],
    }),
    expected: {
      lines: [
        line(
          'monthly',
          'Monthly pool service, 12 Palm Ave — February 2026 (2 of 4 visits)',
          '1',
          6173,
          6173,
          onPlan('plan-1'),
        ),
      ],
      subtotalCents: 6173,
      taxCents: 0,
      totalCents: 6173,
      creditAppliedCents: 0,
      amountDueCents: 6173,
    },
  },

  // Skipped visits.
  {
    name: 'per visit with one of 5 visits skipped: only the 4 completed are billed',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'per-visit', rateCents: 4500, completedVisits: 4 })],
    }),
    expected: {
      lines: [line('visits', 'Pool service, 12 Palm Ave — 4 visits', '4', 4500, 18000, onPlan('plan-1'))],
      subtotalCents: 18000,
      taxCents: 0,
      totalCents: 18000,
      creditAppliedCents: 0,
      amountDueCents: 18000,
    },
  },
  {
    // Every 2 weeks, 3 visits in November, 2 skipped: "1 visit", singular.
    name: 'per visit with 2 of 3 visits skipped: 1 visit',
    input: input({
      period: NOVEMBER_2026,
      plans: [
        plan({ rateType: 'per-visit', rateCents: 6000, frequencyWeeks: 2, startsOn: '2026-10-05', completedVisits: 1 }),
      ],
    }),
    expected: {
      lines: [line('visits', 'Pool service, 12 Palm Ave — 1 visit', '1', 6000, 6000, onPlan('plan-1'))],
      subtotalCents: 6000,
      taxCents: 0,
      totalCents: 6000,
      creditAppliedCents: 0,
      amountDueCents: 6000,
    },
  },
  {
    name: 'monthly with every visit skipped (pool closed): the rate all the same',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 16000, completedVisits: 0 })],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-1')),
      ],
      subtotalCents: 16000,
      taxCents: 0,
      totalCents: 16000,
      creditAppliedCents: 0,
      amountDueCents: 16000,
    },
  },

  // Chemicals.
  {
    // 2.5 gal × $3.99 = $9.975 → $9.98; 0.75 gal × $12.50 = $9.375 → $9.38; 3 lb × $8.49 = $25.47.
    name: 'monthly plus chemicals, itemized: one line per product, each rounded half up',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly-plus-chemicals', rateCents: 16000, completedVisits: 5 })],
      chemicals: [
        { planId: 'plan-1', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 250, unitPriceCents: 399 },
        { planId: 'plan-1', product: 'Muriatic acid', unit: 'gal', quantityHundredths: 75, unitPriceCents: 1250 },
        { planId: 'plan-1', product: 'Chlorine tablets', unit: 'lb', quantityHundredths: 300, unitPriceCents: 849 },
      ],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-1')),
        line('chemicals', 'Liquid chlorine (gal), 12 Palm Ave', '2.5', 399, 998, onPlan('plan-1')),
        line('chemicals', 'Muriatic acid (gal), 12 Palm Ave', '0.75', 1250, 938, onPlan('plan-1')),
        line('chemicals', 'Chlorine tablets (lb), 12 Palm Ave', '3', 849, 2547, onPlan('plan-1')),
      ],
      subtotalCents: 20483,
      taxCents: 0,
      totalCents: 20483,
      creditAppliedCents: 0,
      amountDueCents: 20483,
    },
  },
  {
    // The same chemicals as one line: $9.98 + $9.38 + $25.47 = $44.83 — the same total as itemized.
    name: 'monthly plus chemicals, not itemized: one "Chemicals" line, the same total',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly-plus-chemicals', rateCents: 16000, completedVisits: 5 })],
      chemicals: [
        { planId: 'plan-1', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 250, unitPriceCents: 399 },
        { planId: 'plan-1', product: 'Muriatic acid', unit: 'gal', quantityHundredths: 75, unitPriceCents: 1250 },
        { planId: 'plan-1', product: 'Chlorine tablets', unit: 'lb', quantityHundredths: 300, unitPriceCents: 849 },
      ],
      itemizeChemicals: false,
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-1')),
        line('chemicals', 'Chemicals, 12 Palm Ave', '1', 4483, 4483, atLocation(PALM)),
      ],
      subtotalCents: 20483,
      taxCents: 0,
      totalCents: 20483,
      creditAppliedCents: 0,
      amountDueCents: 20483,
    },
  },
  {
    // 4 × $50.00 = $200.00; 10 gal × $3.99 = $39.90; 1.25 lb × $6.50 = $8.125 → $8.13; 0.05 lb × $10.99 = $0.5495
    // → $0.55.
    name: 'per visit plus chemicals: the visits and the chemicals of those visits',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'per-visit-plus-chemicals', rateCents: 5000, completedVisits: 4 })],
      chemicals: [
        { planId: 'plan-1', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 1000, unitPriceCents: 399 },
        { planId: 'plan-1', product: 'Shock', unit: 'lb', quantityHundredths: 125, unitPriceCents: 650 },
        { planId: 'plan-1', product: 'Cyanuric acid', unit: 'lb', quantityHundredths: 5, unitPriceCents: 1099 },
      ],
    }),
    expected: {
      lines: [
        line('visits', 'Pool service, 12 Palm Ave — 4 visits', '4', 5000, 20000, onPlan('plan-1')),
        line('chemicals', 'Liquid chlorine (gal), 12 Palm Ave', '10', 399, 3990, onPlan('plan-1')),
        line('chemicals', 'Shock (lb), 12 Palm Ave', '1.25', 650, 813, onPlan('plan-1')),
        line('chemicals', 'Cyanuric acid (lb), 12 Palm Ave', '0.05', 1099, 55, onPlan('plan-1')),
      ],
      subtotalCents: 24858,
      taxCents: 0,
      totalCents: 24858,
      creditAppliedCents: 0,
      amountDueCents: 24858,
    },
  },
  {
    // 1.5 gal × $3.33 = $4.995 → $5.00; 0.01 lb × $0.50 = $0.005 → $0.01; 12.1 fl oz × $0.25 = $3.025 → $3.03;
    // 3.25 fl oz × $0.18 = $0.585 → $0.59; 1 cartridge × $49.99. Visits 2 × $50.00. Total $158.62.
    name: 'chemical quantities with decimals, each exactly half a cent, round up',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'per-visit-plus-chemicals', rateCents: 5000, completedVisits: 2 })],
      chemicals: [
        { planId: 'plan-1', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 150, unitPriceCents: 333 },
        { planId: 'plan-1', product: 'Sodium bicarbonate', unit: 'lb', quantityHundredths: 1, unitPriceCents: 50 },
        { planId: 'plan-1', product: 'Algaecide', unit: 'fl oz', quantityHundredths: 1210, unitPriceCents: 25 },
        { planId: 'plan-1', product: 'Clarifier', unit: 'fl oz', quantityHundredths: 325, unitPriceCents: 18 },
        { planId: 'plan-1', product: 'Filter cartridge', unit: 'each', quantityHundredths: 100, unitPriceCents: 4999 },
      ],
    }),
    expected: {
      lines: [
        line('visits', 'Pool service, 12 Palm Ave — 2 visits', '2', 5000, 10000, onPlan('plan-1')),
        line('chemicals', 'Liquid chlorine (gal), 12 Palm Ave', '1.5', 333, 500, onPlan('plan-1')),
        line('chemicals', 'Sodium bicarbonate (lb), 12 Palm Ave', '0.01', 50, 1, onPlan('plan-1')),
        line('chemicals', 'Algaecide (fl oz), 12 Palm Ave', '12.1', 25, 303, onPlan('plan-1')),
        line('chemicals', 'Clarifier (fl oz), 12 Palm Ave', '3.25', 18, 59, onPlan('plan-1')),
        line('chemicals', 'Filter cartridge (each), 12 Palm Ave', '1', 4999, 4999, onPlan('plan-1')),
      ],
      subtotalCents: 15862,
      taxCents: 0,
      totalCents: 15862,
      creditAppliedCents: 0,
      amountDueCents: 15862,
    },
  },
  {
    // The rate includes chemicals for plain monthly and per-visit plans: what was added is not billed.
    name: 'chemicals on a monthly or per-visit plan are not billed',
    input: input({
      period: NOVEMBER_2026,
      plans: [
        plan({ id: 'plan-palm', rateType: 'monthly', rateCents: 16000 }),
        plan({ id: 'plan-bay', ...BAY, rateType: 'per-visit', rateCents: 4500, completedVisits: 2 }),
      ],
      chemicals: [
        { planId: 'plan-palm', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 300, unitPriceCents: 399 },
        { planId: 'plan-bay', product: 'Muriatic acid', unit: 'gal', quantityHundredths: 50, unitPriceCents: 1250 },
      ],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-palm')),
        line('visits', 'Pool service, 40 Bay Rd — 2 visits', '2', 4500, 9000, onPlan('plan-bay', BAY)),
      ],
      subtotalCents: 25000,
      taxCents: 0,
      totalCents: 25000,
      creditAppliedCents: 0,
      amountDueCents: 25000,
    },
  },

  // Tax.
  {
    // 7.25 % of $225.00 = $16.3125 → $16.31.
    name: 'tax 7.25 %: one more line on the subtotal',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'per-visit', rateCents: 4500, completedVisits: 5 })],
      tax: flatTax(7250),
    }),
    expected: {
      lines: [
        line('visits', 'Pool service, 12 Palm Ave — 5 visits', '5', 4500, 22500, onPlan('plan-1')),
        { ...line('tax', 'Sales tax 7.25 %', '1', 1631, 1631, NOWHERE), taxMilliPercent: 7250 },
      ],
      subtotalCents: 22500,
      taxCents: 1631,
      totalCents: 24131,
      creditAppliedCents: 0,
      amountDueCents: 24131,
    },
  },
  {
    // 7.25 % of $102.00 = $7.395 → $7.40.
    name: 'tax 7.25 % at exactly half a cent rounds up',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'per-visit', rateCents: 5100, completedVisits: 2 })],
      tax: flatTax(7250),
    }),
    expected: {
      lines: [
        line('visits', 'Pool service, 12 Palm Ave — 2 visits', '2', 5100, 10200, onPlan('plan-1')),
        { ...line('tax', 'Sales tax 7.25 %', '1', 740, 740, NOWHERE), taxMilliPercent: 7250 },
      ],
      subtotalCents: 10200,
      taxCents: 740,
      totalCents: 10940,
      creditAppliedCents: 0,
      amountDueCents: 10940,
    },
  },
  {
    // New York City's 8.875 % is half a basis point (887.5). 8.875 % of $164.00 = $14.555 → $14.56.
    name: 'tax 8.875 % at exactly half a cent rounds up',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 16400 })],
      tax: flatTax(8875),
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16400, 16400, onPlan('plan-1')),
        { ...line('tax', 'Sales tax 8.875 %', '1', 1456, 1456, NOWHERE), taxMilliPercent: 8875 },
      ],
      subtotalCents: 16400,
      taxCents: 1456,
      totalCents: 17856,
      creditAppliedCents: 0,
      amountDueCents: 17856,
    },
  },
  {
    // Tax is on the subtotal of lines already rounded: 8.875 % of $204.83 = $18.1786625 → $18.18.
    name: 'tax 8.875 % on service and chemicals not itemized',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly-plus-chemicals', rateCents: 16000, completedVisits: 5 })],
      chemicals: [
        { planId: 'plan-1', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 250, unitPriceCents: 399 },
        { planId: 'plan-1', product: 'Muriatic acid', unit: 'gal', quantityHundredths: 75, unitPriceCents: 1250 },
        { planId: 'plan-1', product: 'Chlorine tablets', unit: 'lb', quantityHundredths: 300, unitPriceCents: 849 },
      ],
      itemizeChemicals: false,
      tax: flatTax(8875),
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-1')),
        line('chemicals', 'Chemicals, 12 Palm Ave', '1', 4483, 4483, atLocation(PALM)),
        { ...line('tax', 'Sales tax 8.875 %', '1', 1818, 1818, NOWHERE), taxMilliPercent: 8875 },
      ],
      subtotalCents: 20483,
      taxCents: 1818,
      totalCents: 22301,
      creditAppliedCents: 0,
      amountDueCents: 22301,
    },
  },

  // Credit carried over from an earlier overpayment: applied to the total, never a line.
  {
    name: 'credit smaller than the total: $50.00 of $160.00 applied, $110.00 due',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 16000 })],
      creditCents: 5000,
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-1')),
      ],
      subtotalCents: 16000,
      taxCents: 0,
      totalCents: 16000,
      creditAppliedCents: 5000,
      amountDueCents: 11000,
    },
  },
  {
    // $160.00 + 7.25 % ($11.60) = $171.60, all of it from the $250.00 credit; $78.40 stays for later.
    name: 'credit larger than the total (with tax): the whole total applied, nothing due',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 16000 })],
      tax: flatTax(7250),
      creditCents: 25000,
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-1')),
        { ...line('tax', 'Sales tax 7.25 %', '1', 1160, 1160, NOWHERE), taxMilliPercent: 7250 },
      ],
      subtotalCents: 16000,
      taxCents: 1160,
      totalCents: 17160,
      creditAppliedCents: 17160,
      amountDueCents: 0,
    },
  },

  // Several plans and locations for one customer: a pool (monthly plus chemicals) and a spa (per visit plus
  // chemicals, Thursdays) at 12 Palm Ave, and a pool every 2 weeks at 40 Bay Rd. Chemicals: 3 gal × $3.99 = $11.97
  // (palm pool), 4.5 gal × $3.99 = $17.955 → $17.96 (bay), 0.5 lb × $12.99 = $6.495 → $6.50 (palm spa),
  // 0.5 gal × $12.50 = $6.25 (bay). Subtotal $160.00 + $165.00 + $100.00 + $18.47 + $24.21 = $467.68; 7.25 % tax
  // $33.9068 → $33.91; total $501.59.
  {
    name: 'several plans and locations, chemicals itemized, tax on all of it',
    input: input({
      period: NOVEMBER_2026,
      plans: [
        plan({ id: 'plan-palm', rateType: 'monthly-plus-chemicals', rateCents: 16000, completedVisits: 5 }),
        plan({
          id: 'plan-bay',
          ...BAY,
          rateType: 'per-visit-plus-chemicals',
          rateCents: 5500,
          frequencyWeeks: 2,
          startsOn: '2026-10-05',
          completedVisits: 3,
        }),
        plan({ id: 'plan-spa', rateType: 'per-visit-plus-chemicals', rateCents: 2500, weekday: 4, completedVisits: 4 }),
      ],
      chemicals: [
        { planId: 'plan-palm', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 300, unitPriceCents: 399 },
        { planId: 'plan-bay', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 450, unitPriceCents: 399 },
        { planId: 'plan-spa', product: 'Bromine tablets', unit: 'lb', quantityHundredths: 50, unitPriceCents: 1299 },
        { planId: 'plan-bay', product: 'Muriatic acid', unit: 'gal', quantityHundredths: 50, unitPriceCents: 1250 },
      ],
      tax: flatTax(7250),
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-palm')),
        line('visits', 'Pool service, 40 Bay Rd — 3 visits', '3', 5500, 16500, onPlan('plan-bay', BAY)),
        line('visits', 'Pool service, 12 Palm Ave — 4 visits', '4', 2500, 10000, onPlan('plan-spa')),
        line('chemicals', 'Liquid chlorine (gal), 12 Palm Ave', '3', 399, 1197, onPlan('plan-palm')),
        line('chemicals', 'Liquid chlorine (gal), 40 Bay Rd', '4.5', 399, 1796, onPlan('plan-bay', BAY)),
        line('chemicals', 'Bromine tablets (lb), 12 Palm Ave', '0.5', 1299, 650, onPlan('plan-spa')),
        line('chemicals', 'Muriatic acid (gal), 40 Bay Rd', '0.5', 1250, 625, onPlan('plan-bay', BAY)),
        { ...line('tax', 'Sales tax 7.25 %', '1', 3391, 3391, NOWHERE), taxMilliPercent: 7250 },
      ],
      subtotalCents: 46768,
      taxCents: 3391,
      totalCents: 50159,
      creditAppliedCents: 0,
      amountDueCents: 50159,
    },
  },
  {
    // Not itemized: one line per location, both palm plans' chemicals together ($11.97 + $6.50 = $18.47), the bay's
    // ($17.96 + $6.25 = $24.21): the same subtotal, tax and total.
    name: 'several plans and locations, chemicals not itemized: one line per location',
    input: input({
      period: NOVEMBER_2026,
      plans: [
        plan({ id: 'plan-palm', rateType: 'monthly-plus-chemicals', rateCents: 16000, completedVisits: 5 }),
        plan({
          id: 'plan-bay',
          ...BAY,
          rateType: 'per-visit-plus-chemicals',
          rateCents: 5500,
          frequencyWeeks: 2,
          startsOn: '2026-10-05',
          completedVisits: 3,
        }),
        plan({ id: 'plan-spa', rateType: 'per-visit-plus-chemicals', rateCents: 2500, weekday: 4, completedVisits: 4 }),
      ],
      chemicals: [
        { planId: 'plan-palm', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 300, unitPriceCents: 399 },
        { planId: 'plan-bay', product: 'Liquid chlorine', unit: 'gal', quantityHundredths: 450, unitPriceCents: 399 },
        { planId: 'plan-spa', product: 'Bromine tablets', unit: 'lb', quantityHundredths: 50, unitPriceCents: 1299 },
        { planId: 'plan-bay', product: 'Muriatic acid', unit: 'gal', quantityHundredths: 50, unitPriceCents: 1250 },
      ],
      itemizeChemicals: false,
      tax: flatTax(7250),
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — November 2026', '1', 16000, 16000, onPlan('plan-palm')),
        line('visits', 'Pool service, 40 Bay Rd — 3 visits', '3', 5500, 16500, onPlan('plan-bay', BAY)),
        line('visits', 'Pool service, 12 Palm Ave — 4 visits', '4', 2500, 10000, onPlan('plan-spa')),
        line('chemicals', 'Chemicals, 12 Palm Ave', '1', 1847, 1847, atLocation(PALM)),
        line('chemicals', 'Chemicals, 40 Bay Rd', '1', 2421, 2421, atLocation(BAY)),
        { ...line('tax', 'Sales tax 7.25 %', '1', 3391, 3391, NOWHERE), taxMilliPercent: 7250 },
      ],
      subtotalCents: 46768,
      taxCents: 3391,
      totalCents: 50159,
      creditAppliedCents: 0,
      amountDueCents: 50159,
    },
  },

  // Nothing to bill.
  {
    name: 'nothing to bill: a per-visit plan whose visits were all skipped',
    input: input({
      period: NOVEMBER_2026,
      plans: [plan({ rateType: 'per-visit-plus-chemicals', rateCents: 4500, completedVisits: 0 })],
    }),
    expected: null,
  },
  {
    name: 'nothing to bill: monthly plans that ended before the month or start after it',
    input: input({
      period: NOVEMBER_2026,
      plans: [
        plan({ id: 'plan-ended', rateType: 'monthly', rateCents: 16000, endsOn: '2026-10-31' }),
        plan({ id: 'plan-later', rateType: 'monthly-plus-chemicals', rateCents: 16000, startsOn: '2026-12-01' }),
      ],
    }),
    expected: null,
  },
  {
    name: 'nothing to bill: no plans',
    input: input({ period: NOVEMBER_2026, plans: [], creditCents: 5000, tax: flatTax(7250) }),
    expected: null,
  },

  // Every 3 and every 4 weeks in February.
  {
    // From Monday 12 January every 3 weeks: 2 and 23 February.
    name: 'monthly every 3 weeks, February 2026 with 2 visits: the rate',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 12000, frequencyWeeks: 3, startsOn: '2026-01-12' })],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — February 2026', '1', 12000, 12000, onPlan('plan-1')),
      ],
      subtotalCents: 12000,
      taxCents: 0,
      totalCents: 12000,
      creditAppliedCents: 0,
      amountDueCents: 12000,
    },
  },
  {
    // From Monday 19 January every 3 weeks: 9 February only.
    name: 'monthly every 3 weeks, February 2026 with 1 visit: the rate all the same',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 12000, frequencyWeeks: 3, startsOn: '2026-01-19' })],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — February 2026', '1', 12000, 12000, onPlan('plan-1')),
      ],
      subtotalCents: 12000,
      taxCents: 0,
      totalCents: 12000,
      creditAppliedCents: 0,
      amountDueCents: 12000,
    },
  },
  {
    // Starts Friday 20 February: Monday 23 February. Its rhythm carried back: 2 and 23 February. $120.00 × 1/2.
    name: 'monthly every 3 weeks starting late in February: 1 of 2 visits',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 12000, frequencyWeeks: 3, startsOn: '2026-02-20' })],
    }),
    expected: {
      lines: [
        line(
          'monthly',
          'Monthly pool service, 12 Palm Ave — February 2026 (1 of 2 visits)',
          '1',
          6000,
          6000,
          onPlan('plan-1'),
        ),
      ],
      subtotalCents: 6000,
      taxCents: 0,
      totalCents: 6000,
      creditAppliedCents: 0,
      amountDueCents: 6000,
    },
  },
  {
    // Starts Tuesday 10 February: Monday 16 February, then 9 March. Carried back: 26 January, 16 February — the
    // rhythm has only one February visit, and the plan has it: not prorated.
    name: 'monthly every 3 weeks starting on the 10th with the rhythm’s only February visit: not prorated',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 12000, frequencyWeeks: 3, startsOn: '2026-02-10' })],
    }),
    expected: {
      lines: [
        line('monthly', 'Monthly pool service, 12 Palm Ave — February 2026', '1', 12000, 12000, onPlan('plan-1')),
      ],
      subtotalCents: 12000,
      taxCents: 0,
      totalCents: 12000,
      creditAppliedCents: 0,
      amountDueCents: 12000,
    },
  },
  {
    // From Monday 26 January every 4 weeks: 23 February only.
    name: 'monthly every 4 weeks, February 2026 (1 visit): the rate',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 9000, frequencyWeeks: 4, startsOn: '2026-01-26' })],
    }),
    expected: {
      lines: [line('monthly', 'Monthly pool service, 12 Palm Ave — February 2026', '1', 9000, 9000, onPlan('plan-1'))],
      subtotalCents: 9000,
      taxCents: 0,
      totalCents: 9000,
      creditAppliedCents: 0,
      amountDueCents: 9000,
    },
  },
  {
    // Starts Tuesday 24 February, first visit Monday 2 March: 0 of February's 1 visit — nothing for February.
    name: 'monthly every 4 weeks starting after February’s last Monday: nothing to bill',
    input: input({
      period: FEBRUARY_2026,
      plans: [plan({ rateType: 'monthly', rateCents: 9000, frequencyWeeks: 4, startsOn: '2026-02-24' })],
    }),
    expected: null,
  },
  {
    // Tuesdays every 4 weeks from Wednesday 23 February 2028: first visit 29 February. The rhythm carried back visits
    // 1 and 29 February (a leap month): 1 of 2. $90.00 × 1/2 = $45.00.
    name: 'monthly every 4 weeks in leap February 2028: 1 of the rhythm’s 2 visits',
    input: input({
      period: FEBRUARY_2028,
      plans: [plan({ rateType: 'monthly', rateCents: 9000, frequencyWeeks: 4, weekday: 2, startsOn: '2028-02-23' })],
    }),
    expected: {
      lines: [
        line(
          'monthly',
          'Monthly pool service, 12 Palm Ave — February 2028 (1 of 2 visits)',
          '1',
          4500,
          4500,
          onPlan('plan-1'),
        ),
      ],
      subtotalCents: 4500,
      taxCents: 0,
      totalCents: 4500,
      creditAppliedCents: 0,
      amountDueCents: 4500,
    },
  },
]

describe('golden invoices', () => {
  it('has at least 24 cases, each named once', () => {
    expect(GOLDEN.length).toBeGreaterThanOrEqual(24)
    expect(new Set(GOLDEN.map((c) => c.name)).size).toBe(GOLDEN.length)
  })

  it('adds up as written (a check on the hand arithmetic, not on the code)', () => {
    for (const { name, expected } of GOLDEN) {
      if (!expected) continue
      const sum = (lines: DraftLine[]) => lines.reduce((total, l) => total + l.amountCents, 0)
      const [service, tax] = [
        expected.lines.filter((l) => l.kind !== 'tax'),
        expected.lines.filter((l) => l.kind === 'tax'),
      ]
      expect(sum(service), name).toBe(expected.subtotalCents)
      expect(sum(tax), name).toBe(expected.taxCents)
      expect(sum(expected.lines), name).toBe(expected.totalCents)
      expect(expected.totalCents - expected.creditAppliedCents, name).toBe(expected.amountDueCents)
    }
  })

  it.each(GOLDEN)('$name', ({ input, expected }) => {
    expect(draftInvoice(input)).toEqual(expected)
  })
})

describe('months', () => {
  it('run from the 1st to the last day, leap Februaries included, and read as "November 2026"', () => {
    expect(monthOf('2026-11-17')).toEqual(NOVEMBER_2026)
    expect(monthOf('2026-02-01')).toEqual(FEBRUARY_2026)
    expect(monthOf('2028-02-29')).toEqual(FEBRUARY_2028)
    expect(monthOf('2026-12-31')).toEqual({ start: '2026-12-01', end: '2026-12-31' })
    expect(periodLabel(NOVEMBER_2026)).toBe('November 2026')
    expect(periodLabel(FEBRUARY_2028)).toBe('February 2028')
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Properties. The oracle counts a plan's visits in a month by walking its days with epoch-day arithmetic (nothing
// shared with app/schedule/recurrence.ts): every day on the plan's weekday and rhythm is one of the month's full
// count; those within the plan's dates are the scheduled ones.

function oracleVisits(p: PlanToBill, period: BillingPeriod) {
  const start = epochDay(p.startsOn)
  const anchor = start + ((p.weekday - oracleWeekday(p.startsOn) + 7) % 7)
  const step = 7 * p.frequencyWeeks
  let full = 0
  let scheduled = 0
  for (let day = epochDay(period.start); day <= epochDay(period.end); day++) {
    if ((((day - anchor) % step) + step) % step !== 0) continue
    full += 1
    if (day >= anchor && (p.endsOn === null || fromEpochDay(day) <= p.endsOn)) scheduled += 1
  }
  return { full, scheduled }
}

/** rate × scheduled / full, rounded half up, by quotient and remainder. */
function oracleProrated(rateCents: number, scheduled: number, full: number) {
  const numerator = rateCents * scheduled
  const quotient = Math.floor(numerator / full)
  return 2 * (numerator - quotient * full) >= full ? quotient + 1 : quotient
}

const PLACES = [PALM, BAY, { locationId: 'loc-gulf', place: '7 Gulf Blvd' }] as const

/** A month, and up to four plans that start up to a year before it or inside it and may end anywhere after. */
const draftInput: fc.Arbitrary<DraftInput> = localDate.map(monthOf).chain((period) =>
  fc
    .record({
      plans: fc.array(
        fc.record({
          frequencyWeeks: fc.constantFrom<FrequencyWeeks>(1, 2, 3, 4),
          weekday: fc.integer({ min: 1, max: 7 }).map((d) => d as IsoWeekday),
          startOffset: fc.oneof(fc.integer({ min: -370, max: 0 }), fc.integer({ min: 0, max: 31 })),
          runsFor: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
          rateType: fc.constantFrom(...RATE_TYPES),
          rateCents: fc.integer({ min: 0, max: 100_000 }),
          completedVisits: fc.integer({ min: 0, max: 6 }),
          where: fc.constantFrom(...PLACES),
        }),
        { maxLength: 4 },
      ),
      chemicals: fc.array(
        fc.record({
          plan: fc.nat(),
          product: fc.constantFrom('Liquid chlorine', 'Muriatic acid', 'Shock', 'Salt'),
          unit: fc.constantFrom(...CHEMICAL_UNITS),
          quantityHundredths: fc.integer({ min: 0, max: 5000 }),
          unitPriceCents: fc.integer({ min: 0, max: 10_000 }),
        }),
        { maxLength: 12 },
      ),
      itemizeChemicals: fc.boolean(),
      // Thousandths of a percent (8.875 % is 8875), up to 30 %.
      taxRate: fc.integer({ min: 0, max: 30_000 }),
      creditCents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300_000 })),
    })
    .map(({ plans, chemicals, taxRate, ...rest }): DraftInput => {
      const toBill = plans.map(({ startOffset, runsFor, where, ...p }, i): PlanToBill => {
        const startsOn = fromEpochDay(epochDay(period.start) + startOffset)
        return {
          ...p,
          ...where,
          id: `plan-${i}`,
          startsOn,
          endsOn: runsFor === null ? null : fromEpochDay(epochDay(startsOn) + runsFor),
        }
      })
      const uses: ChemicalUse[] = toBill.length
        ? chemicals.map(({ plan: n, ...use }) => ({ ...use, planId: `plan-${n % toBill.length}` }))
        : []
      return { ...rest, tax: flatTax(taxRate), period, plans: toBill, chemicals: uses }
    }),
)

const sumOf = (lines: DraftLine[]) => lines.reduce((total, l) => total + l.amountCents, 0)
const isMonthly = (p: PlanToBill) => p.rateType === 'monthly' || p.rateType === 'monthly-plus-chemicals'
const includesChemicals = (p: PlanToBill) => p.rateType.endsWith('-plus-chemicals')

describe('invoice properties', () => {
  it('the total is the sum of the lines; the subtotal of all but tax; every amount whole cents and never negative', () => {
    fc.assert(
      fc.property(draftInput, (input) => {
        const draft = draftInvoice(input)
        if (!draft) return
        expect(draft.totalCents).toBe(sumOf(draft.lines))
        expect(draft.subtotalCents).toBe(sumOf(draft.lines.filter((l) => l.kind !== 'tax')))
        expect(draft.taxCents).toBe(sumOf(draft.lines.filter((l) => l.kind === 'tax')))
        expect(draft.subtotalCents).toBeGreaterThanOrEqual(0)
        for (const l of [draft.subtotalCents, draft.taxCents, draft.totalCents, draft.creditAppliedCents]) {
          expect(Number.isSafeInteger(l)).toBe(true)
        }
        for (const l of draft.lines) {
          expect(Number.isSafeInteger(l.amountCents), l.description).toBe(true)
          expect(Number.isSafeInteger(l.unitCents), l.description).toBe(true)
          expect(l.amountCents).toBeGreaterThanOrEqual(0)
          // As the numeric(10, 2) column keeps it, with no trailing zeros.
          expect(l.quantity).toMatch(/^(0|[1-9]\d*)(\.\d?[1-9])?$/)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('bills per-visit plans for completed visits only and monthly ones by the oracle’s count of scheduled visits', () => {
    fc.assert(
      fc.property(draftInput, (input) => {
        const draft = draftInvoice(input)
        for (const p of input.plans) {
          const planLines = (draft?.lines ?? []).filter((l) => l.planId === p.id && l.kind !== 'chemicals')
          if (isMonthly(p)) {
            const { full, scheduled } = oracleVisits(p, input.period)
            const expected = scheduled === 0 ? [] : [oracleProrated(p.rateCents, scheduled, full)]
            expect(
              planLines.map((l) => l.amountCents),
              `${p.startsOn}…${p.endsOn}`,
            ).toEqual(expected)
          } else {
            expect(planLines.map((l) => l.amountCents)).toEqual(
              p.completedVisits === 0 ? [] : [p.rateCents * p.completedVisits],
            )
          }
        }
      }),
      { numRuns: 200 },
    )
  })

  it('a prorated monthly amount is at most the rate, and the rate for a plan active all month', () => {
    fc.assert(
      fc.property(draftInput, ({ period, plans }) => {
        for (const p of plans) {
          const charge = monthlyCharge(p, period)
          expect(charge.amountCents).toBeLessThanOrEqual(p.rateCents)
          expect(charge.amountCents).toBeGreaterThanOrEqual(0)
          if (p.startsOn <= period.start && (p.endsOn === null || p.endsOn >= period.end)) {
            expect(charge).toEqual({ amountCents: p.rateCents, scheduled: null, ofFull: null })
          }
        }
      }),
      { numRuns: 200 },
    )
  })

  it('itemized and not itemized chemicals give the same subtotal, tax and total', () => {
    fc.assert(
      fc.property(draftInput, (input) => {
        const itemized = draftInvoice({ ...input, itemizeChemicals: true })
        const together = draftInvoice({ ...input, itemizeChemicals: false })
        expect(together?.totalCents).toBe(itemized?.totalCents)
        expect(together?.subtotalCents).toBe(itemized?.subtotalCents)
        expect(together?.taxCents).toBe(itemized?.taxCents)
        // One chemicals line per location when not itemized; only plans whose rate includes chemicals bill them.
        const chemicalLines = (together?.lines ?? []).filter((l) => l.kind === 'chemicals')
        expect(new Set(chemicalLines.map((l) => l.locationId)).size).toBe(chemicalLines.length)
        const billed = input.chemicals.filter(
          (use) => use.quantityHundredths > 0 && input.plans.some((p) => p.id === use.planId && includesChemicals(p)),
        )
        expect((itemized?.lines ?? []).filter((l) => l.kind === 'chemicals')).toHaveLength(billed.length)
      }),
      { numRuns: 200 },
    )
  })

  it('applies credit up to the total and no more', () => {
    fc.assert(
      fc.property(draftInput, (input) => {
        const draft = draftInvoice(input)
        if (!draft) return
        expect(draft.creditAppliedCents).toBeLessThanOrEqual(Math.min(input.creditCents, draft.totalCents))
        expect(draft.creditAppliedCents).toBe(Math.min(input.creditCents, draft.totalCents))
        expect(draft.amountDueCents).toBe(draft.totalCents - draft.creditAppliedCents)
        expect(draft.amountDueCents).toBeGreaterThanOrEqual(0)
      }),
      { numRuns: 200 },
    )
  })

  it('tax is within half a cent of the exact amount, and a half cent goes up', () => {
    fc.assert(
      fc.property(draftInput, (input) => {
        const draft = draftInvoice(input)
        if (!draft) return
        // In units of 1/100,000 of a cent, everything is a whole number.
        const exact = draft.subtotalCents * (input.tax.defaultRate?.milliPercent ?? 0)
        const off = draft.taxCents * 100_000 - exact
        expect(Math.abs(off)).toBeLessThanOrEqual(50_000)
        if (Math.abs(off) === 50_000) expect(off).toBeGreaterThan(0)
        // Each chemical line, too, is within half a cent of quantity × price.
        for (const use of input.chemicals) {
          const exactChem = use.quantityHundredths * use.unitPriceCents
          const l = (draftInvoice({ ...input, chemicals: [use], itemizeChemicals: true })?.lines ?? []).find(
            (x) => x.kind === 'chemicals',
          )
          if (!l) continue
          const chemOff = l.amountCents * 100 - exactChem
          expect(Math.abs(chemOff)).toBeLessThanOrEqual(50)
          if (Math.abs(chemOff) === 50) expect(chemOff).toBeGreaterThan(0)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('is null exactly when there is nothing to bill', () => {
    fc.assert(
      fc.property(draftInput, (input) => {
        const billable =
          input.plans.some((p) =>
            isMonthly(p) ? oracleVisits(p, input.period).scheduled > 0 : p.completedVisits > 0,
          ) ||
          input.chemicals.some(
            (use) => use.quantityHundredths > 0 && input.plans.some((p) => p.id === use.planId && includesChemicals(p)),
          )
        expect(draftInvoice(input) === null).toBe(!billable)
      }),
      { numRuns: 200 },
    )
  })
})
