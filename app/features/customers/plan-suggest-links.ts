// Where "Suggest a day and technician" asks, and where its "Choose" goes without JavaScript: back to "Add service
// plan" with the typed fields kept and the chosen weekday and technician filled in (docs/routing.md "Suggesting a
// day"). The customer record reads the same fields back as the form's values.

/** The fields of "Add service plan" carried through the suggestion page and back. */
export const PLAN_DRAFT_KEYS = [
  'frequencyWeeks',
  'weekday',
  'technicianId',
  'startsOn',
  'endsOn',
  'serviceWindow',
  'rate',
  'rateType',
] as const

export type PlanDraft = Partial<Record<(typeof PLAN_DRAFT_KEYS)[number], string>>

/** The plan's fields present in `params` (a query string or a form), each at most 100 characters. */
export function readPlanDraft(params: { get(name: string): FormDataEntryValue | null }): PlanDraft {
  const draft: PlanDraft = {}
  for (const key of PLAN_DRAFT_KEYS) {
    const value = params.get(key)
    if (typeof value === 'string') draft[key] = value.slice(0, 100)
  }
  return draft
}

export function suggestPath(customerId: string, locationId: string) {
  return `/app/customers/${customerId}/locations/${locationId}/suggest`
}

/** The suggestion page's address for `draft` (the form's fields as typed). */
export function suggestHref(customerId: string, locationId: string, draft: PlanDraft) {
  return `${suggestPath(customerId, locationId)}?${new URLSearchParams(draft)}`
}

/** "Add service plan" open on the record with `draft`, the chosen weekday and technician in it. */
export function chooseHref(
  customerId: string,
  locationId: string,
  draft: PlanDraft,
  choice: { weekday: number; technicianId: string },
) {
  return addPlanHref(customerId, locationId, { ...draft, ...choice, weekday: String(choice.weekday) })
}

/** "Add service plan" open on the record with `draft` as its values (the record's own `?add=plan:…` form). */
export function addPlanHref(customerId: string, locationId: string, draft: PlanDraft) {
  const params = new URLSearchParams()
  for (const key of PLAN_DRAFT_KEYS) if (draft[key] !== undefined) params.set(key, draft[key])
  const rest = params.toString()
  return `/app/customers/${customerId}?add=plan:${locationId}${rest ? `&${rest}` : ''}`
}
