// A service plan in one line for the customer record ("Every 2 weeks on Tuesday, morning · Alex · $95.00 per
// visit"), and what "Edit plan" and "Pause plan" start from.
import { addDays, type LocalDate } from '~/schedule/local-date'
import { type FrequencyWeeks, occurrences } from '~/schedule/recurrence'
import type { RateType } from '~/utils/customer-fields'
import { formatLocalDate } from '~/utils/dates'
import { formatCents } from '~/utils/money'

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

const RATE_TYPES: Record<RateType, string> = {
  'per-visit': 'per visit',
  monthly: 'a month',
  'monthly-plus-chemicals': 'a month plus chemicals',
  'per-visit-plus-chemicals': 'per visit plus chemicals',
}

export type PlanFacts = {
  id: string
  frequencyWeeks: number
  /** ISO weekday, 1 = Monday. */
  weekday: number
  technicianName: string | null
  startsOn: string
  endsOn: string | null
  serviceWindow: string
  rateCents: number | null
  rateType: RateType
}

/**
 * "Paused until May 1, 2027" while a pause is ahead or under way; the plan's next visit date on or after `today`
 * (what "Edit plan" and "Pause plan" change from unless told otherwise); the edit form's values.
 */
export function planEditing(
  plan: PlanFacts & { technicianId: string | null; pausedFrom: string | null },
  today: LocalDate,
) {
  const schedule = {
    frequencyWeeks: plan.frequencyWeeks as FrequencyWeeks,
    weekday: plan.weekday as 1,
    startsOn: plan.startsOn,
    endsOn: plan.endsOn,
  }
  const nextVisit = occurrences(schedule, today, addDays(today, 7 * plan.frequencyWeeks + 7))[0] ?? today
  return {
    paused: plan.pausedFrom !== null && plan.startsOn > today ? `Paused until ${formatLocalDate(plan.startsOn)}` : null,
    nextVisit,
    form: {
      frequencyWeeks: String(plan.frequencyWeeks),
      weekday: String(plan.weekday),
      technicianId: plan.technicianId ?? '',
      serviceWindow: plan.serviceWindow,
      rate: plan.rateCents == null ? '' : (plan.rateCents / 100).toFixed(2),
      from: nextVisit,
    },
  }
}

export function describePlan(plan: PlanFacts) {
  const day = WEEKDAYS[plan.weekday - 1] ?? 'an unknown day'
  const every = plan.frequencyWeeks === 1 ? 'Every week' : `Every ${plan.frequencyWeeks} weeks`
  const window = plan.serviceWindow === 'flexible' ? '' : `, ${plan.serviceWindow}`
  const parts = [
    `${every} on ${day}${window}`,
    plan.technicianName ?? 'no technician yet',
    plan.rateCents == null ? null : `${formatCents(plan.rateCents)} ${RATE_TYPES[plan.rateType]}`,
    plan.endsOn ? `from ${plan.startsOn} to ${plan.endsOn}` : `from ${plan.startsOn}`,
  ].filter(Boolean)
  return { id: plan.id, summary: parts.join(' · ') }
}
