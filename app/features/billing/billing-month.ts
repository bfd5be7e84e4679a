// Which month the billing page works on (`?month=YYYY-MM`). Without one it is last month in the company's calendar:
// an office invoices a month once it is over. Pure, so the page and its tests agree on it.
import { z } from 'zod'
import { type BillingPeriod, monthOf } from '~/billing/invoice-draft'
import { type LocalDate, localDateAt, parseAddressMonth } from '~/schedule/local-date'

/** "2026-11" for a period or a local date. */
export function monthParam(period: BillingPeriod | LocalDate) {
  return (typeof period === 'string' ? period : period.start).slice(0, 7)
}

/** The month before the one holding `today`. */
export function lastMonth(today: LocalDate): BillingPeriod {
  const { start } = monthOf(today)
  return monthOf(shiftMonth(start, -1))
}

/** The first day of the month `months` away from the month starting on `start`. */
function shiftMonth(start: LocalDate, months: number): LocalDate {
  const index = Number(start.slice(0, 4)) * 12 + Number(start.slice(5, 7)) - 1 + months
  const year = Math.floor(index / 12)
  return `${String(year).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`
}

/** The months either side, for "previous month" / "next month". */
export function neighbors(period: BillingPeriod) {
  return { previous: monthOf(shiftMonth(period.start, -1)), next: monthOf(shiftMonth(period.start, 1)) }
}

/** The month "YYYY-MM" names (years of `ADDRESS_YEARS`, 2000–2100), or null for anything else. */
export function parseMonth(value: unknown): BillingPeriod | null {
  const start = parseAddressMonth(typeof value === 'string' ? value.trim() : value)
  return start === null ? null : monthOf(start)
}

/**
 * The month a `?month=` value names; last month (company time) when there is none. A month that cannot be (2026-13,
 * 9999-12, "November") is null: the page answers 404, as for any impossible date in an address.
 */
export function billingMonth(value: string | null, now: Date, timeZone: string): BillingPeriod | null {
  if (value === null || value.trim() === '') return lastMonth(localDateAt(now, timeZone))
  return parseMonth(value)
}

export const MONTH_ACTION_MESSAGES = { month: 'Choose a month.', unknown: 'Unknown action.' } as const

/**
 * "Create N invoices" and "Send invoices": the button's intent and the month the page showed (a hidden field). The
 * month is required (never "last month" by the server's clock): a page left open over midnight on the 1st must still
 * act on the month it showed.
 */
export const MonthActionSchema = z.object({
  intent: z.enum(['create', 'send'], { error: MONTH_ACTION_MESSAGES.unknown }),
  month: z.string({ error: MONTH_ACTION_MESSAGES.month }).transform((value, context) => {
    const period = parseMonth(value)
    if (period) return period
    context.addIssue({ code: 'custom', message: MONTH_ACTION_MESSAGES.month })
    return z.NEVER
  }),
})
