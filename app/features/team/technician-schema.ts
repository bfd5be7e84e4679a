// Team → technician's form (`/app/team/:memberId`): where the technician's day starts and ends, their working hours,
// what an hour of their time costs the company ("Profit per pool") and how they are paid (decision 043). One schema,
// shared by the form, the action and their tests; dollars are read to whole cents without floating point.
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { optionalText } from '~/utils/forms'
import { PAY_TYPES } from '~/utils/team-fields'
import { centsToDollarText, parseDollars } from '../inventory/inventory-schema'

export const TECHNICIAN_MESSAGES = {
  saved: 'Saved. Routes and “Profit per pool” use these from now on.',
  money: 'Enter an amount in dollars, like 24.50 (no more than 2 decimals), or leave it blank.',
  time: 'Enter a time like 07:30.',
  hours: '“Ends” must be after “Starts”.',
  hourlyRate: 'Enter the hourly rate.',
  perStopRate: 'Enter the rate per completed visit.',
} as const

/** Blank: none; otherwise dollars to whole cents ($0.00 and up). */
const optionalDollars = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return null
    const cents = parseDollars(value)
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: TECHNICIAN_MESSAGES.money })
      return z.NEVER
    }
    return cents
  })

/** "HH:MM" from a time input (seconds, if a browser sends them, are dropped); blank: the default hours. */
const optionalTime = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return null
    const match = /^([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/.exec(value)
    if (!match) {
      ctx.addIssue({ code: 'custom', message: TECHNICIAN_MESSAGES.time })
      return z.NEVER
    }
    return `${match[1]}:${match[2]}`
  })

export const TechnicianSchema = z
  .object({
    startAddress: optionalText(300),
    endAddress: optionalText(300),
    workStarts: optionalTime,
    workEnds: optionalTime,
    hourlyCost: optionalDollars,
    payType: z.enum(PAY_TYPES).optional(),
    hourlyRate: optionalDollars,
    perStopRate: optionalDollars,
    skippedVisitExtra: optionalDollars,
  })
  .superRefine((value, ctx) => {
    if (value.workStarts && value.workEnds && value.workStarts >= value.workEnds) {
      ctx.addIssue({ code: 'custom', path: ['workEnds'], message: TECHNICIAN_MESSAGES.hours })
    }
    if (value.payType === 'hourly' && value.hourlyRate === null) {
      ctx.addIssue({ code: 'custom', path: ['hourlyRate'], message: TECHNICIAN_MESSAGES.hourlyRate })
    }
    if (value.payType === 'per-stop' && value.perStopRate === null) {
      ctx.addIssue({ code: 'custom', path: ['perStopRate'], message: TECHNICIAN_MESSAGES.perStopRate })
    }
  })

/** The form's fields as text, from what is stored (cents as dollars, times as HH:MM). */
export function technicianFormValues(stored: {
  startAddress: string | null
  endAddress: string | null
  workStarts: string | null
  workEnds: string | null
  hourlyCostCents: number | null
  payType: string | null
  hourlyRateCents: number | null
  perStopRateCents: number | null
  skippedVisitExtraCents: number | null
}) {
  const dollars = (cents: number | null) => (cents === null ? '' : centsToDollarText(cents))
  return {
    startAddress: stored.startAddress ?? '',
    endAddress: stored.endAddress ?? '',
    workStarts: stored.workStarts?.slice(0, 5) ?? '',
    workEnds: stored.workEnds?.slice(0, 5) ?? '',
    hourlyCost: dollars(stored.hourlyCostCents),
    payType: stored.payType ?? '',
    hourlyRate: dollars(stored.hourlyRateCents),
    perStopRate: dollars(stored.perStopRateCents),
    skippedVisitExtra: dollars(stored.skippedVisitExtraCents),
  }
}

export type TechnicianReply = { ok: boolean; message: string; result: SubmissionResult<string[]> }
