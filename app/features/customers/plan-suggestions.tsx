// The answer to "Suggest a day and technician" (docs/routing.md "Suggesting a day"): up to five (weekday,
// technician) pairs, fewest added minutes of driving first, each with its stop count and "Choose"; or why there is
// nothing to suggest. Shown in "Add service plan" (Choose fills the form) and on its own page without JavaScript
// (Choose is a link back to the form, filled).
import type { MouseEvent } from 'react'
import { Link } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { buttonClass } from '~/components/ui/button'
import type { DaySuggestion, PlanSuggestions } from '~/models/plan-suggestion.server'
import { formatLocalDate } from '~/utils/dates'

export type SuggestAnswer = { ok: true; result: PlanSuggestions } | { ok: false; message: string }

const stopsText = (stops: number) => (stops === 1 ? '1 stop' : `${stops} stops`)

export function PlanSuggestionList({
  answer,
  chooseHref,
  onChoose,
  editLocationHref,
  heading: Heading = 'h6',
}: {
  answer: SuggestAnswer
  chooseHref: (suggestion: DaySuggestion) => string
  /** With JavaScript: fill the form instead of following the link. */
  onChoose?: (suggestion: DaySuggestion) => void
  /** The location's form, where "Adjust position" is. */
  editLocationHref: string
  /** The list's heading level: under "Add service plan" (h5) in the form, under the page's title on its own page. */
  heading?: 'h2' | 'h6'
}) {
  if (!answer.ok) return <Alert tone="error">{answer.message}</Alert>
  const { result } = answer
  if (result.state === 'no-position') {
    return (
      <Alert tone="info">
        <p className="font-medium">This address has no map position yet</p>
        <p>
          Without one, no route can be measured. Open{' '}
          <Link to={editLocationHref} className="font-medium underline" preventScrollReset>
            Edit location
          </Link>{' '}
          and set it under "Adjust position" (or check the street and ZIP code), then ask again.
        </p>
      </Alert>
    )
  }
  if (result.state === 'no-technicians' || result.suggestions.length === 0) {
    return (
      <Alert tone="info">
        <p className="font-medium">No technicians to suggest</p>
        <p>
          Invite a technician under{' '}
          <Link to="/app/team" className="font-medium underline">
            Team
          </Link>
          , then ask again. The plan can be saved unassigned meanwhile.
        </p>
      </Alert>
    )
  }
  return (
    <section aria-labelledby="plan-suggestions-heading" className="space-y-2">
      <Heading id="plan-suggestions-heading" className="text-sm font-semibold">
        Suggested days and technicians
      </Heading>
      <p className="text-sm text-slate-600">
        Fewest extra minutes of driving first, on the routes from {formatLocalDate(result.from)} on.
      </p>
      <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200">
        {result.suggestions.map((suggestion) => {
          const label = `${suggestion.weekdayLabel}, ${suggestion.technicianName}`
          return (
            <li
              key={`${suggestion.weekday}-${suggestion.technicianId}`}
              className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm"
            >
              <div className="min-w-0">
                <p className="font-medium break-words">
                  {suggestion.weekdayLabel} · {suggestion.technicianName}
                </p>
                <p className="text-slate-600">
                  <span className="font-medium text-slate-900 tabular-nums">+{suggestion.extraMinutes} min</span> of
                  driving · {stopsText(suggestion.stops)} that day
                </p>
              </div>
              <Link
                to={chooseHref(suggestion)}
                className={buttonClass('secondary', 'min-h-11')}
                preventScrollReset
                onClick={(event: MouseEvent) => {
                  if (!onChoose) return
                  event.preventDefault()
                  onChoose(suggestion)
                }}
              >
                Choose<span className="sr-only">: {label}</span>
              </Link>
            </li>
          )
        })}
      </ol>
    </section>
  )
}
