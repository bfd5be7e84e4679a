import { Form, useNavigation } from 'react-router'
import { Button, type ButtonVariant } from '~/components/ui/button'

/**
 * The one button of an "Automatic payments" card (the portal's and the office's), posting to `action`; `note` says
 * why it is disabled, or what it cannot do here, and describes it for screen readers.
 */
export function AutopayButton({
  action,
  label,
  pendingLabel,
  variant = 'secondary',
  disabled,
  note,
  noteId,
}: {
  action: string
  label: string
  pendingLabel: string
  variant?: ButtonVariant
  disabled: boolean
  note: string | null
  noteId: string
}) {
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formAction === action
  return (
    <Form method="post" action={action} className="space-y-1">
      <Button
        type="submit"
        variant={variant}
        disabled={disabled}
        aria-describedby={note ? noteId : undefined}
        pending={pending}
        pendingLabel={pendingLabel}
      >
        {label}
      </Button>
      {note ? (
        <p id={noteId} className="text-sm text-slate-600">
          {note}
        </p>
      ) : null}
    </Form>
  )
}
