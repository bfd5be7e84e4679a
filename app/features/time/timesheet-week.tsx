// The Timesheets page's week (docs/time.md): the week's totals with overtime flagged, "Approve week" (asked first) or
// "Reopen week" (with a reason), and each day: start, end, breaks, drive, on site, idle, its stops, "Edit" (a reason
// required) and the history of every edit under it.
import { getFormProps, getInputProps, getTextareaProps } from '@conform-to/react'
import { useState } from 'react'
import { Form } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Dialog } from '~/components/ui/dialog'
import { Field, FieldError, inputClass } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import type { WeekTimesheet } from '~/models/timesheet.server'
import { durationText } from '~/schedule/timesheet'
import { formatDateTime, formatLocalDate, formatTime, toZonedInputValue } from '~/utils/dates'
import { formatCents } from '~/utils/money'
import { EditDaySchema, ReopenWeekSchema, TIMESHEET_INTENTS, type TimesheetReply } from './timesheet-schema'

const KIND_LABELS = { start: 'Start', end: 'End', 'break-start': 'Break', 'break-end': 'Back' } as const
const STOP_STATES = { completed: 'Completed', skipped: 'Skipped', open: 'Not done' } as const

type Props = { week: WeekTimesheet; timezone: string; reply: TimesheetReply | undefined }

export function TimesheetWeek({ week, timezone, reply }: Props) {
  const { totals } = week
  return (
    <div className="space-y-4">
      <section aria-labelledby="week-totals" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
        <h2 id="week-totals" className="text-lg font-semibold">
          {`${week.technician.fullName} · week of ${formatLocalDate(week.weekStart)}`}
        </h2>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
          <Figure label="Worked" value={durationText(totals.workedMinutes)} />
          <Figure label="Regular" value={durationText(totals.regularMinutes)} />
          <Figure label="Overtime" value={durationText(totals.overtimeMinutes)} />
          <Figure label="Breaks" value={durationText(totals.breakMinutes)} />
          <Figure label="Drive" value={durationText(totals.driveMinutes)} />
          <Figure label="On site" value={durationText(totals.onSiteMinutes)} />
          <Figure label="Stops" value={`${totals.completed} completed, ${totals.skipped} skipped`} />
          <Figure
            label="Gross pay"
            value={week.technician.payType ? formatCents(totals.grossCents) : 'No pay type set'}
          />
        </dl>
        {week.overtime ? (
          <Alert tone="error">{`Overtime: ${durationText(totals.overtimeMinutes)} over 40 hours this week.`}</Alert>
        ) : null}
        <ApprovalControls week={week} timezone={timezone} reply={reply} />
      </section>
      <ol className="space-y-3">
        {week.days.map((day) => (
          <li key={day.date}>
            <DayCard day={day} week={week} timezone={timezone} reply={reply} />
          </li>
        ))}
      </ol>
    </div>
  )
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  )
}

function ApprovalControls({ week, timezone, reply }: Props) {
  const [asking, setAsking] = useState(false)
  const approving = usePosting(TIMESHEET_INTENTS.approve)
  const last = week.approvals[0]
  const answer =
    reply && (reply.intent === TIMESHEET_INTENTS.approve || reply.intent === TIMESHEET_INTENTS.reopen) ? reply : null
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-700">
        {week.approved && last
          ? `Approved by ${last.actedByName ?? 'someone'} on ${formatDateTime(last.actedAt, timezone)}. Its times are locked.`
          : 'Not approved yet.'}
      </p>
      {answer && !answer.ok && answer.message ? <Alert tone="error">{answer.message}</Alert> : null}
      {week.approved ? (
        <ReopenForm week={week} reply={answer ?? undefined} />
      ) : (
        <>
          <Button type="button" onClick={() => setAsking(true)} pending={approving} pendingLabel="Approving…">
            Approve week
          </Button>
          <Dialog open={asking} onClose={() => setAsking(false)} title="Approve this week?">
            <p className="text-sm text-slate-700">
              {`${durationText(week.totals.workedMinutes)} worked. Approved times are locked and go to the payroll export; “Reopen week” unlocks them with a reason.`}
            </p>
            <Form method="post" className="flex flex-wrap justify-end gap-2" onSubmit={() => setAsking(false)}>
              <input type="hidden" name="technicianId" value={week.technician.id} />
              <input type="hidden" name="weekStart" value={week.weekStart} />
              <Button type="button" variant="secondary" onClick={() => setAsking(false)}>
                Cancel
              </Button>
              <Button type="submit" name="intent" value={TIMESHEET_INTENTS.approve}>
                Approve week
              </Button>
            </Form>
          </Dialog>
        </>
      )}
      {week.approvals.length > 0 ? (
        <details className="text-sm">
          <summary className="min-h-11 cursor-pointer py-2 font-medium text-brand-700">Approval history</summary>
          <ul className="list-disc space-y-1 pl-5 text-slate-700">
            {week.approvals.map((step) => (
              <li key={step.actedAt.toISOString()}>
                {`${step.action === 'approve' ? 'Approved' : 'Reopened'} by ${step.actedByName ?? 'someone'}, ${formatDateTime(step.actedAt, timezone)}${step.reason ? `: “${step.reason}”` : ''}`}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  )
}

function ReopenForm({ week, reply }: { week: WeekTimesheet; reply: TimesheetReply | undefined }) {
  const [open, setOpen] = useState(false)
  const posting = usePosting(TIMESHEET_INTENTS.reopen)
  const [form, fields] = useZodForm(ReopenWeekSchema, {
    id: `reopen-${week.technician.id}-${week.weekStart}`,
    lastResult: reply?.intent === TIMESHEET_INTENTS.reopen ? reply.result : undefined,
  })
  if (!open && !fields.reason.errors) {
    return (
      <Button type="button" variant="secondary" onClick={() => setOpen(true)}>
        Reopen week
      </Button>
    )
  }
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-2">
      <input type="hidden" name="technicianId" value={week.technician.id} />
      <input type="hidden" name="weekStart" value={week.weekStart} />
      <FormErrors form={form} />
      <label htmlFor={fields.reason.id} className="block text-sm font-medium text-slate-800">
        Why reopen this week?
      </label>
      <textarea
        {...getTextareaProps(fields.reason)}
        rows={2}
        className={inputClass}
        aria-describedby={fields.reason.errors ? `${fields.reason.id}-error` : undefined}
      />
      <FieldError id={`${fields.reason.id}-error`} errors={fields.reason.errors} />
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          name="intent"
          value={TIMESHEET_INTENTS.reopen}
          pending={posting}
          pendingLabel="Reopening…"
        >
          Reopen week
        </Button>
        <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </Form>
  )
}

type Day = WeekTimesheet['days'][number]

function DayCard({ day, week, timezone, reply }: { day: Day } & Props) {
  const time = (at: Date | null) => (at ? formatTime(at, timezone) : '—')
  const headingId = `day-${day.date}`
  return (
    <article aria-labelledby={headingId} className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
      <h3 id={headingId} className="font-semibold text-slate-900">
        {new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
          new Date(`${day.date}T12:00:00Z`),
        )}
      </h3>
      {day.startAt ? (
        <>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
            <Figure label="Start" value={time(day.startAt)} />
            <Figure label="End" value={day.endAt ? time(day.endAt) : 'No end yet'} />
            <Figure label="Worked" value={durationText(day.workedMinutes)} />
            <Figure label="Breaks" value={durationText(day.breakMinutes)} />
            <Figure label="Drive" value={durationText(day.driveMinutes)} />
            <Figure label="On site" value={durationText(day.onSiteMinutes)} />
            <Figure label="Idle" value={durationText(day.idleMinutes)} />
            {day.overtimeMinutes > 0 ? <Figure label="Overtime" value={durationText(day.overtimeMinutes)} /> : null}
          </dl>
          {day.breaks.length > 0 ? (
            <p className="text-sm text-slate-700">
              {`Breaks: ${day.breaks.map((pause) => `${time(pause.from)}–${pause.to ? time(pause.to) : 'end'}`).join(', ')}`}
            </p>
          ) : null}
        </>
      ) : (
        <p className="text-sm text-slate-600">No time recorded.</p>
      )}
      {day.stops.length > 0 ? (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
          {day.stops.map((stop) => (
            <li key={stop.id} className="flex flex-wrap justify-between gap-x-3 gap-y-1 px-3 py-2">
              <span className="min-w-0 break-words font-medium">{`${stop.customerName} · ${STOP_STATES[stop.state]}`}</span>
              <span className="text-slate-700">
                {`On my way ${time(stop.onMyWayAt)} · arrived ${time(stop.arrivedAt)} · done ${time(stop.completedAt)} · drive ${durationText(stop.driveMinutes)}, on site ${durationText(stop.onSiteMinutes)}`}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {week.approved ? null : <EditDayForm day={day} week={week} timezone={timezone} reply={reply} />}
      {day.edits.length > 0 ? (
        <section aria-label={`Edits of ${day.date}`} className="text-sm">
          <h4 className="font-medium text-slate-800">History</h4>
          <ul className="list-disc space-y-1 pl-5 text-slate-700">
            {day.edits.map((edit) => (
              <li key={edit.id}>
                {`${KIND_LABELS[edit.kind]} ${edit.from ? `changed from ${time(edit.from)}` : 'added'} to ${time(edit.to)} by ${edit.byName ?? 'someone'}, ${formatDateTime(edit.at, timezone)}: “${edit.reason}”`}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  )
}

/** "HH:MM" of an instant on the company's wall clock, for a time input. */
function wallTime(at: Date | null, timeZone: string) {
  return at ? toZonedInputValue(at, timeZone).slice(11) : ''
}

function EditDayForm({ day, week, timezone, reply }: { day: Day } & Props) {
  const mine = reply?.intent === TIMESHEET_INTENTS.edit && reply.date === day.date ? reply : undefined
  const [open, setOpen] = useState(false)
  const posting = usePosting(TIMESHEET_INTENTS.edit)
  const [form, fields] = useZodForm(EditDaySchema, {
    id: `edit-${day.date}`,
    lastResult: mine?.result,
    defaultValue: { start: wallTime(day.startAt, timezone), end: wallTime(day.endAt, timezone), reason: '' },
  })
  if (!open && !(mine && !mine.ok)) {
    return (
      <Button type="button" variant="secondary" onClick={() => setOpen(true)} aria-label={`Edit ${day.date}`}>
        Edit
      </Button>
    )
  }
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3 rounded-lg bg-slate-50 p-3">
      <input type="hidden" name="technicianId" value={week.technician.id} />
      <input type="hidden" name="date" value={day.date} />
      <FormErrors form={form} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field
          label="Start"
          errors={fields.start.errors}
          inputProps={{ ...getInputProps(fields.start, { type: 'time' }) }}
        />
        <Field label="End" errors={fields.end.errors} inputProps={{ ...getInputProps(fields.end, { type: 'time' }) }} />
      </div>
      <div>
        <label htmlFor={fields.reason.id} className="block text-sm font-medium text-slate-800">
          Reason
        </label>
        <textarea
          {...getTextareaProps(fields.reason)}
          rows={2}
          className={inputClass}
          aria-describedby={fields.reason.errors ? `${fields.reason.id}-error` : undefined}
        />
        <FieldError id={`${fields.reason.id}-error`} errors={fields.reason.errors} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value={TIMESHEET_INTENTS.edit} pending={posting} pendingLabel="Saving…">
          Save times
        </Button>
        <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </Form>
  )
}
