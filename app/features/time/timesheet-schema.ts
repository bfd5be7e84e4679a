// The Timesheets page's forms (docs/time.md): "Edit" a day's start and end with a required reason, "Approve week",
// "Reopen week" with a reason, and the page's own address (technician and week). One schema per form, shared by the
// forms, the action and their tests.
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { isWallTime, parseAddressDate } from '~/schedule/local-date'

export const TIMESHEET_INTENTS = {
  edit: 'edit-day',
  approve: 'approve-week',
  reopen: 'reopen-week',
} as const

export const TIMESHEET_MESSAGES = {
  reason: 'Say why the time changes.',
  reopenReason: 'Say why the week is reopened.',
  time: 'Enter a time like 07:30.',
  edited: 'Times saved. The change and its reason are kept under the day.',
  approved: 'Week approved. Its times are locked for payroll.',
  reopened: 'Week reopened. Its times can be edited again.',
} as const

const REASON_MAX = 500

/** "HH:MM" from a time input (seconds, if a browser sends them, are dropped); blank: no change. */
const optionalTime = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return null
    const time = value.slice(0, 5)
    if (!isWallTime(time)) {
      ctx.addIssue({ code: 'custom', message: TIMESHEET_MESSAGES.time })
      return z.NEVER
    }
    return time
  })

const localDate = z.string().refine((value) => parseAddressDate(value) !== null, 'Not a date.')

export const EditDaySchema = z.object({
  intent: z.literal(TIMESHEET_INTENTS.edit),
  technicianId: z.string().min(1).max(100),
  date: localDate,
  start: optionalTime,
  end: optionalTime,
  reason: z
    .string({ error: TIMESHEET_MESSAGES.reason })
    .trim()
    .min(1, TIMESHEET_MESSAGES.reason)
    .max(REASON_MAX, `Keep the reason under ${REASON_MAX} characters.`),
})

export const ApproveWeekSchema = z.object({
  intent: z.literal(TIMESHEET_INTENTS.approve),
  technicianId: z.string().min(1).max(100),
  weekStart: localDate,
})

export const ReopenWeekSchema = z.object({
  intent: z.literal(TIMESHEET_INTENTS.reopen),
  technicianId: z.string().min(1).max(100),
  weekStart: localDate,
  reason: z
    .string({ error: TIMESHEET_MESSAGES.reopenReason })
    .trim()
    .min(1, TIMESHEET_MESSAGES.reopenReason)
    .max(REASON_MAX, `Keep the reason under ${REASON_MAX} characters.`),
})

/** The action's answer: which form (and, for an edit, which day) it is about, and Conform's reply for it. */
export type TimesheetReply = {
  intent: string
  date?: string
  ok: boolean
  message: string
  result: SubmissionResult<string[]>
}
