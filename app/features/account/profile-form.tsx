// "My account"'s profile: name, sign-in email (changed through a link sent to the new address), phone and address.
import { getFormProps } from '@conform-to/react'
import { useFetcher } from 'react-router'
import type { z } from 'zod'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import type { AccountReply } from './account.server'
import { AccountSchema } from './account-schema'
import { AddressFields } from './profile-fields'

type ProfileValues = z.input<typeof AccountSchema> & { email: string }

export function ProfileForm({ profile, pageReply }: { profile: ProfileValues; pageReply: AccountReply | undefined }) {
  // A fetcher keeps its reply when live updates reload the page (actionData would be cleared);
  // without JavaScript the form posts normally and the reply arrives as the page's.
  const fetcher = useFetcher<AccountReply>({ key: 'account' })
  const reply = fetcher.data ?? pageReply
  const saving = fetcher.state !== 'idle'
  const [form, fields] = useZodForm(AccountSchema, {
    id: 'account',
    lastResult: saving ? undefined : reply?.result,
    defaultValue: profile,
  })
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="space-y-4">
      <TextField field={fields.fullName} label="Full name" autoComplete="name" />
      <TextField
        field={fields.email}
        label="Email"
        autoComplete="email"
        type="email"
        hint="You log in with this address. A new one applies once you follow the link we email to it."
      />
      <TextField field={fields.phone} label="Phone" autoComplete="tel" type="tel" />
      <AddressFields fields={fields} />
      <FormErrors form={form} />
      {reply?.notice && !saving ? (
        <Alert tone="success" className="wrap-anywhere">
          <p>{reply.notice}</p>
          {reply.pendingEmail ? (
            <p>We sent a confirmation link to {reply.pendingEmail}. Your sign-in email changes once you follow it.</p>
          ) : null}
        </Alert>
      ) : null}
      <Button type="submit" pending={saving} pendingLabel="Saving…">
        Save changes
      </Button>
    </fetcher.Form>
  )
}
