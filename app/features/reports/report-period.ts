// The periods the reports and exports are asked for, read from the address (`?month=2026-11`, `?from=…&to=…`).
// Pure: the routes pass the company's "today", so "last month" and "this month" are the company's
// (docs/product.md "Roles").
import { type BillingPeriod, monthOf } from '~/billing/invoice-draft'
import { addDays, daysBetween, type LocalDate, parseAddressDate, parseAddressMonth } from '~/schedule/local-date'

export const MONTH_MESSAGE = 'Choose a month written like 2026-11.'

export type MonthChoice = { ok: true; month: string; period: BillingPeriod } | { ok: false; message: string }

/** The month before the one `today` is in: the month an office closes and exports (the billing page's default too). */
export function lastMonth(today: LocalDate): BillingPeriod {
  return monthOf(addDays(monthOf(today).start, -1))
}

/** `?month=YYYY-MM` as a billing period; none given is last month. */
export function readMonth(value: string | null, today: LocalDate): MonthChoice {
  const text = (value ?? '').trim()
  if (!text) {
    const period = lastMonth(today)
    return { ok: true, month: period.start.slice(0, 7), period }
  }
  const start = parseAddressMonth(text)
  if (start === null) return { ok: false, message: MONTH_MESSAGE }
  return { ok: true, month: text, period: monthOf(start) }
}

/** A report covers at most this many days: a year, leap or not. */
export const MAX_RANGE_DAYS = 366

export const RANGE_MESSAGES = {
  date: 'Enter dates written like 2026-11-01.',
  order: '“From” must be on or before “To”.',
  length: 'Choose a period of a year or less.',
} as const

export type RangeChoice =
  | { ok: true; from: LocalDate; to: LocalDate }
  | { ok: false; message: string; from: string; to: string }

/** `?from=&to=` (local dates, both days included); none given is `fallback`, this month unless the caller says. */
export function readRange(
  from: string | null,
  to: string | null,
  today: LocalDate,
  fallback: BillingPeriod = monthOf(today),
): RangeChoice {
  const fromText = (from ?? '').trim() || fallback.start
  const toText = (to ?? '').trim() || fallback.end
  const refuse = (message: string): RangeChoice => ({ ok: false, message, from: fromText, to: toText })
  if (!parseAddressDate(fromText) || !parseAddressDate(toText)) return refuse(RANGE_MESSAGES.date)
  if (fromText > toText) return refuse(RANGE_MESSAGES.order)
  if (daysBetween(fromText, toText) + 1 > MAX_RANGE_DAYS) return refuse(RANGE_MESSAGES.length)
  return { ok: true, from: fromText, to: toText }
}
