import { getInputProps } from '@conform-to/react'
import { type ComponentProps, useState } from 'react'
import { Field } from './ui/field'

/** A password field with a show/hide toggle (hidden by default, and always hidden without JavaScript). */
export function PasswordField({
  label,
  errors,
  inputProps,
}: {
  label: string
  errors?: string[] | undefined
  inputProps: ComponentProps<'input'>
}) {
  const [visible, setVisible] = useState(false)
  return (
    <div className="relative">
      <Field label={label} errors={errors} inputProps={{ ...inputProps, type: visible ? 'text' : 'password' }} />
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

type ConformField = Parameters<typeof getInputProps>[0]

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
      <PasswordField
        label={passwordLabel}
        errors={password.errors}
        inputProps={{ ...getInputProps(password, { type: 'password' }), autoComplete: 'new-password' }}
      />
      <PasswordField
        label={confirmLabel}
        errors={confirmPassword.errors}
        inputProps={{ ...getInputProps(confirmPassword, { type: 'password' }), autoComplete: 'new-password' }}
      />
    </>
  )
}
