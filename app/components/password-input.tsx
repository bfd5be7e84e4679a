import { type ComponentProps, useState } from 'react'
import { type ConformField, TextField } from './ui/field'

/** A password field with a show/hide toggle (hidden by default, and always hidden without JavaScript). */
export function PasswordField({
  field,
  label,
  ...inputProps
}: {
  field: ConformField
  label: string
  autoComplete: 'current-password' | 'new-password'
} & Pick<ComponentProps<'input'>, 'autoFocus'>) {
  const [visible, setVisible] = useState(false)
  return (
    <div className="relative">
      <TextField field={field} label={label} {...inputProps} type={visible ? 'text' : 'password'} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-pressed={visible}
        aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
        className="absolute right-0 top-6 min-h-11 rounded-r-lg px-3 text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
      >
        {visible ? 'Hide' : 'Show'}
      </button>
    </div>
  )
}

/** A new password and its confirmation, as every set-a-password form asks for them. */
export function NewPasswordFields({
  password,
  confirmPassword,
  passwordLabel = 'Password',
  confirmLabel = 'Confirm password',
}: {
  password: ConformField
  confirmPassword: ConformField
  passwordLabel?: string
  confirmLabel?: string
}) {
  return (
    <>
      <PasswordField field={password} label={passwordLabel} autoComplete="new-password" />
      <PasswordField field={confirmPassword} label={confirmLabel} autoComplete="new-password" />
    </>
  )
}
