import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Fragment } from 'react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import { type CompanyMember, forbidden, requireViewableJob, requireWorkableJob } from '~/auth/guards.server'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { JobChemicals } from '~/components/job-chemicals'
import { RouteError } from '~/components/route-error'
import { SiteAccess } from '~/components/site-access'
import { StatusBadge } from '~/components/status-badge'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Field, inputClass } from '~/components/ui/field'
import { DosingAdvice, ReadingStatuses } from '~/components/water-balance'
import { ASSIGN_CONFLICT, expectedVersionOf } from '~/dashboards/dispatcher-dashboard.server'
import { moveVisitOnVisitPage } from '~/features/schedule/move-visit.server'
import { MoveVisitButton } from '~/features/schedule/move-visit-form'
import { cancelJobAction, skipVisitAction } from '~/features/visits/visit-actions.server'
import { VisitOutcome } from '~/features/visits/visit-outcome'
import { VisitPhotos } from '~/features/visits/visit-photos'
import { addChemLog, listChemLogsForJob } from '~/models/chem-log.server'
import { ChemReadingSchema } from '~/models/chem-reading'
import { addChemicalToJob, listChemicalsForJob } from '~/models/chemical-addition.server'
import { getCompanySummary } from '~/models/company.server'
import { oncePerKey, readIdempotencyKey } from '~/models/idempotency.server'
import { searchInventory } from '~/models/inventory.server'
import { assignJob, assignmentVersion, completeJob, jobStatus } from '~/models/job.server'
import { listVisitPhotos, shownPhoto } from '~/models/photo.server'
import { listTechnicians } from '~/models/profile.server'
import { visitState } from '~/models/visit.server'
import { localDateAt } from '~/schedule/local-date'
import { CHEMICAL_MESSAGES, ChemicalAdditionSchema } from '~/utils/chemicals'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { formatDateTime, fromZonedInputValue, toZonedInputValue } from '~/utils/dates'
import { readForm } from '~/utils/forms'
import { can, type Role } from '~/utils/permissions'
import { failureStatus } from '~/utils/result'
import { SERVICE_CHECKLIST } from '~/utils/service-checklist'
import { adviceForLatest, describePool, summariseReading } from '~/water/summary'
import { type PoolProfile, poolProfileOf } from '~/water/targets'
import type { Route } from './+types/job'

const ReadingFormSchema = ChemReadingSchema.extend({ intent: z.literal('reading') })

export async function loader({ request, params }: Route.LoaderArgs) {
  const { viewer, job, company } = await requireViewableJob(request, params.jobId)
  const canManage = !viewer.readOnly && can(viewer.role as Role, 'jobs:manage')
  const [logs, technicians, chemicals, stock, photos] = await Promise.all([
    listChemLogsForJob({ companyId: job.companyId, jobId: job.id }),
    canManage ? listTechnicians(job.companyId) : Promise.resolve([]),
    listChemicalsForJob({ companyId: job.companyId, jobId: job.id }),
    // The stock picker, for those who can record chemicals (never the platform admin's read-only view).
    viewer.readOnly ? Promise.resolve([]) : searchInventory({ companyId: job.companyId }),
    listVisitPhotos({ companyId: job.companyId, jobId: job.id }),
  ])
  const timezone = company.timezone
  const pool: PoolProfile = poolProfileOf(job)
  // "Move visit" (OPERATIONS §4): office roles, for a visit still to be done.
  const move =
    canManage && !job.completedAt && !job.cancelledAt
      ? {
          visit: {
            id: job.id,
            customerName: job.customerName,
            date: localDateAt(job.scheduledAt, timezone),
            technicianId: job.technicianId,
            recurring: job.planId !== null,
          },
          today: localDateAt(new Date(), timezone),
        }
      : null
  const state = visitState(job)
  return {
    canManage,
    move,
    // Skip: the office, or the visit's own technician (the only one who gets this far); cancel: the office.
    canSkip: !viewer.readOnly && state === 'open',
    canCancel: canManage && state === 'open',
    readOnly: viewer.readOnly,
    companyName: viewer.readOnly ? company.name : null,
    job: {
      id: job.id,
      customerName: job.customerName,
      address: job.address,
      scheduled: formatDateTime(job.scheduledAt, timezone),
      scheduledInput: toZonedInputValue(job.scheduledAt, timezone),
      version: assignmentVersion(job),
      completed: job.completedAt ? formatDateTime(job.completedAt, timezone) : null,
      status: jobStatus(job),
      state,
      skipReason: job.skipReason,
      technicianId: job.technicianId,
      technicianName: job.technicianName,
      technicianPhone: job.technicianPhone,
      // Gate code and access notes: staff of the job's company only (null for a platform admin's look).
      access: job.access,
      pool: describePool(pool),
    },
    // URLs of the authorised photo route, never storage keys or public links.
    photos: photos.map((photo) => shownPhoto(job.id, photo)),
    logs: logs.map((log) => ({
      ...log,
      takenAt: formatDateTime(log.takenAt, timezone),
      summary: summariseReading(log, pool),
    })),
    // Doses for the newest reading (logs are newest first) and this pool's volume.
    advice: adviceForLatest(logs[0], pool),
    technicians: technicians.map((t) => ({ id: t.id, name: t.fullName ?? t.email })),
    chemicals: chemicals.map(({ addedAt: _, ...chemical }) => chemical),
    stock: stock.map((item) => ({ id: item.id, name: item.name, qty: item.qty })),
    // Idempotency keys of the reading and chemical forms: new ones for every page load.
    formKeys: { reading: crypto.randomUUID(), chemical: crypto.randomUUID() },
  }
}

async function saveAssignment(member: CompanyMember, jobId: string, formData: FormData) {
  if (!can(member.role, 'jobs:manage')) forbidden('no-access')
  const company = await getCompanySummary(member.companyId)
  const scheduledAt = fromZonedInputValue(String(formData.get('scheduledAt') ?? ''), company?.timezone ?? 'UTC')
  const technicianId = String(formData.get('technicianId') ?? '') || null
  if (!scheduledAt) return data({ intent: 'assign', error: 'Choose a date and time.', ok: null }, 400)
  const outcome = await assignJob({
    companyId: member.companyId,
    jobId,
    technicianId,
    scheduledAt,
    ...expectedVersionOf(formData),
  })
  if (outcome === 'conflict') return data({ intent: 'assign', error: ASSIGN_CONFLICT, ok: null }, 409)
  if (outcome === 'refused')
    return data({ intent: 'assign', error: 'Unable to save changes to this job.', ok: null }, 400)
  return { intent: 'assign', error: null, ok: 'Job updated.' }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { member, job } = await requireWorkableJob(request, params.jobId)
  const formData = await readForm(request)
  const intent = formData.get('intent')

  if (intent === 'complete') {
    await completeJob({ companyId: member.companyId, jobId: job.id, completedBy: member.id })
    // SPEC §4 / ARCHITECTURE §4: Mark Complete returns to the dashboard.
    throw redirect('/app')
  }
  if (intent === 'assign') return saveAssignment(member, job.id, formData)
  if (intent === 'move-visit') return moveVisitOnVisitPage(member, job.id, formData)
  if (intent === 'skip-visit') return skipVisitAction(member, job.id, formData)
  if (intent === 'cancel-job') return cancelJobAction(member, job.id)
  if (intent === 'reading') {
    const submission = parseWithZod(formData, { schema: ReadingFormSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
    const idempotency = readIdempotencyKey(formData)
    if (!idempotency.ok) {
      return data({ intent, result: submission.reply({ formErrors: [idempotency.message] }), ok: null }, 400)
    }
    try {
      // The same reading sent again (same key) is saved once.
      const saved = await oncePerKey(
        { companyId: member.companyId, key: idempotency.key, action: 'reading.create' },
        async (tx) => {
          const row = await addChemLog({ companyId: member.companyId, jobId: job.id, reading: submission.value }, tx)
          return { ok: true as const, readingId: row?.id }
        },
      )
      if (!saved.ok) {
        return data(
          { intent, result: submission.reply({ formErrors: [saved.message] }), ok: null },
          failureStatus(saved),
        )
      }
    } catch (error) {
      throwIfDatabaseUnavailable(error)
      return data({ intent, result: submission.reply({ formErrors: ['Unable to save reading.'] }), ok: null }, 500)
    }
    return { intent, result: submission.reply({ resetForm: true }), ok: 'Readings saved.' }
  }
  if (intent === 'chemical') {
    const submission = parseWithZod(formData, { schema: ChemicalAdditionSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply(), ok: null }, 400)
    const idempotency = readIdempotencyKey(formData)
    if (!idempotency.ok) {
      return data({ intent, result: submission.reply({ formErrors: [idempotency.message] }), ok: null }, 400)
    }
    try {
      // The same addition sent again (same key) is recorded, and taken off stock, once.
      const outcome = await oncePerKey(
        { companyId: member.companyId, key: idempotency.key, action: 'chemical.add' },
        (tx) =>
          addChemicalToJob(
            { companyId: member.companyId, jobId: job.id, input: submission.value, userId: member.id },
            tx,
          ),
      )
      if (!outcome.ok) {
        const errors =
          'field' in outcome
            ? { fieldErrors: { [outcome.field]: [outcome.message] } }
            : { formErrors: [outcome.message] }
        return data(
          { intent, result: submission.reply(errors), ok: null },
          'code' in outcome ? failureStatus(outcome) : 400,
        )
      }
    } catch (error) {
      throwIfDatabaseUnavailable(error)
      return data({ intent, result: submission.reply({ formErrors: [CHEMICAL_MESSAGES.saveFailed] }), ok: null }, 500)
    }
    return { intent, result: submission.reply({ resetForm: true }), ok: CHEMICAL_MESSAGES.saved }
  }
  return data({ intent: 'unknown', error: 'Unknown action.', ok: null }, 400)
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.job.customerName} · Job · Pool Bud` : 'Job · Pool Bud' }]
}

export default function JobPage({ loaderData, actionData }: Route.ComponentProps) {
  const { job, logs, advice, canManage, technicians, photos, readOnly, companyName, chemicals, stock } = loaderData
  const navigation = useNavigation()
  const busyIntent = navigation.state !== 'idle' ? navigation.formData?.get('intent') : null
  return (
    <div className="space-y-5">
      <Link to="/app" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700">
        ← Back to dashboard
      </Link>
      <Card className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold">{job.customerName}</h1>
          <StatusBadge status={job.status} />
          {job.technicianId ? null : <StatusBadge status="Unassigned" />}
        </div>
        {companyName ? <p className="text-sm font-medium text-brand-700">{companyName} · read-only</p> : null}
        <p className="text-slate-700">{job.address}</p>
        <p className="text-slate-700">Scheduled {job.scheduled}</p>
        <p className="text-slate-700">
          {job.technicianName ? `Technician: ${job.technicianName}` : 'Unassigned'}
          {job.technicianPhone ? ` · ${job.technicianPhone}` : ''}
        </p>
        <p className="text-slate-700">{job.pool ? `Pool: ${job.pool}` : 'Pool: no profile yet'}</p>
        {job.completed ? <p className="font-medium text-emerald-800">Completed {job.completed}</p> : null}
        {job.skipReason ? <p className="font-medium text-amber-800">Skipped: {job.skipReason}</p> : null}
        {job.access ? <SiteAccess access={job.access} className="mt-3 rounded-lg bg-slate-50 p-3" /> : null}
        {loaderData.move ? (
          <MoveVisitButton
            action={`/app/jobs/${job.id}`}
            visit={loaderData.move.visit}
            technicians={technicians}
            today={loaderData.move.today}
          />
        ) : null}
      </Card>

      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <Card className="space-y-3">
          <h2 className="text-lg font-semibold">Service checklist</h2>
          <ul className="space-y-2">
            {SERVICE_CHECKLIST.map((item) => (
              <li key={item}>
                <label className="flex min-h-11 items-center gap-3 rounded-lg px-2 hover:bg-slate-50">
                  <input type="checkbox" className="size-5 accent-brand-700" defaultChecked={Boolean(job.completed)} />
                  <span>{item}</span>
                </label>
              </li>
            ))}
          </ul>
          {job.state !== 'open' || readOnly ? null : (
            <Form method="post">
              <input type="hidden" name="intent" value="complete" />
              <Button type="submit" className="w-full" pending={busyIntent === 'complete'} pendingLabel="Completing…">
                Mark Complete
              </Button>
            </Form>
          )}
        </Card>

        <ChemistryCard
          formKey={loaderData.formKeys.reading}
          actionData={actionData}
          busy={busyIntent === 'reading'}
          logs={logs}
          advice={advice}
          readOnly={readOnly}
        />
      </div>

      <VisitPhotos key={job.id} visitId={job.id} photos={photos} readOnly={readOnly || job.state !== 'open'} />

      <JobChemicals
        key={`chemicals-${job.id}`}
        chemicals={chemicals}
        stock={stock}
        readOnly={readOnly}
        formKey={loaderData.formKeys.chemical}
      />

      <VisitOutcome canSkip={loaderData.canSkip} canCancel={loaderData.canCancel} actionData={actionData} />

      {canManage && job.state === 'open' ? (
        <Card className="space-y-3">
          <h2 className="text-lg font-semibold">Assign and reschedule</h2>
          <Form method="post" className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
            <input type="hidden" name="intent" value="assign" />
            <input type="hidden" name="version" value={job.version} />
            <label className="space-y-1 text-sm font-medium">
              <span>Technician</span>
              <select name="technicianId" defaultValue={job.technicianId ?? ''} className={inputClass}>
                <option value="">Unassigned</option>
                {technicians.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="space-y-1 text-sm font-medium">
              <span>Scheduled for</span>
              <input
                type="datetime-local"
                name="scheduledAt"
                defaultValue={job.scheduledInput}
                className={inputClass}
                required
              />
            </label>
            <Button type="submit" pending={busyIntent === 'assign'} pendingLabel="Saving…">
              Save
            </Button>
          </Form>
          {actionData?.intent === 'assign' && 'error' in actionData && actionData.error ? (
            <Alert tone="error">{actionData.error}</Alert>
          ) : null}
          {actionData?.intent === 'assign' && actionData.ok ? <Alert tone="success">{actionData.ok}</Alert> : null}
        </Card>
      ) : null}
    </div>
  )
}

type Log = Route.ComponentProps['loaderData']['logs'][number]

const OPTIONAL_FIELDS = [
  ['cyanuricAcid', 'Cyanuric acid (ppm)'],
  ['calciumHardness', 'Calcium hardness (ppm)'],
  ['salt', 'Salt (ppm)'],
  ['waterTempF', 'Water temp (°F)'],
] as const

function ChemistryCard({
  formKey,
  actionData,
  busy,
  logs,
  advice,
  readOnly,
}: {
  formKey: string
  actionData: Route.ComponentProps['actionData']
  busy: boolean
  logs: Log[]
  advice: Route.ComponentProps['loaderData']['advice']
  readOnly: boolean
}) {
  const lastResult = actionData?.intent === 'reading' && 'result' in actionData ? actionData.result : undefined
  const [form, fields] = useForm<z.infer<typeof ReadingFormSchema>>({
    id: 'reading',
    lastResult,
    constraint: getZodConstraint(ReadingFormSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReadingFormSchema }),
  })
  const fieldErrors = [fields.ph.errors, fields.chlorinePpm.errors, fields.alkalinity.errors].flat().filter(Boolean)
  // One "fill in all readings" message rather than three identical ones; optional fields show theirs in place.
  const messages = [...new Set([...(form.errors ?? []), ...(fieldErrors as string[])])]
  const numeric = { inputMode: 'decimal' as const, step: 'any' }
  const saved = actionData?.intent === 'reading' && actionData.ok && !busy ? actionData : null
  const idempotencyKey = useIdempotencyKey(formKey, saved)
  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold">Chemical Test</h2>
      <Form method="post" {...getFormProps(form)} className="space-y-3" hidden={readOnly}>
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
            <Field
              key={name}
              label={label}
              errors={fields[name].errors}
              inputProps={{ ...getInputProps(fields[name], { type: 'number' }), ...numeric }}
            />
          ))}
        </fieldset>
        {messages.length ? <Alert tone="error">{messages.join(' ')}</Alert> : null}
        {actionData?.intent === 'reading' && actionData.ok && !busy ? (
          <Alert tone="success">{actionData.ok}</Alert>
        ) : null}
        <Button type="submit" className="w-full" pending={busy} pendingLabel="Saving…">
          Save Reading
        </Button>
      </Form>
      {readOnly ? null : <DosingAdvice advice={advice} hasReading={logs.length > 0} />}
      <div>
        <h3 className="mb-2 font-semibold">Recent Logs</h3>
        {logs.length === 0 ? (
          <p className="text-sm text-slate-600">No chemistry readings yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1 font-medium">Time</th>
                <th className="py-1 font-medium">pH</th>
                <th className="py-1 font-medium">Cl</th>
                <th className="py-1 font-medium">Alk</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
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
        )}
      </div>
    </Card>
  )
}

/** The optional readings of a log, when any were taken. */
function ExtraReadings({ log }: { log: Log }) {
  const parts = [
    log.cyanuricAcid == null ? null : `CYA ${log.cyanuricAcid}`,
    log.calciumHardness == null ? null : `CH ${log.calciumHardness}`,
    log.salt == null ? null : `Salt ${log.salt}`,
    log.waterTempF == null ? null : `${log.waterTempF} °F`,
  ].filter(Boolean)
  return parts.length ? <p className="mb-1 text-xs text-slate-600">{parts.join(' · ')}</p> : null
}

export function ErrorBoundary() {
  return <RouteError />
}
