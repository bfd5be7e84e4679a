// "My account"'s profile: name, sign-in email (changed through a link sent to the new address), phone and address.
import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useFetcher, useSearchParams } from 'react-router'
import type { z } from 'zod'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import type { AccountReply } from './account.server'
import { AccountSchema } from './account-schema'
import { AddressFields, TextField } from './profile-fields'

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
  const [form, fields] = useForm<z.infer<typeof AccountSchema>>({
    id: 'account',
    lastResult: saving ? undefined : reply?.result,
    defaultValue: profile,
    constraint: getZodConstraint(AccountSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AccountSchema }),
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
        {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
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
