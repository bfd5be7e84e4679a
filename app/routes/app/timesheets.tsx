// /app/timesheets — "Timesheets" (owners and admins; docs/time.md): one technician's week (`?technician=&week=`, any
// date of the week), each day's times from the phone's clock and the visits, "Edit" with a reason (kept in a history),
// "Approve week" / "Reopen week", overtime over 40 hours flagged, and the payroll export of approved weeks. Another
// company's technician (or anyone who is not a technician) is a 404; a technician or dispatcher gets the 403 card.
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { inputClass } from '~/components/ui/field'
import {
  ApproveWeekSchema,
  EditDaySchema,
  ReopenWeekSchema,
  TIMESHEET_INTENTS,
  TIMESHEET_MESSAGES,
  type TimesheetReply,
} from '~/features/time/timesheet-schema'
import { TimesheetWeek } from '~/features/time/timesheet-week'
import { listTimesheetTechnicians, weekTimesheet } from '~/models/timesheet.server'
import { approveWeek, editDay, reopenWeek } from '~/models/timesheet-edits.server'
import { mondayOf } from '~/models/week-board.server'
import { addDays, localDateAt, parseAddressDate } from '~/schedule/local-date'
import { formatLocalDate } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { type Failure, failureStatus } from '~/utils/result'
import type { Route } from './+types/timesheets'

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId, timezone } = await requireCompanyCapability(request, 'time:manage')
  const url = new URL(request.url)
  const today = localDateAt(new Date(), timezone)
  const weekParam = url.searchParams.get('week')
  const named = weekParam ? parseAddressDate(weekParam) : today
  if (!named) notFound()
  const weekStart = mondayOf(named)
  const technicians = await listTimesheetTechnicians(companyId)
  const asked = url.searchParams.get('technician')
  if (asked && !technicians.some((tech) => tech.id === asked)) notFound()
  const technicianId = asked ?? technicians[0]?.id ?? null
  const week = technicianId ? await weekTimesheet({ companyId, technicianId, weekStart, timezone }) : null
  if (technicianId && !week) notFound()
  return {
    timezone,
    weekStart,
    thisWeek: mondayOf(today),
    technicians: technicians.map((tech) => ({ id: tech.id, name: tech.fullName || tech.email })),
    technicianId,
    week,
  }
}

function refused(intent: string, outcome: Failure, submission: { reply: (o?: object) => unknown }, date?: string) {
  if (outcome.code === 'not-found') notFound()
  const result = outcome.field
    ? submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } })
    : submission.reply({ formErrors: [outcome.message] })
  return data<TimesheetReply>(
    { intent, date, ok: false, message: outcome.message, result: result as TimesheetReply['result'] },
    failureStatus(outcome),
  )
}

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'time:manage')
  const actor = { id: member.id, companyId: member.companyId, timezone: member.timezone }
  const formData = await readForm(request)
  const intent = formData.get('intent')
  if (intent === TIMESHEET_INTENTS.edit) {
    const submission = parseWithZod(formData, { schema: EditDaySchema })
    const date = String(formData.get('date') ?? '')
    if (submission.status !== 'success') {
      return data<TimesheetReply>({ intent, date, ok: false, message: '', result: submission.reply() }, 400)
    }
    const outcome = await editDay(actor, submission.value)
    if (!outcome.ok) return refused(intent, outcome, submission, date)
    return data<TimesheetReply>({
      intent,
      date,
      ok: true,
      message: TIMESHEET_MESSAGES.edited,
      result: submission.reply({ resetForm: true }),
    })
  }
  if (intent === TIMESHEET_INTENTS.approve) {
    const submission = parseWithZod(formData, { schema: ApproveWeekSchema })
    if (submission.status !== 'success') {
      return data<TimesheetReply>(
        { intent, ok: false, message: 'This week could not be read.', result: submission.reply() },
        400,
      )
    }
    const outcome = await approveWeek(actor, { ...submission.value, weekStart: mondayOf(submission.value.weekStart) })
    if (!outcome.ok) return refused(intent, outcome, submission)
    return data<TimesheetReply>({ intent, ok: true, message: TIMESHEET_MESSAGES.approved, result: submission.reply() })
  }
  if (intent === TIMESHEET_INTENTS.reopen) {
    const submission = parseWithZod(formData, { schema: ReopenWeekSchema })
    if (submission.status !== 'success') {
      return data<TimesheetReply>({ intent, ok: false, message: '', result: submission.reply() }, 400)
    }
    const outcome = await reopenWeek(actor, { ...submission.value, weekStart: mondayOf(submission.value.weekStart) })
    if (!outcome.ok) return refused(intent, outcome, submission)
    return data<TimesheetReply>({ intent, ok: true, message: TIMESHEET_MESSAGES.reopened, result: submission.reply() })
  }
  return unknownIntent()
}

export function meta() {
  return [{ title: 'Timesheets · Pool Bud' }]
}

export default function TimesheetsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { technicians, technicianId, week, weekStart, thisWeek, timezone } = loaderData
  const address = (start: string) => `?technician=${encodeURIComponent(technicianId ?? '')}&week=${start}`
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Timesheets</h1>
        <p className="text-sm text-slate-600">
          Each technician's week from their phone's “Start day” to “End day”, with the drive and on-site time of their
          visits. Approve a week to send it to payroll.
        </p>
      </div>
      {technicians.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          No technicians yet. Invite one from Team.
        </p>
      ) : (
        <>
          <Form method="get" className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="timesheet-technician" className="block text-sm font-medium text-slate-800">
                Technician
              </label>
              <select
                id="timesheet-technician"
                name="technician"
                defaultValue={technicianId ?? undefined}
                className={inputClass}
              >
                {technicians.map((tech) => (
                  <option key={tech.id} value={tech.id}>
                    {tech.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="timesheet-week" className="block text-sm font-medium text-slate-800">
                Week of
              </label>
              <input id="timesheet-week" name="week" type="date" defaultValue={weekStart} className={inputClass} />
            </div>
            <Button type="submit" variant="secondary">
              Show
            </Button>
          </Form>
          <nav aria-label="Weeks" className="flex flex-wrap gap-2 text-sm">
            <Link to={address(addDays(weekStart, -7))} className={buttonClass('ghost')}>
              ← Previous week
            </Link>
            {weekStart !== thisWeek ? (
              <Link to={address(thisWeek)} className={buttonClass('ghost')}>
                This week
              </Link>
            ) : null}
            <Link to={address(addDays(weekStart, 7))} className={buttonClass('ghost')}>
              Next week →
            </Link>
          </nav>
          {actionData?.ok ? <Alert tone="success">{actionData.message}</Alert> : null}
          {week ? <TimesheetWeek week={week} timezone={timezone} reply={actionData} /> : null}
        </>
      )}
      <section aria-labelledby="payroll-export" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
        <h2 id="payroll-export" className="text-lg font-semibold">
          Payroll export
        </h2>
        <p className="text-sm text-slate-600">
          Approved weeks only, one row per technician and day: regular and overtime hours, stops and gross pay, for your
          payroll service's hours import. Weeks not approved are left out.
        </p>
        <form method="get" action="/app/timesheets/payroll.csv" className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="payroll-from" className="block text-sm font-medium text-slate-800">
              Weeks from
            </label>
            <input id="payroll-from" name="from" type="date" defaultValue={weekStart} className={inputClass} />
          </div>
          <div>
            <label htmlFor="payroll-to" className="block text-sm font-medium text-slate-800">
              To
            </label>
            <input id="payroll-to" name="to" type="date" defaultValue={weekStart} className={inputClass} />
          </div>
          <Button type="submit" variant="secondary">
            Download CSV
          </Button>
        </form>
        <p className="text-xs text-slate-500">{`Weeks starting Monday ${formatLocalDate(weekStart)} by default.`}</p>
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
