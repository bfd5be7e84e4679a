// /app/schedule/balance/:date ("Balance the day", docs/routing.md "Balancing"): a preview of moving the day's visits
// between its technicians to cut the total driving while keeping every window and working hours, with "Apply" and
// "Undo". Only that day's visits move.
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
import { mondayOf } from '~/models/week-board.server'
import { parseAddressDate } from '~/schedule/local-date'
import { formatTime } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import type { Route } from './+types/schedule-balance'

async function requireDay(request: Request, params: { date: string }) {
  const member = await requireCompanyCapability(request, 'visits:manage')
  const date = parseAddressDate(params.date)
  if (!date) notFound()
  return { member, date }
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { member, date } = await requireDay(request, params)
  const [result, applied] = await Promise.all([
    previewBalance({ companyId: member.companyId, timezone: member.timezone, date, kind: 'balance' }),
    lastApplied({ companyId: member.companyId, date, kind: 'balance', coveredTechnicianId: null }),
  ])
  return {
    date,
    fullDate: formatFullDate(date),
    weekStart: mondayOf(date),
    preview: result.ok ? previewView(result.preview) : null,
    problem: result.ok ? null : result.message,
    applied: applied ? { id: applied.id, at: formatTime(applied.createdAt, member.timezone) } : null,
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { member, date } = await requireDay(request, params)
  return balanceIntent(member, await readForm(request), { date, kind: 'balance', coveredTechnicianId: null })
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Balance the day · ${data.fullDate} · Pool Bud` : 'Balance the day · Pool Bud' }]
}

const linkClass = cn('text-sm font-medium text-brand-700 hover:underline', textLinkTarget)

export default function BalanceDayPage({ loaderData, actionData }: Route.ComponentProps) {
  const { preview } = loaderData
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link to={`/app/schedule?week=${loaderData.weekStart}`} className={linkClass}>
          ← Back to schedule
        </Link>
        <h1 className="text-2xl font-bold">Balance the day</h1>
        <p className="text-slate-700">{loaderData.fullDate}</p>
        <p className="max-w-prose text-sm text-slate-700">
          Moves this day’s visits between its technicians where that cuts the total driving, keeping every appointment,
          arrival window and technician’s working hours. Completed, started and skipped visits stay.
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
      {preview && preview.technicians.length < 2 ? (
        <Card>
          <p className="text-slate-700">
            Fewer than two technicians have visits on this day: there is nothing to balance.
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
