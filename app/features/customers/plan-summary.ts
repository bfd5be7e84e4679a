// A service plan in one line for the customer record ("Every 2 weeks on Tuesday, morning · Alex · $95.00 per
// visit"). Read-only here: plans are edited where the schedule is (OPERATIONS §4).
import type { RateType } from '~/utils/customer-fields'
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
