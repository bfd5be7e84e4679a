// "My account"'s profile: name, sign-in email (changed through a link sent to the new address), phone and address.
import { getFormProps } from '@conform-to/react'
import { useFetcher, useSearchParams } from 'react-router'
import type { z } from 'zod'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import type { AccountReply } from './account.server'
import { AccountSchema } from './account-schema'
import { AddressFields } from './profile-fields'

type ProfileValues = z.input<typeof AccountSchema> & { email: string }

/** better-auth's error codes on that landing, in words (SPEC §8: clear, in the danger colour). */
function emailLinkError(code: string, currentEmail: string) {
  switch (code) {
    case 'TOKEN_EXPIRED':
      return `That email confirmation link has expired. You still log in with ${currentEmail}; save your new email again to get a new link.`
    case 'INVALID_TOKEN':
      return `That email confirmation link is not valid or has already been used. You log in with ${currentEmail}.`
    case 'EMAIL_TAKEN':
      return `Someone else has started using that address since you asked for it, so you still log in with ${currentEmail}.`
    case 'INVALID_USER':
      return 'That email confirmation link belongs to another account. Log out, then open it again.'
    default:
      return `We could not confirm that email change. You still log in with ${currentEmail}; save your new email again to get a new link.`
  }
}

export function ProfileForm({ profile, pageReply }: { profile: ProfileValues; pageReply: AccountReply | undefined }) {
  // A fetcher keeps its reply when live updates reload the page (actionData would be cleared);
  // without JavaScript the form posts normally and the reply arrives as the page's.
  const fetcher = useFetcher<AccountReply>({ key: 'account' })
  const reply = fetcher.data ?? pageReply
  const saving = fetcher.state !== 'idle'
  const [searchParams] = useSearchParams()
  const [form, fields] = useZodForm(AccountSchema, {
    id: 'account',
    lastResult: saving ? undefined : reply?.result,
    defaultValue: profile,
  })
  // The landing of the link in the new inbox; a save on this page replaces its message.
  const linkError = reply ? null : searchParams.get('error')
  const emailUpdated = !reply && !linkError && searchParams.get('email') === 'updated'
  return (
    <>
      {emailUpdated ? (
        <Alert tone="success" className="wrap-anywhere">
          Email updated. You now log in with {profile.email}.
        </Alert>
      ) : null}
      {linkError ? (
        <Alert tone="error" className="wrap-anywhere">
          {emailLinkError(linkError, profile.email)}
        </Alert>
      ) : null}
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
    </>
  )
}
