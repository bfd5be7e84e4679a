// A customer's invoice for a month (docs/billing.md), as pure arithmetic on whole cents: what "Create invoices"
// previews and then writes. The rules, in one place:
// - per visit: the plan's rate × its completed visits in the month (skipped and canceled visits are not billed);
// - monthly: the rate for every month the plan is active, visits or not, prorated by scheduled visits only when the
//   plan starts after the 1st or ends before the month's last day;
// - "… plus chemicals": also the chemicals added on the plan's completed visits, each product at its stock item's
//   price (one line per product, or one "Chemicals" line per location when the company does not itemize them);
// - every line is rounded to the cent, half up; tax is one line per rate in use, on the subtotal of the lines done at
//   locations of that rate (app/billing/tax.ts); the total is the sum of lines;
// - an earlier overpayment (credit) is applied to the total, never shown as a line (it is money already received).
// - late completions (a visit billed per visit, completed after its month's invoice was sent) are one line each, at the
//   rate in force on the visit's date (docs/billing.md, "Late completions").
import { addDays, daysBetween, type LocalDate } from '~/schedule/local-date'
import { occurrences, type PlanSchedule } from '~/schedule/recurrence'
import type { ChemicalUnit } from '~/utils/chemicals'
import type { RateType } from '~/utils/customer-fields'
import { divideHalfUp } from '~/utils/money'
import type { InvoiceLineKind } from './billing-fields'
import { type TaxRule, taxLinesFor } from './tax'

/** A calendar month as its first and last local dates. */
export type BillingPeriod = { start: LocalDate; end: LocalDate }

export type PlanToBill = PlanSchedule & {
  id: string
  locationId: string
  /** Where the plan's pool is, for the line's description ("12 Palm Ave"). */
  place: string
  rateType: RateType
  /** The rate in force on the period's first day. */
  rateCents: number
  /** The plan's visits completed in the period (by their scheduled date). */
  completedVisits: number
  /**
   * Price changes taking effect after the period's first day and within it, by date (docs/billing.md, "A price change
   * mid-month"): from `on` the plan bills `rateCents`. Empty or absent: one rate all month.
   */
  rateChanges?: RateChange[]
  /** The occurrence dates of the completed visits (as many as `completedVisits`): per-visit parts bill by them. */
  completedOn?: LocalDate[]
}

export type RateChange = { on: LocalDate; rateCents: number }

/** A part of the period billed at one rate: from `from` to `to`, both included. */
export type RatePart = { from: LocalDate; to: LocalDate; rateCents: number }

/**
 * The period cut at each price change that takes effect inside it: contiguous parts covering it exactly, each with
 * its rate. Changes on the first day or outside the period are not cuts (the first day's rate is `rateCents`).
 */
export function rateParts(period: BillingPeriod, rateCents: number, changes: RateChange[] = []): RatePart[] {
  const parts: RatePart[] = [{ from: period.start, to: period.end, rateCents }]
  const inside = changes
    .filter((change) => change.on > period.start && change.on <= period.end)
    .sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0))
  for (const change of inside) {
    const last = parts[parts.length - 1] as RatePart
    if (change.on === last.from) {
      last.rateCents = change.rateCents
      continue
    }
    last.to = addDays(change.on, -1)
    parts.push({ from: change.on, to: period.end, rateCents: change.rateCents })
  }
  return parts
}

const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

/** "Nov 1–14": a part of a month. */
export function partLabel(part: { from: LocalDate; to: LocalDate }) {
  const from = dayLabel.format(new Date(`${part.from}T12:00:00Z`))
  return part.from === part.to ? from : `${from}–${Number(part.to.slice(8, 10))}`
}

/**
 * A per-visit plan's visits by part: each completed visit billed once, at the rate of the part holding its date.
 */
export function perVisitParts(parts: RatePart[], completedOn: LocalDate[]) {
  return parts.map((part) => ({
    part,
    visits: completedOn.filter((date) => date >= part.from && date <= part.to).length,
  }))
}

/**
 * A monthly plan's charge split at its price changes: each part's rate × its scheduled visits ÷ the month's full
 * count, rounded so that the parts always sum to the month rounded once — each part is the running total rounded
 * half up, less the running total before it. With one rate all month this is `monthlyCharge` to the cent.
 */
export function monthlyParts(plan: PlanSchedule & { rateCents: number }, period: BillingPeriod, parts: RatePart[]) {
  if (!planActiveIn(plan, period)) return []
  const full = fullMonthVisits(plan, period)
  if (full === 0) return []
  let running = 0
  let billed = 0
  return parts.map((part) => {
    const scheduled = occurrences(plan, part.from, part.to).length
    running += part.rateCents * scheduled
    const upTo = divideHalfUp(running, full)
    const amountCents = upTo - billed
    billed = upTo
    return { part, amountCents, scheduled, ofFull: full }
  })
}

/** The visits the plan's weekday and rhythm would have had all month, carried back before it began and past its end. */
function fullMonthVisits(plan: PlanSchedule, period: BillingPeriod) {
  const step = 7 * plan.frequencyWeeks
  const weeksBack = Math.ceil((Math.max(0, daysBetween(period.start, plan.startsOn)) + 7) / step)
  const unbounded: PlanSchedule = { ...plan, startsOn: addDays(plan.startsOn, -weeksBack * step), endsOn: null }
  return occurrences(unbounded, period.start, period.end).length
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

/**
 * A per-visit plan's visit completed after its month's invoice was sent (docs/billing.md, "Late completions"): billed
 * once, on the customer's next invoice, at the rate in force on its date.
 */
export type LateVisit = {
  visitId: string
  planId: string
  locationId: string
  /** The visit's occurrence date (the date it stands for). */
  on: LocalDate
  frequencyWeeks: number
  rateCents: number
}

export type DraftInput = {
  period: BillingPeriod
  plans: PlanToBill[]
  /** Late completions of earlier months, billed under "Late completions". Absent: none. */
  lateVisits?: LateVisit[]
  chemicals: ChemicalUse[]
  itemizeChemicals: boolean
  /** The company's tax rates: each location's, and the default (docs/billing.md, "Tax"). */
  tax: TaxRule
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
  /** A "Late completions" line: the visit it bills. */
  visitId?: string | null
  /** A tax line: its rate's percent as written (thousandths). */
  taxMilliPercent?: number
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
  const full = fullMonthVisits(plan, period)
  if (scheduled === full) return { amountCents: plan.rateCents, scheduled: null, ofFull: null }
  return { amountCents: divideHalfUp(plan.rateCents * scheduled, full), scheduled, ofFull: full }
}

const serviceLabel = (frequencyWeeks: number) =>
  frequencyWeeks === 1 ? 'Weekly service' : `Every ${frequencyWeeks} weeks service`

/** "Weekly service — Oct 28 (completed late)": one line per late visit, at the rate in force on its date. */
export function lateLines(visits: LateVisit[]): DraftLine[] {
  return [...visits]
    .sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : a.visitId < b.visitId ? -1 : 1))
    .map((visit) => ({
      kind: 'visits' as const,
      description: `${serviceLabel(visit.frequencyWeeks)} — ${dayLabel.format(new Date(`${visit.on}T12:00:00Z`))} (completed late)`,
      quantity: '1',
      unitCents: visit.rateCents,
      amountCents: visit.rateCents,
      locationId: visit.locationId,
      planId: visit.planId,
      visitId: visit.visitId,
    }))
}

const withChemicals = (rateType: RateType) =>
  rateType === 'monthly-plus-chemicals' || rateType === 'per-visit-plus-chemicals'

const visitCount = (n: number) => (n === 1 ? '1 visit' : `${n} visits`)

/**
 * A plan whose price changed inside the period: one line per part at its own rate ("Pool service, 12 Palm Ave —
 * Nov 1–14, 2 visits"), each visit billed once (docs/billing.md, "A price change mid-month").
 */
function splitLines(plan: PlanToBill, period: BillingPeriod, parts: RatePart[]): DraftLine[] {
  const at = { locationId: plan.locationId, planId: plan.id }
  if (plan.rateType === 'per-visit' || plan.rateType === 'per-visit-plus-chemicals') {
    return perVisitParts(parts, plan.completedOn ?? [])
      .filter(({ visits }) => visits > 0)
      .map(({ part, visits }) => ({
        kind: 'visits' as const,
        description: `Pool service, ${plan.place} — ${partLabel(part)}, ${visitCount(visits)}`,
        quantity: String(visits),
        unitCents: part.rateCents,
        amountCents: part.rateCents * visits,
        ...at,
      }))
  }
  const month = periodLabel(period)
  return monthlyParts(plan, period, parts)
    .filter(({ scheduled, amountCents }) => scheduled > 0 || amountCents !== 0)
    .map(({ part, amountCents, scheduled, ofFull }) => ({
      kind: 'monthly' as const,
      description: `Monthly pool service, ${plan.place} — ${month}, ${partLabel(part)} (${scheduled} of ${ofFull} visits)`,
      quantity: '1',
      unitCents: amountCents,
      amountCents,
      ...at,
    }))
}

/** The invoice for one customer and period, or null when there is nothing to bill. */
export function draftInvoice(input: DraftInput): InvoiceDraft | null {
  const { period, plans } = input
  const lines: DraftLine[] = []
  const month = periodLabel(period)
  for (const plan of plans) {
    const at = { locationId: plan.locationId, planId: plan.id }
    const parts = rateParts(period, plan.rateCents, plan.rateChanges)
    if (parts.length > 1) {
      lines.push(...splitLines(plan, period, parts))
      continue
    }
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
  if (input.itemizeChemicals) {
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
  lines.push(...lateLines(input.lateVisits ?? []))
  if (lines.length === 0) return null
  const subtotalCents = lines.reduce((sum, line) => sum + line.amountCents, 0)
  let taxCents = 0
  for (const tax of taxLinesFor(lines, input.tax)) {
    taxCents += tax.amountCents
    lines.push({
      kind: 'tax',
      description: tax.description,
      quantity: '1',
      unitCents: tax.amountCents,
      amountCents: tax.amountCents,
      locationId: null,
      planId: null,
      taxMilliPercent: tax.milliPercent,
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
