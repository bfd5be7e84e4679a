// A customer's invoice for a month (OPERATIONS §7), as pure arithmetic on whole cents: what "Create invoices"
// previews and then writes. The rules, in one place:
// - per visit: the plan's rate × its completed visits in the month (skipped and cancelled visits are not billed);
// - monthly: the rate for every month the plan is active, visits or not, prorated by scheduled visits only when the
//   plan starts after the 1st or ends before the month's last day;
// - "… plus chemicals": also the chemicals added on the plan's completed visits, each product at its stock item's
//   price (one line per product, or one "Chemicals" line per location when the company does not itemise them);
// - every line is rounded to the cent, half up; tax is one more line on the subtotal; the total is the sum of lines;
// - an earlier overpayment (credit) is applied to the total, never shown as a line (it is money already received).
import { addDays, daysBetween, type LocalDate } from '~/schedule/local-date'
import { occurrences, type PlanSchedule } from '~/schedule/recurrence'
import type { ChemicalUnit } from '~/utils/chemicals'
import type { RateType } from '~/utils/customer-fields'
import type { InvoiceLineKind } from './billing-fields'

/** A calendar month as its first and last local dates. */
export type BillingPeriod = { start: LocalDate; end: LocalDate }

export type PlanToBill = PlanSchedule & {
  id: string
  locationId: string
  /** Where the plan's pool is, for the line's description ("12 Palm Ave"). */
  place: string
  rateType: RateType
  rateCents: number
  /** The plan's visits completed in the period (by their scheduled date). */
  completedVisits: number
}

/** One product added on a plan's completed visits in the period, summed. */
export type ChemicalUse = {
  planId: string
  product: string
  unit: ChemicalUnit
  /** Quantity in hundredths (2.5 gal = 250): the database keeps two decimals, so this is exact. */
  quantityHundredths: number
  unitPriceCents: number
}

export type DraftInput = {
  period: BillingPeriod
  plans: PlanToBill[]
  chemicals: ChemicalUse[]
  itemiseChemicals: boolean
  /** Thousandths of a percent: 7250 = 7.25 %, 8875 = 8.875 %. */
  taxRateMilliPercent: number
  /** The customer's unapplied credit from earlier overpayments. */
  creditCents: number
}

export type DraftLine = {
  kind: InvoiceLineKind
  description: string
  /** As stored (numeric with two decimals), trailing zeros dropped: "4", "2.5". */
  quantity: string
  unitCents: number
  amountCents: number
  locationId: string | null
  planId: string | null
}

export type InvoiceDraft = {
  lines: DraftLine[]
  subtotalCents: number
  taxCents: number
  totalCents: number
  creditAppliedCents: number
  /** What is left to pay once the credit is applied. */
  amountDueCents: number
}

/** numerator / denominator rounded to the nearest integer, halves up; both non-negative integers. */
export function divideHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator))
}

/** The month of `date` ("2026-11-17" → 1st to 30th November). */
export function monthOf(date: LocalDate): BillingPeriod {
  const start = `${date.slice(0, 7)}-01`
  const [year, month] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))]
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return { start, end: `${date.slice(0, 7)}-${String(days).padStart(2, '0')}` }
}

const monthLabel = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })

/** "November 2026". */
export function periodLabel(period: BillingPeriod) {
  return monthLabel.format(new Date(`${period.start}T12:00:00Z`))
}

function quantityText(hundredths: number) {
  const whole = Math.floor(hundredths / 100)
  const cents = hundredths % 100
  if (cents === 0) return String(whole)
  return `${whole}.${String(cents).padStart(2, '0')}`.replace(/0$/, '')
}

/** Whether the plan runs on any day of the period. */
export function planActiveIn(plan: PlanSchedule, period: BillingPeriod) {
  return plan.startsOn <= period.end && (plan.endsOn === null || plan.endsOn >= period.start)
}

/**
 * The monthly rate for the period: whole when the plan runs the whole month, else prorated by its scheduled visits
 * (those inside its dates over those it would have had all month, on the same weekday and rhythm).
 */
export function monthlyCharge(plan: PlanSchedule & { rateCents: number }, period: BillingPeriod) {
  if (!planActiveIn(plan, period)) return { amountCents: 0, scheduled: 0, ofFull: 0 }
  if (plan.startsOn <= period.start && (plan.endsOn === null || plan.endsOn >= period.end)) {
    return { amountCents: plan.rateCents, scheduled: null, ofFull: null }
  }
  const scheduled = occurrences(plan, period.start, period.end).length
  // The same rhythm carried back before the plan began and past its end: the month's full count of visits.
  const step = 7 * plan.frequencyWeeks
  const weeksBack = Math.ceil((Math.max(0, daysBetween(period.start, plan.startsOn)) + 7) / step)
  const unbounded: PlanSchedule = {
    ...plan,
    startsOn: addDays(plan.startsOn, -weeksBack * step),
    endsOn: null,
  }
  const full = occurrences(unbounded, period.start, period.end).length
  if (scheduled === full) return { amountCents: plan.rateCents, scheduled: null, ofFull: null }
  return { amountCents: divideHalfUp(plan.rateCents * scheduled, full), scheduled, ofFull: full }
}

const withChemicals = (rateType: RateType) =>
  rateType === 'monthly-plus-chemicals' || rateType === 'per-visit-plus-chemicals'

/** The invoice for one customer and period, or null when there is nothing to bill. */
export function draftInvoice(input: DraftInput): InvoiceDraft | null {
  const { period, plans } = input
  const lines: DraftLine[] = []
  const month = periodLabel(period)
  for (const plan of plans) {
    const at = { locationId: plan.locationId, planId: plan.id }
    if (plan.rateType === 'per-visit' || plan.rateType === 'per-visit-plus-chemicals') {
      if (plan.completedVisits === 0) continue
      const visits = plan.completedVisits === 1 ? '1 visit' : `${plan.completedVisits} visits`
      lines.push({
        kind: 'visits',
        description: `Pool service, ${plan.place} — ${visits}`,
        quantity: String(plan.completedVisits),
        unitCents: plan.rateCents,
        amountCents: plan.rateCents * plan.completedVisits,
        ...at,
      })
    } else {
      const charge = monthlyCharge(plan, period)
      if (charge.scheduled === 0) continue
      const part = charge.scheduled === null ? '' : ` (${charge.scheduled} of ${charge.ofFull} visits)`
      lines.push({
        kind: 'monthly',
        description: `Monthly pool service, ${plan.place} — ${month}${part}`,
        quantity: '1',
        unitCents: charge.amountCents,
        amountCents: charge.amountCents,
        ...at,
      })
    }
  }
  const planById = new Map(plans.map((plan) => [plan.id, plan]))
  const chemicalLines: DraftLine[] = []
  for (const use of input.chemicals) {
    const plan = planById.get(use.planId)
    if (!plan || !withChemicals(plan.rateType) || use.quantityHundredths <= 0) continue
    chemicalLines.push({
      kind: 'chemicals',
      description: `${use.product} (${use.unit}), ${plan.place}`,
      quantity: quantityText(use.quantityHundredths),
      unitCents: use.unitPriceCents,
      amountCents: divideHalfUp(use.quantityHundredths * use.unitPriceCents, 100),
      locationId: plan.locationId,
      planId: plan.id,
    })
  }
  if (input.itemiseChemicals) {
    lines.push(...chemicalLines)
  } else {
    // One line per location, the sum of the same rounded amounts: the total is the same either way.
    const byLocation = new Map<string, DraftLine>()
    for (const line of chemicalLines) {
      const key = line.locationId ?? ''
      const place = planById.get(line.planId ?? '')?.place ?? ''
      const sum = byLocation.get(key)
      if (sum) {
        sum.amountCents += line.amountCents
        sum.unitCents = sum.amountCents
      } else {
        byLocation.set(key, {
          ...line,
          description: `Chemicals, ${place}`,
          quantity: '1',
          unitCents: line.amountCents,
          planId: null,
        })
      }
    }
    lines.push(...byLocation.values())
  }
  if (lines.length === 0) return null
  const subtotalCents = lines.reduce((sum, line) => sum + line.amountCents, 0)
  const taxCents = input.taxRateMilliPercent > 0 ? divideHalfUp(subtotalCents * input.taxRateMilliPercent, 100_000) : 0
  if (taxCents > 0) {
    lines.push({
      kind: 'tax',
      description: `Tax (${input.taxRateMilliPercent / 1000}%)`,
      quantity: '1',
      unitCents: taxCents,
      amountCents: taxCents,
      locationId: null,
      planId: null,
    })
  }
  const totalCents = subtotalCents + taxCents
  const creditAppliedCents = Math.max(0, Math.min(input.creditCents, totalCents))
  return {
    lines,
    subtotalCents,
    taxCents,
    totalCents,
    creditAppliedCents,
    amountDueCents: totalCents - creditAppliedCents,
  }
}
