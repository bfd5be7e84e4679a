// "Change password" on My account: the current password, then the new one twice (F8: every other session ends).
import { getFormProps } from '@conform-to/react'
import { useFetcher } from 'react-router'
import { NewPasswordFields, PasswordField } from '~/components/password-input'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { FormErrors, useZodForm } from '~/components/ui/form'
import type { AccountReply } from './account.server'
import { ChangePasswordSchema } from './account-schema'

export function ChangePasswordForm({ pageReply }: { pageReply: AccountReply | undefined }) {
  const fetcher = useFetcher<AccountReply>({ key: 'change-password' })
  const reply = fetcher.data ?? pageReply
  const saving = fetcher.state !== 'idle'
  const [form, fields] = useZodForm(ChangePasswordSchema, {
    id: 'change-password',
    lastResult: saving ? undefined : reply?.result,
  })
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="space-y-4 border-t border-slate-200 pt-5">
      <h2 className="text-lg font-semibold">Change password</h2>
      <input type="hidden" name="intent" value="change-password" />
      <PasswordField field={fields.currentPassword} label="Current password" autoComplete="current-password" />
      <NewPasswordFields
        password={fields.password}
        confirmPassword={fields.confirmPassword}
        passwordLabel="New password"
        confirmLabel="Confirm new password"
      />
      <FormErrors form={form} />
      {reply?.notice && !saving ? <Alert tone="success">{reply.notice}</Alert> : null}
      <Button type="submit" pending={saving} pendingLabel="Changing password…">
        Change password
      </Button>
    </fetcher.Form>
  )
}
