// "Change prices" (docs/billing.md): which plans (rate type, technician, current rate equal to or within a range), the
// increase (percent or dollars), the effective date, and whether to tell the customers. One schema for the page (the
// browser's check), the route's action and the tests; the model checks the date against the company's today.
import { z } from 'zod'
import {
  ANY,
  MIN_PERCENT_BASIS_POINTS_EXCLUSIVE,
  type PlanFilter,
  PRICE_MESSAGES,
  type PriceIncrease,
  parseHundredths,
} from '~/billing/price-change'
import { RATE_TYPES } from '~/utils/customer-fields'

export const PRICE_INTENTS = ['preview', 'apply'] as const

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** A rate typed in dollars ("95", "95.50", "$95"), as cents; undefined when blank, null when not an amount. */
function rateCents(text: string | undefined) {
  if (text === undefined || text.trim() === '') return undefined
  const cents = parseHundredths(text)
  return cents === null || cents < 0 ? null : cents
}

/** The form's fields as typed (also what the browser's constraints are read from: no transforms). */
export const PriceChangeFields = z.object({
  rateType: z.enum([ANY, ...RATE_TYPES]).default(ANY),
  technician: z.string().trim().min(1).default(ANY),
  rateMatch: z.enum(['any', 'equal', 'between']).default('any'),
  rateFrom: z.string().optional(),
  rateTo: z.string().optional(),
  increaseKind: z.enum(['percent', 'amount'], { error: 'Choose percent or dollars.' }),
  increase: z.string({ error: PRICE_MESSAGES.increase }),
  effectiveOn: z.string({ error: PRICE_MESSAGES.effectiveOn }).regex(DATE, PRICE_MESSAGES.effectiveOn),
  // A checkbox: unticked is absent from the form.
  notify: z.boolean().default(false),
})

export const PriceChangeSchema = PriceChangeFields.transform((value, context) => {
  const hundredths = parseHundredths(value.increase)
  if (hundredths === null) {
    context.addIssue({ code: 'custom', path: ['increase'], message: PRICE_MESSAGES.increase })
    return z.NEVER
  }
  if (hundredths === 0) {
    context.addIssue({ code: 'custom', path: ['increase'], message: PRICE_MESSAGES.zero })
    return z.NEVER
  }
  if (value.increaseKind === 'percent' && hundredths <= MIN_PERCENT_BASIS_POINTS_EXCLUSIVE) {
    context.addIssue({ code: 'custom', path: ['increase'], message: PRICE_MESSAGES.minusHundred })
    return z.NEVER
  }
  let rateMin: number | null = null
  let rateMax: number | null = null
  if (value.rateMatch !== 'any') {
    const from = rateCents(value.rateFrom)
    if (from === undefined || from === null) {
      context.addIssue({ code: 'custom', path: ['rateFrom'], message: PRICE_MESSAGES.rate })
      return z.NEVER
    }
    rateMin = from
    rateMax = from
    if (value.rateMatch === 'between') {
      const to = rateCents(value.rateTo)
      if (to === undefined || to === null) {
        context.addIssue({ code: 'custom', path: ['rateTo'], message: PRICE_MESSAGES.rate })
        return z.NEVER
      }
      if (to < from) {
        context.addIssue({ code: 'custom', path: ['rateTo'], message: PRICE_MESSAGES.rateOrder })
        return z.NEVER
      }
      rateMax = to
    }
  }
  const increase: PriceIncrease =
    value.increaseKind === 'percent'
      ? { kind: 'percent', basisPoints: hundredths }
      : { kind: 'amount', cents: hundredths }
  const filter: PlanFilter = {
    rateType: value.rateType === ANY ? null : value.rateType,
    technician: value.technician,
    rateMin,
    rateMax,
  }
  return { filter, increase, effectiveOn: value.effectiveOn, notify: value.notify }
})
