// One company on the staff page: rename it, see its card-provider account id (read-only: the owner sets it, F12),
// its owners, and "Assign owner" to one of its teammates.
import { getFormProps } from '@conform-to/react'
import { useFetcher } from 'react-router'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { SelectField, TextField } from '~/components/ui/field'
import { useZodForm } from '~/components/ui/form'
import { ROLE_LABELS, type Role } from '~/utils/permissions'
import type { CompanySetupData } from './company-setup.server'
import { AssignOwnerSchema, type StaffReply, shortId, UpdateCompanySchema } from './company-setup-schema'
import { ReplyAlert, useShownReply } from './staff-reply'

type Company = CompanySetupData['companies'][number]

export function CompanyCard({ company }: { company: Company }) {
  return (
    <li>
      <Card className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-base font-semibold">{company.name}</h3>
          <p className="text-xs text-slate-500">
            <span className="font-mono">{company.id}</span> · since {company.created}
          </p>
        </div>
        <RenameForm company={company} />
        <div className="grid gap-4 border-t border-slate-100 pt-4 sm:grid-cols-2">
          <div className="space-y-1 text-sm">
            <h4 className="font-medium text-slate-800">Owner</h4>
            {company.owners.length === 0 ? (
              <p className="text-slate-600">No owner assigned.</p>
            ) : (
              company.owners.map((owner) => (
                <div key={owner.id} className="text-slate-700">
                  <p className="font-medium">{owner.fullName ?? owner.email}</p>
                  <p className="break-all">{owner.email}</p>
                  {owner.phone ? <p>{owner.phone}</p> : null}
                  {owner.address ? <p>{owner.address}</p> : null}
                </div>
              ))
            )}
          </div>
          <AssignOwnerForm company={company} />
        </div>
      </Card>
    </li>
  )
}

function RenameForm({ company }: { company: Company }) {
  const edit = useFetcher<StaffReply>({ key: `company-${company.id}` })
  const [reply, clear] = useShownReply(edit)
  const [form, fields] = useZodForm(UpdateCompanySchema, {
    id: `company-${company.id}`,
    lastResult: edit.state === 'idle' ? edit.data?.result : undefined,
    defaultValue: { name: company.name },
  })
  return (
    <>
      <edit.Form
        method="post"
        {...getFormProps(form)}
        className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
        onChange={clear}
      >
        <input type="hidden" name="intent" value="update-company" />
        <input type="hidden" name="companyId" value={company.id} />
        <TextField field={fields.name} label="Company name" />
        <Button type="submit" variant="secondary" pending={edit.state !== 'idle'} pendingLabel="Saving…">
          Save
        </Button>
      </edit.Form>
      <p className="text-sm text-slate-700">
        <span className="font-medium text-slate-800">Card-provider account id:</span>{' '}
        <span className="break-all font-mono">{company.stripeAccountId ?? 'None'}</span>
        <span className="block text-xs text-slate-500">Set by the company's owner in Settings.</span>
      </p>
      <ReplyAlert reply={reply} />
    </>
  )
}

function AssignOwnerForm({ company }: { company: Company }) {
  const assign = useFetcher<StaffReply>({ key: `assign-${company.id}` })
  const [reply, clear] = useShownReply(assign)
  const [form, fields] = useZodForm(AssignOwnerSchema, {
    id: `assign-${company.id}`,
    lastResult: assign.state === 'idle' ? assign.data?.result : undefined,
  })
  const nobody = company.eligibleOwners.length === 0
  return (
    <assign.Form method="post" {...getFormProps(form)} className="space-y-2" onChange={clear}>
      <input type="hidden" name="intent" value="assign-owner" />
      <input type="hidden" name="companyId" value={company.id} />
      <div className="flex flex-wrap items-end gap-2">
        <SelectField field={fields.profileId} label="Assign owner" className="w-full sm:flex-1" disabled={nobody}>
          <option value="">{nobody ? 'No teammates to choose from' : 'Choose a teammate…'}</option>
          {company.eligibleOwners.map((person) => (
            <option key={person.id} value={person.id}>
              {person.fullName ?? person.email} ({ROLE_LABELS[person.role as Role]}) · {shortId(person.id, 4)}
            </option>
          ))}
        </SelectField>
        <Button
          type="submit"
          variant="secondary"
          pending={assign.state !== 'idle'}
          pendingLabel="Assigning…"
          disabled={nobody}
        >
          Assign
        </Button>
      </div>
      <ReplyAlert reply={reply} />
    </assign.Form>
  )
}
