// "Change prices" (docs/billing.md) as pure arithmetic on whole cents: what an increase makes of a rate, and which
// month a change first bills. The rules, in one place:
// - a percent is typed with up to two decimals and kept in hundredths of a percent (2.5 % → 250); the new rate is
//   the old × (100 % + the percent), rounded to the cent half up; a decrease must stay above −100 % (−100 % would
//   make every price zero, and is refused);
// - dollars are added to each rate (negative lowers it); a rate never goes below $0.00;
// - a change applies from its effective date: a month it falls inside is billed in two parts, each at its own rate
//   (docs/billing.md, "A price change mid-month").
import type { LocalDate } from '~/schedule/local-date'
import type { RateType } from '~/utils/customer-fields'
import { divideHalfUp, formatCents } from '~/utils/money'
import { type BillingPeriod, monthOf } from './invoice-draft'

export type PriceIncrease = { kind: 'percent'; basisPoints: number } | { kind: 'amount'; cents: number }

export const PRICE_MESSAGES = {
  increase: 'Enter the increase as a number with at most 2 decimals (a minus sign lowers prices).',
  zero: 'Enter an increase other than 0.',
  minusHundred: 'A decrease of 100 % or more would make every price $0.00. Enter a percent above −100.',
  effectiveOn: 'Choose the date the new prices start.',
  past: 'Choose today or a later date.',
  rate: 'Enter a rate in dollars, like 95 or 95.50.',
  rateOrder: '"To" must be at least "From".',
  technician: 'Choose one of your technicians.',
  none: 'No plan matches these choices (plans already at $0.00, ended or archived are left out).',
  changed: 'The plans changed since your preview. Check this new preview, then apply again.',
  laterChange: (count: number, date: string) =>
    `${count === 1 ? '1 of these plans already has' : `${count} of these plans already have`} a price change from ${date}. Choose that date or later.`,
  applied: (count: number, month: string) =>
    `Prices changed for ${count === 1 ? '1 plan' : `${count} plans`}, billed from ${month}.`,
  alreadyApplied: 'Already applied: this price change was made once, and nothing was changed again.',
  previewAgain: 'Preview the change again, then apply it.',
  sameDate: (count: number, date: string) =>
    `${count === 1 ? '1 of these plans already has' : `${count} of these plans already have`} a price change from ${date}: check "Price changes" below before applying another.`,
  undone: (count: number) =>
    `Price change undone: ${count === 1 ? '1 plan is' : `${count} plans are`} back to the old rate.`,
  undoneTold: 'Customers were told of this change; tell them it is canceled.',
  undoneWithdrawn: (count: number) =>
    `${count === 1 ? 'The 1 email' : `The ${count} emails`} not yet sent about it will not be sent.`,
  alreadyUndone: 'This price change was already undone.',
  undoWhich: 'Choose the price change to undo from “Price changes”.',
  inEffect: (date: string) =>
    `This price change took effect on ${date}, so it can no longer be undone. Make a new price change instead.`,
  laterChangeFirst: (date: string) =>
    `A later price change (from ${date}) changed some of these plans. Undo that one first.`,
  rateMoved: 'Some of these plans’ rates were changed since. Change their prices again instead.',
} as const

/** Whose plans: "any" technician, plans with none ("unassigned"), or one technician's (their id). */
export const ANY = 'any'
export const UNASSIGNED = 'unassigned'

/** Which plans a change is for. `technician`: ANY, UNASSIGNED or a technician's id. */
export type PlanFilter = {
  rateType: RateType | null
  technician: string
  rateMin: number | null
  rateMax: number | null
}

/** A percent of −100 % or less: refused, every price would be zero or less. */
export const MIN_PERCENT_BASIS_POINTS_EXCLUSIVE = -10_000

/** The rate `rateCents` becomes: never negative. */
export function newRate(rateCents: number, increase: PriceIncrease): number {
  if (increase.kind === 'percent') {
    // (10000 + basis points) is positive for any accepted percent, so the product is a non-negative integer.
    return divideHalfUp(rateCents * (10_000 + increase.basisPoints), 10_000)
  }
  return Math.max(0, rateCents + increase.cents)
}

/**
 * The first month billed at the new rates: the month of `effectiveOn` — wholly when it is the 1st, else from that day
 * on, the month's earlier part at the old rates (docs/billing.md, "A price change mid-month").
 */
export function firstBilledMonth(effectiveOn: LocalDate): BillingPeriod {
  return monthOf(effectiveOn)
}

/** "+5 %", "−10 %", "+$10.00", "−$2.50": the increase as the preview and the email name it. */
export function describeIncrease(increase: PriceIncrease): string {
  const sign = (n: number) => (n < 0 ? '−' : '+')
  if (increase.kind === 'percent') {
    const abs = Math.abs(increase.basisPoints)
    const text = abs % 100 === 0 ? String(abs / 100) : (abs / 100).toFixed(2).replace(/0$/, '')
    return `${sign(increase.basisPoints)}${text} %`
  }
  const abs = Math.abs(increase.cents)
  return `${sign(increase.cents)}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

const SIGNED_DECIMAL = /^([+\-−]?)\$?(\d{1,7})(?:\.(\d{1,2}))?%?$/

/**
 * "5", "-2.5", "+10.25" as hundredths (500, −250, 1025), exactly (no floating point); null when it is not a number
 * with at most two decimals. Serves both percents (hundredths of a percent, "5 %") and dollars (cents, "-$2.50").
 */
export function parseHundredths(text: string): number | null {
  const match = SIGNED_DECIMAL.exec(text.replace(/\s+/g, ''))
  if (!match) return null
  const value = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'))
  return match[1] === '-' || match[1] === '−' ? -value : value
}

const RATE_SUFFIX: Record<RateType, string> = {
  'per-visit': 'per visit',
  monthly: 'a month',
  'monthly-plus-chemicals': 'a month plus chemicals',
  'per-visit-plus-chemicals': 'per visit plus chemicals',
}

/** "$97.38 per visit", "$150.00 a month plus chemicals". */
export function rateWithType(cents: number, rateType: RateType) {
  return `${formatCents(cents)} ${RATE_SUFFIX[rateType]}`
}
