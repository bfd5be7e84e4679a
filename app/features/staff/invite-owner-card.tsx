// "Invite an owner": for an existing company (chosen from every company) or a new one named here. The owner gets an
// email to finish setting up their account.
import { getFormProps } from '@conform-to/react'
import { useState } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { SelectField, TextField } from '~/components/ui/field'
import { useZodForm } from '~/components/ui/form'
import type { CompanySetupData } from './company-setup.server'
import { InviteOwnerSchema, type StaffReply, shortId } from './company-setup-schema'
import { ReplyAlert, useShownReply } from './staff-reply'

const OWNER_FIELDS = [
  { name: 'fullName', label: 'Owner name', type: 'text' },
  { name: 'email', label: 'Owner email', type: 'email' },
  { name: 'phone', label: 'Owner phone (optional)', type: 'tel' },
] as const

export function InviteOwnerCard({ options }: { options: CompanySetupData['options'] }) {
  const fetcher = useFetcher<StaffReply>({ key: 'invite-owner' })
  const [mode, setMode] = useState<'existing' | 'new'>(options.length ? 'existing' : 'new')
  const [shown, clear] = useShownReply(fetcher)
  const [form, fields] = useZodForm(InviteOwnerSchema, {
    id: 'invite-owner',
    lastResult: fetcher.state === 'idle' ? fetcher.data?.result : undefined,
  })
  return (
    <Card aria-labelledby="invite-owner-heading">
      <fetcher.Form method="post" {...getFormProps(form)} className="space-y-4" onChange={clear}>
        <h2 id="invite-owner-heading" className="text-lg font-semibold">
          Invite an owner
        </h2>
        <input type="hidden" name="intent" value="invite-owner" />
        <fieldset className="flex flex-wrap gap-4">
          <legend className="sr-only">Company</legend>
          {(['existing', 'new'] as const).map((value) => (
            <label key={value} className="flex min-h-11 items-center gap-2 text-sm font-medium">
              <input
                type="radio"
                name={fields.mode.name}
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
                className="size-4"
              />
              {value === 'existing' ? 'Existing company' : 'New company'}
            </label>
          ))}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          {mode === 'existing' ? (
            <SelectField field={fields.companyId} label="Company" className="sm:col-span-2">
              <option value="">Select a company…</option>
              {options.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name} · {shortId(option.id, 8)}
                </option>
              ))}
            </SelectField>
          ) : (
            <TextField field={fields.companyName} label="Company name" autoComplete="organization" />
          )}
          {OWNER_FIELDS.map(({ name, label, type }) => (
            <TextField key={name} field={fields[name]} label={label} type={type} autoComplete="off" />
          ))}
        </div>
        <ReplyAlert reply={shown} />
        <Button type="submit" pending={fetcher.state !== 'idle'} pendingLabel="Sending…">
          Send owner invite
        </Button>
      </fetcher.Form>
    </Card>
  )
}
