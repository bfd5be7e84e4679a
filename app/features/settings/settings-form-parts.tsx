// Pieces every settings section's form shares: a field the viewer may not change, and the foot of a section's form
// (its refusal, its "saved" message, its save button).
import { type FieldMetadata, getInputProps } from '@conform-to/react'
import type { ComponentProps, ReactNode } from 'react'
import { useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Field } from '~/components/ui/field'
import { FormErrors } from '~/components/ui/form'

/** A field the viewer may not change looks it (greyed), not just refuses input. */
export const disabledLook = 'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600'

/** A settings field, greyed and disabled when `locked`. */
export function LockableField<Schema>({
  meta,
  type,
  label,
  hint,
  locked,
  inputProps,
}: {
  meta: FieldMetadata<Schema>
  type: 'text' | 'number' | 'url' | 'email'
  label: string
  hint?: ReactNode
  locked: boolean
  inputProps?: ComponentProps<'input'>
}) {
  return (
    <Field
      label={label}
      errors={meta.errors}
      hint={hint}
      inputProps={{
        ...getInputProps(meta, { type }),
        ...inputProps,
        disabled: locked,
        className: disabledLook,
      }}
    />
  )
}

/** The form's refusal, its success message once the page is idle again, and the save button for those who may save. */
export function SaveFooter({
  form,
  message,
  canSave,
  saving,
  children,
}: {
  form: ComponentProps<typeof FormErrors>['form']
  message: string | null | undefined
  canSave: boolean
  saving: boolean
  /** The save button's label. */
  children: ReactNode
}) {
  const navigation = useNavigation()
  return (
    <>
      <FormErrors form={form} />
      {message && navigation.state === 'idle' ? <Alert tone="success">{message}</Alert> : null}
      {canSave ? (
        <Button type="submit" pending={saving} pendingLabel="Saving…">
          {children}
        </Button>
      ) : null}
    </>
  )
}
