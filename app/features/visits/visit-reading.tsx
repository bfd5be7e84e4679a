// "Chemical Test" on the visit page: the reading form and the visit's readings. With JavaScript the form is checked
// in the browser by the same ChemReadingSchema as the server, then queued on the phone (sent at once when online),
// and the reading is listed at once, marked "Waiting to send" until it has reached the server. Without JavaScript
// the form posts the 'reading' intent.
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Fragment } from 'react'
import { Form } from 'react-router'
import { z } from 'zod'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Field, TextField } from '~/components/ui/field'
import { FormErrors } from '~/components/ui/form'
import { DosingAdvice, ReadingStatuses } from '~/components/water-balance'
import { ChemReadingSchema } from '~/models/chem-reading'
import type { Advice } from '~/water/dosing'
import { adviceForLatest, type ReadingSummary } from '~/water/summary'
import type { PoolProfile } from '~/water/targets'
import { useQueuedForm } from './queued-form'
import type { Queued } from './use-visit-changes'

export const ReadingFormSchema = ChemReadingSchema.extend({ intent: z.literal('reading') })

export const READING_SAVED = 'Readings saved.'
/** Offline, "saved" would mislead: the reading is on the phone until the signal returns (issue 38 item 6). */
export const READING_SAVED_OFFLINE = 'Saved on this phone — sends when you are back online'

export type ReadingLog = {
  id: string
  takenAt: string
  ph: number
  chlorinePpm: number
  alkalinity: number
  cyanuricAcid: number | null
  calciumHardness: number | null
  salt: number | null
  waterTempF: number | null
  summary: ReadingSummary
}

/** A reading queued on this phone and not yet read back from the server. */
export type PendingReading = { key: string; fields: Record<string, string>; waiting: boolean }

export type ReadingReply = { intent: 'reading'; result: SubmissionResult<string[]>; ok: string | null }

const OPTIONAL_FIELDS = [
  ['cyanuricAcid', 'Cyanuric acid (ppm)'],
  ['calciumHardness', 'Calcium hardness (ppm)'],
  ['salt', 'Salt (ppm)'],
  ['waterTempF', 'Water temp (°F)'],
] as const

export function VisitReading({
  formKey,
  reply,
  busy,
  logs,
  pending,
  advice,
  pool,
  onQueue,
}: {
  formKey: string
  /** The 'reading' intent's answer (a plain form post). */
  reply: ReadingReply | undefined
  busy: boolean
  logs: readonly ReadingLog[]
  pending: readonly PendingReading[]
  /** The server's advice for its newest reading. */
  advice: Advice[] | null
  /** The pool the advice doses for: the phone works out the advice for a reading it has not sent yet. */
  pool: PoolProfile
  onQueue: (fields: Record<string, string>) => Promise<Queued>
}) {
  const { form, fields, queued, clearQueued } = useQueuedForm({
    id: 'reading',
    schema: ReadingFormSchema,
    lastResult: reply?.result,
    saved: READING_SAVED,
    savedOffline: READING_SAVED_OFFLINE,
    onQueue,
  })
  const shownAdvice = adviceOnThePhone(pending, pool) ?? advice
  const numeric = { inputMode: 'decimal' as const, step: 'any' }
  const saved = reply?.ok && !busy ? reply : null
  const idempotencyKey = useIdempotencyKey(formKey, saved)
  return (
    <Card className="space-y-4" aria-labelledby="reading-heading">
      <h2 id="reading-heading" className="text-lg font-semibold">
        Chemical Test
      </h2>
      <Form method="post" {...getFormProps(form)} className="space-y-3" onInput={clearQueued}>
        <input type="hidden" name="intent" value="reading" />
        <IdempotencyKeyInput value={idempotencyKey} />
        <div className="grid grid-cols-3 items-end gap-3">
          <Field label="pH" inputProps={{ ...getInputProps(fields.ph, { type: 'number' }), ...numeric }} />
          <Field
            label="Chlorine (ppm)"
            inputProps={{ ...getInputProps(fields.chlorinePpm, { type: 'number' }), ...numeric }}
          />
          <Field
            label="Alkalinity"
            inputProps={{ ...getInputProps(fields.alkalinity, { type: 'number' }), ...numeric }}
          />
        </div>
        <fieldset className="grid grid-cols-2 items-start gap-3 sm:grid-cols-4">
          <legend className="mb-2 text-sm text-slate-600">Optional: for the water balance</legend>
          {OPTIONAL_FIELDS.map(([name, label]) => (
            <TextField key={name} field={fields[name]} label={label} type="number" {...numeric} />
          ))}
        </fieldset>
        {/* One "fill in all readings" message rather than three identical ones; optional fields show theirs in place. */}
        <FormErrors form={form} fields={[fields.ph, fields.chlorinePpm, fields.alkalinity]} />
        {queued && 'error' in queued ? <Alert tone="error">{queued.error}</Alert> : null}
        {queued && 'ok' in queued ? <Alert tone="success">{queued.ok}</Alert> : null}
        {saved ? <Alert tone="success">{saved.ok}</Alert> : null}
        <Button type="submit" className="w-full" pending={busy} pendingLabel="Saving…">
          Save Reading
        </Button>
      </Form>
      <DosingAdvice advice={shownAdvice} hasReading={logs.length > 0 || pending.length > 0} />
      <ReadingList logs={logs} pending={pending} />
    </Card>
  )
}

/**
 * The advice for the newest reading still on the phone (pending is oldest first), worked out in the browser by the
 * same water module as the server's (app/water): offline too. Undefined when no reading is pending.
 */
export function adviceOnThePhone(pending: readonly PendingReading[], pool: PoolProfile) {
  const newest = pending.at(-1)
  if (!newest) return undefined
  const reading = ChemReadingSchema.safeParse(newest.fields)
  return reading.success ? adviceForLatest(reading.data, pool) : undefined
}

/** The visit's readings, newest first, with those still on the phone at the top. */
export function ReadingList({
  logs,
  pending,
  heading = true,
}: {
  logs: readonly ReadingLog[]
  pending: readonly PendingReading[]
  /** False where the list sits under a heading of its own (the summary's "Chemical Test"). */
  heading?: boolean
}) {
  if (logs.length === 0 && pending.length === 0) {
    return <p className="text-sm text-slate-600">No chemistry readings yet.</p>
  }
  return (
    <div>
      {heading ? <h3 className="mb-2 font-semibold">Readings</h3> : null}
      <table className="w-full text-left text-sm">
        <thead className="text-slate-600">
          <tr>
            <th className="py-1 font-medium">Time</th>
            <th className="py-1 font-medium">pH</th>
            <th className="py-1 font-medium">Cl</th>
            <th className="py-1 font-medium">Alk</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {[...pending].reverse().map((reading) => (
            <tr key={reading.key}>
              <td className="py-1.5">
                {reading.waiting ? <span className="font-medium text-amber-800">Waiting to send</span> : 'Just now'}
              </td>
              <td className="py-1.5">{reading.fields.ph}</td>
              <td className="py-1.5">{reading.fields.chlorinePpm}</td>
              <td className="py-1.5">{reading.fields.alkalinity}</td>
            </tr>
          ))}
          {logs.map((log) => (
            <Fragment key={log.id}>
              <tr>
                <td className="py-1.5">{log.takenAt}</td>
                <td className="py-1.5">{log.ph}</td>
                <td className="py-1.5">{log.chlorinePpm}</td>
                <td className="py-1.5">{log.alkalinity}</td>
              </tr>
              <tr className="border-t-0">
                <td colSpan={4} className="pb-2">
                  <ExtraReadings log={log} />
                  <ReadingStatuses summary={log.summary} />
                </td>
              </tr>
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The optional readings of a log, when any were taken. */
function ExtraReadings({ log }: { log: ReadingLog }) {
  const parts = [
    log.cyanuricAcid == null ? null : `CYA ${log.cyanuricAcid}`,
    log.calciumHardness == null ? null : `CH ${log.calciumHardness}`,
    log.salt == null ? null : `Salt ${log.salt}`,
    log.waterTempF == null ? null : `${log.waterTempF} °F`,
  ].filter(Boolean)
  return parts.length ? <p className="mb-1 text-xs text-slate-600">{parts.join(' · ')}</p> : null
}
