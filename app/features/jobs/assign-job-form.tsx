// "Assign and reschedule" (SPEC §5): a technician ("Unassigned" for none) and the date and time. The visit page shows
// it with its labels; each row of the dispatcher dashboard's unassigned list shows it compact, its labels read out
// with the customer's name and saved through the row's own fetcher. Both post intent 'assign' with the job's
// version, so a job changed meanwhile is not overwritten. Errors show at their field; a refusal of the whole save
// (a conflict, a job no longer open) in the alert below.
import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { type FetcherWithComponents, Form, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { FieldError, inputClass } from '~/components/ui/field'
import type { AssignJobReply } from './assign-job.server'
import { ASSIGN_JOB_INTENT, AssignJobSchema } from './assign-job-schema'
import { TechnicianOptions } from './technician-options'

export type AssignableJob = { id: string; version: string; technicianId?: string | null; scheduledInput: string }

export function AssignJobForm({
  job,
  technicians,
  reply,
  row,
}: {
  job: AssignableJob
  technicians: ReadonlyArray<{ id: string; name: string }>
  /** The visit page's answer to its last post (the form posts to the page). */
  reply?: AssignJobReply | undefined
  /** A row of a list: saves through `fetcher`, posts the job's id, labels name `customerName`. */
  row?: { customerName: string; fetcher: FetcherWithComponents<AssignJobReply> }
}) {
  const navigation = useNavigation()
  const busy = row
    ? row.fetcher.state !== 'idle'
    : navigation.state !== 'idle' && navigation.formData?.get('intent') === ASSIGN_JOB_INTENT
  const answer = row ? row.fetcher.data : reply
  const [form, fields] = useForm({
    id: `assign-${job.id}`,
    lastResult: answer?.result,
    defaultValue: { technicianId: job.technicianId ?? '', scheduledAt: job.scheduledInput },
    constraint: getZodConstraint(AssignJobSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AssignJobSchema }),
  })
  const PostForm = row ? row.fetcher.Form : Form
  const { key: technicianKey, ...technicianProps } = getSelectProps(fields.technicianId)
  const { key: scheduledKey, ...scheduledProps } = getInputProps(fields.scheduledAt, { type: 'datetime-local' })
  const labelClass = row ? 'sr-only' : 'block'
  return (
    <>
      <PostForm
        method="post"
        {...getFormProps(form)}
        className={cn('grid sm:grid-cols-[1fr_1fr_auto]', row ? 'gap-2' : 'gap-3 sm:items-end')}
      >
        <input type="hidden" name="intent" value={ASSIGN_JOB_INTENT} />
        {row ? <input type="hidden" name="jobId" value={job.id} /> : null}
        <input type="hidden" name="version" value={job.version} />
        <div className={cn('space-y-1 text-sm', !row && 'font-medium')}>
          <label htmlFor={fields.technicianId.id} className={labelClass}>
            {row ? `Technician for ${row.customerName}` : 'Technician'}
          </label>
          <select key={technicianKey} {...technicianProps} className={inputClass}>
            <TechnicianOptions technicians={technicians} />
          </select>
          <FieldError id={fields.technicianId.errorId} errors={fields.technicianId.errors} />
        </div>
        <div className={cn('space-y-1 text-sm', !row && 'font-medium')}>
          <label htmlFor={fields.scheduledAt.id} className={labelClass}>
            {row ? `Scheduled time for ${row.customerName}` : 'Scheduled for'}
          </label>
          <input key={scheduledKey} {...scheduledProps} className={inputClass} />
          <FieldError id={fields.scheduledAt.errorId} errors={fields.scheduledAt.errors} />
        </div>
        <Button type="submit" variant={row ? 'secondary' : 'primary'} pending={busy} pendingLabel="Saving…">
          Save
        </Button>
      </PostForm>
      {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
      {answer?.ok && !busy ? <Alert tone="success">{answer.ok}</Alert> : null}
    </>
  )
}
