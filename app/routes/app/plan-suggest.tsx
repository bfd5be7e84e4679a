// /app/customers/:customerId/locations/:locationId/suggest ("Suggest a day and technician", docs/routing.md
// "Suggesting a day"): the (weekday, technician) pairs whose routes a new pool at this location adds the fewest minutes
// of driving to, for the plan's frequency and start (`?frequencyWeeks=…&startsOn=…`, the form's fields). "Add service
// plan" loads it in place; without JavaScript the form's button opens this page, whose "Choose" goes back to the form
// filled in. The office only; another company's location (or another customer's) is a 404.
import { data, useParams } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { RecordHeader } from '~/components/record-header'
import { RouteError } from '~/components/route-error'
import { Card } from '~/components/ui/card'
import { addPlanHref, chooseHref, readPlanDraft } from '~/features/customers/plan-suggest-links'
import { PlanSuggestionList, type SuggestAnswer } from '~/features/customers/plan-suggestions'
import { suggestPlanDays } from '~/models/plan-suggestion.server'
import { isLocalDate } from '~/schedule/local-date'
import { FREQUENCY_WEEKS, type FrequencyWeeks } from '~/schedule/recurrence'
import type { Route } from './+types/plan-suggest'

export async function loader({ request, params }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'customers:manage')
  const url = new URL(request.url)
  const draft = readPlanDraft(url.searchParams)
  const frequency = Number(draft.frequencyWeeks ?? 1)
  const frequencyWeeks = ((FREQUENCY_WEEKS as readonly number[]).includes(frequency) ? frequency : 1) as FrequencyWeeks
  const result = await suggestPlanDays({
    companyId: member.companyId,
    timezone: member.timezone,
    customerId: params.customerId,
    locationId: params.locationId,
    frequencyWeeks,
    startsOn: isLocalDate(draft.startsOn) ? draft.startsOn : null,
  })
  const answer: SuggestAnswer = result.ok ? { ok: true, result: result.result } : { ok: false, message: result.message }
  // Read by the form as it asks (a fetcher), so a refusal is an answer to show, not a thrown error page.
  return data({ answer, draft }, { status: result.ok ? 200 : 404, headers: { 'Cache-Control': 'private, no-store' } })
}

export function meta() {
  return [{ title: 'Suggest a day and technician · Pool Bud' }]
}

export default function PlanSuggestPage({ loaderData }: Route.ComponentProps) {
  const { customerId = '', locationId = '' } = useParams()
  const { answer, draft } = loaderData
  return (
    <div className="space-y-6">
      <RecordHeader
        back={addPlanHref(customerId, locationId, draft)}
        backLabel="Add service plan"
        title="Suggest a day and technician"
      >
        {answer.ok ? <p className="text-slate-700 break-words">{answer.result.address}</p> : null}
      </RecordHeader>
      <Card className="space-y-3">
        <PlanSuggestionList
          answer={answer}
          heading="h2"
          chooseHref={(suggestion) => chooseHref(customerId, locationId, draft, suggestion)}
          editLocationHref={`/app/customers/${customerId}?edit=location:${locationId}`}
        />
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
