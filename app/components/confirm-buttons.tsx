import { type ComponentType, type ReactNode, useState } from 'react'
import { type FetcherFormProps, Form } from 'react-router'
import { useHydrated } from '~/utils/use-hydrated'
import { Alert } from './ui/alert'
import { Button, type ButtonVariant } from './ui/button'
import { Dialog } from './ui/dialog'
import { usePosting } from './ui/form'

/** The question's answers: "Yes, …" submits the form it sits in, "Cancel" goes back. */
function ConfirmButtons({
  confirm,
  cancel = 'Cancel',
  onCancel,
}: {
  confirm: ReactNode
  cancel?: string
  onCancel: () => void
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" variant="danger">
        {confirm}
      </Button>
      <Button type="button" variant="ghost" onClick={onCancel}>
        {cancel}
      </Button>
    </div>
  )
}

/**
 * "Confirm, then post": one button whose form posts `fields`; once the page's script runs, pressing it first asks
 * `question`, in place of the button (or, given a `title`, in a modal dialog), and only "Yes" posts. Without JavaScript
 * the button posts at once. `onConfirm` answers "Yes" instead of posting (a visit completed through the phone's queue).
 */
export function ConfirmForm({
  as: PostForm = Form,
  action,
  fields,
  label,
  variant = 'secondary',
  pending,
  pendingLabel,
  buttonClassName,
  lead,
  question,
  confirm,
  cancel = 'Cancel',
  className,
  title,
  onAsk,
  onConfirm,
  error,
}: {
  /** A fetcher's Form, for a form that answers in place. */
  as?: ComponentType<FetcherFormProps>
  action?: string
  /** Hidden fields the form posts (its intent, the record it acts on). */
  fields: Record<string, string>
  /** The first button. */
  label: ReactNode
  variant?: ButtonVariant
  /** Whether the post is on its way; by default, whether the page is posting this form's intent. */
  pending?: boolean
  pendingLabel?: string
  buttonClassName?: string
  /** Said beside the first button, until it is pressed. */
  lead?: ReactNode
  /** What happens, asked before it is done. */
  question: ReactNode
  /** "Yes, …". */
  confirm: ReactNode
  /** "Cancel" by default. */
  cancel?: string
  /** The question's form, shown in place. */
  className?: string
  /** The dialog's title: the question is asked in a modal dialog. */
  title?: ReactNode
  onAsk?: () => void
  onConfirm?: () => Promise<void>
  /** The last try's refusal, shown under the form. */
  error?: string | null
}) {
  const hydrated = useHydrated()
  const posting = usePosting(fields.intent ?? '')
  const busy = pending ?? posting
  const refusal = error ? <Alert tone="error">{error}</Alert> : null
  const [asking, setAsking] = useState(false)
  const hidden = Object.entries(fields).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ))
  const first = (
    <PostForm method="post" action={action}>
      {hidden}
      <Button
        type="submit"
        variant={variant}
        className={buttonClassName}
        pending={busy}
        pendingLabel={pendingLabel}
        onClick={(event) => {
          if (!hydrated) return
          event.preventDefault()
          onAsk?.()
          setAsking(true)
        }}
      >
        {label}
      </Button>
    </PostForm>
  )

  if (title === undefined) {
    return (
      <>
        {asking ? (
          <PostForm method="post" action={action} className={className} onSubmit={() => setAsking(false)}>
            {hidden}
            {question}
            <ConfirmButtons confirm={confirm} cancel={cancel} onCancel={() => setAsking(false)} />
          </PostForm>
        ) : lead ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            {lead}
            {first}
          </div>
        ) : (
          first
        )}
        {refusal}
      </>
    )
  }

  const buttons = (yes: ReactNode) => (
    <div className="flex flex-col gap-2 sm:flex-row-reverse">
      {yes}
      <Button type="button" variant="secondary" className="w-full sm:w-auto" onClick={() => setAsking(false)}>
        {cancel}
      </Button>
    </div>
  )
  return (
    <>
      {first}
      <Dialog open={asking} onClose={() => setAsking(false)} title={title}>
        {question}
        {onConfirm ? (
          buttons(
            <Button
              type="button"
              className="w-full sm:w-auto"
              onClick={async () => {
                await onConfirm()
                setAsking(false)
              }}
            >
              {confirm}
            </Button>,
          )
        ) : (
          // The dialog stays open, its button pending, until the page changes under it.
          <PostForm method="post" action={action}>
            {hidden}
            {buttons(
              <Button type="submit" className="w-full sm:w-auto" pending={busy} pendingLabel={pendingLabel}>
                {confirm}
              </Button>,
            )}
          </PostForm>
        )}
      </Dialog>
      {refusal}
    </>
  )
}
