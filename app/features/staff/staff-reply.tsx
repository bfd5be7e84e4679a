// How the company-setup forms show the action's answer: a refusal of the form itself at its fields, anything else
// (saved, or refused by the model) as a message that stays until the form is edited again
// (docs/product.md "Visit states").
import { useEffect, useState } from 'react'
import { Alert } from '~/components/ui/alert'
import type { StaffReply } from './company-setup-schema'

/** The fetcher's last answer, and the function that hides it (call it when the form is edited). */
export function useShownReply(fetcher: { state: string; data?: StaffReply | undefined }) {
  const [shown, setShown] = useState<StaffReply | undefined>(undefined)
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data) setShown(fetcher.data)
  }, [fetcher.state, fetcher.data])
  return [shown, () => setShown(undefined)] as const
}

export function ReplyAlert({ reply }: { reply: StaffReply | undefined }) {
  // A form its schema refused shows the reasons at its fields instead.
  if (!reply || (!reply.ok && reply.result)) return null
  return <Alert tone={reply.ok ? 'success' : 'error'}>{reply.message}</Alert>
}
