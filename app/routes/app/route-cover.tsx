// /app/schedule/:technicianId/:date/cover ("Cover this day", docs/routing.md "Balancing"): a sick day or a broken
// truck. Previews spreading all the technician's open stops over the other technicians working that day (cheapest
// insertion that keeps their windows and hours, then improvement), with where each stop goes and everyone's miles;
// "Apply" and "Undo". A stop no one can reach in time is named and stays.
import { Link } from 'react-router'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import { balanceIntent, previewView } from '~/features/schedule/balance-intent.server'
import { BalanceAnswer, BalancePreviewCard } from '~/features/schedule/balance-view'
import { formatFullDate } from '~/features/schedule/route-order'
import { lastApplied } from '~/models/day-balance.server'
import { previewBalance } from '~/models/day-balance-preview.server'
import { listTechnicians } from '~/models/week-board.server'
import { parseAddressDate } from '~/schedule/local-date'
import { formatTime } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import type { Route } from './+types/route-cover'

/** One of the company's technicians on a real date, or a 404. */
async function requireTechnicianDay(request: Request, params: { technicianId: string; date: string }) {
  const member = await requireCompanyCapability(request, 'visits:manage')
  const date = parseAddressDate(params.date)
  if (!date) notFound()
  const technician = (await listTechnicians(member.companyId)).find((candidate) => candidate.id === params.technicianId)
  if (!technician) notFound()
  return { member, date, technician: { id: technician.id, name: technician.name ?? technician.email } }
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { member, date, technician } = await requireTechnicianDay(request, params)
  const [result, applied] = await Promise.all([
    previewBalance({
      companyId: member.companyId,
      timezone: member.timezone,
      date,
      kind: 'cover',
      coveredTechnicianId: technician.id,
    }),
    lastApplied({ companyId: member.companyId, date, kind: 'cover', coveredTechnicianId: technician.id }),
  ])
  return {
    technician,
    date,
    fullDate: formatFullDate(date),
    preview: result.ok ? previewView(result.preview) : null,
    problem: result.ok ? null : result.message,
    applied: applied ? { id: applied.id, at: formatTime(applied.createdAt, member.timezone) } : null,
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { member, date, technician } = await requireTechnicianDay(request, params)
  return balanceIntent(member, await readForm(request), { date, kind: 'cover', coveredTechnicianId: technician.id })
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Cover this day · ${data.technician.name} · Pool Bud` : 'Cover this day · Pool Bud' }]
}

const linkClass = cn('text-sm font-medium text-brand-700 hover:underline', textLinkTarget)

export default function CoverDayPage({ loaderData, actionData }: Route.ComponentProps) {
  const { technician, preview } = loaderData
  const others = preview ? preview.technicians.length - 1 : 0
  const stops = preview?.technicians.find((row) => row.id === technician.id)?.stopsBefore ?? 0
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link to={`/app/schedule/${technician.id}/${loaderData.date}`} className={linkClass}>
          ← Back to the route
        </Link>
        <h1 className="text-2xl font-bold break-words">
          Cover this day <span className="font-normal text-slate-600">· {technician.name}</span>
        </h1>
        <p className="text-slate-700">{loaderData.fullDate}</p>
        <p className="max-w-prose text-sm text-slate-700">
          Spreads {technician.name}’s open stops over the other technicians working this day, each where it adds the
          least driving while keeping every appointment, arrival window and working hours.
        </p>
      </div>
      {actionData ? (
        <BalanceAnswer reply={actionData} />
      ) : loaderData.applied ? (
        <BalanceAnswer
          reply={{ tone: 'success', message: `Applied at ${loaderData.applied.at}.`, undo: loaderData.applied.id }}
        />
      ) : null}
      {loaderData.problem ? <Alert tone="error">{loaderData.problem}</Alert> : null}
      {preview && (others < 1 || (stops === 0 && !actionData)) ? (
        <Card>
          <p className="text-slate-700">
            {stops === 0
              ? `${technician.name} has no open stops on this day.`
              : 'No other technician has visits on this day to take the stops.'}
          </p>
        </Card>
      ) : preview ? (
        <BalancePreviewCard preview={preview} applyLabel="Apply" />
      ) : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
