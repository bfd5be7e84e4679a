// "Assign and reschedule" (docs/product.md "Forms"): a technician ("Unassigned" for none) and the date and time. The
// visit page shows it with its labels; each row of the dispatcher dashboard's unassigned list shows it compact, its
// labels read out with the customer's name and saved through the row's own fetcher. Both post intent 'assign' with the
// visit's version, so a visit changed meanwhile is not overwritten. Errors show at their field; a refusal of the whole save
// (a conflict, a visit no longer open) in the alert below.
import { getFormProps } from '@conform-to/react'
import { type FetcherWithComponents, Form } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { SelectField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import type { AssignVisitReply } from './assign-visit.server'
import { ASSIGN_VISIT_INTENT, AssignVisitSchema } from './assign-visit-schema'
import { TechnicianOptions } from './technician-options'

export type AssignableVisit = { id: string; version: string; technicianId?: string | null; scheduledInput: string }

export function AssignVisitForm({
  visit,
  technicians,
  reply,
  row,
}: {
  visit: AssignableVisit
  technicians: ReadonlyArray<{ id: string; name: string }>
  /** The visit page's answer to its last post (the form posts to the page). */
  reply?: AssignVisitReply | undefined
  /** A row of a list: saves through `fetcher`, posts the visit's id, labels name `customerName`. */
  row?: { customerName: string; fetcher: FetcherWithComponents<AssignVisitReply> }
}) {
  // Hooks run on every render: the page's post is looked at even when a row's fetcher is what saves.
  const posting = usePosting(ASSIGN_VISIT_INTENT, { untilReloaded: true })
  const busy = row ? row.fetcher.state !== 'idle' : posting
  const answer = row ? row.fetcher.data : reply
  const [form, fields] = useZodForm(AssignVisitSchema, {
    id: `assign-${visit.id}`,
    lastResult: answer?.result,
    defaultValue: { technicianId: visit.technicianId ?? '', scheduledAt: visit.scheduledInput },
  })
  const PostForm = row ? row.fetcher.Form : Form
  return (
    <>
      <PostForm
        method="post"
        {...getFormProps(form)}
        className={cn('grid sm:grid-cols-[1fr_1fr_auto]', row ? 'gap-2' : 'gap-3 sm:items-end')}
      >
        <input type="hidden" name="intent" value={ASSIGN_VISIT_INTENT} />
        {row ? <input type="hidden" name="visitId" value={visit.id} /> : null}
        <input type="hidden" name="version" value={visit.version} />
        <SelectField
          field={fields.technicianId}
          label={row ? `Technician for ${row.customerName}` : 'Technician'}
          hideLabel={Boolean(row)}
        >
          <TechnicianOptions technicians={technicians} />
        </SelectField>
        <TextField
          field={fields.scheduledAt}
          type="datetime-local"
          label={row ? `Scheduled time for ${row.customerName}` : 'Scheduled for'}
          hideLabel={Boolean(row)}
        />
        <Button type="submit" variant={row ? 'secondary' : 'primary'} pending={busy} pendingLabel="Saving…">
          Save
        </Button>
      </PostForm>
      <FormErrors form={form} />
      {answer?.ok && !busy ? <Alert tone="success">{answer.ok}</Alert> : null}
    </>
  )
}
