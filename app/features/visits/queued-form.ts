// A visit form on the phone (a reading, a chemical): checked in the browser by the schema the server uses, then
// queued (sent at once when online, later when not) instead of posted. Without JavaScript the same form posts.
import type { DefaultValue, SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import type { z } from 'zod'
import { useZodForm } from '~/components/ui/form'
import { formFields } from './form-fields'
import type { Queued } from './use-visit-changes'

export function useQueuedForm<Schema extends z.ZodType<unknown, Record<string, unknown>>>({
  id,
  schema,
  lastResult,
  defaultValue,
  saved,
  savedOffline,
  onQueue,
}: {
  id: string
  schema: Schema
  /** The plain post's answer (no JavaScript). */
  lastResult: SubmissionResult<string[]> | undefined
  defaultValue?: DefaultValue<z.input<Schema>>
  /** What "queued" says, online. */
  saved: string
  /** What it says when the phone is offline: the change is kept on the phone, not sent (issue 38 item 6). */
  savedOffline?: string
  onQueue: (fields: Record<string, string>) => Promise<Queued>
}) {
  const [queued, setQueued] = useState<{ ok: string } | { error: string } | null>(null)
  const [form, fields] = useZodForm(schema, {
    id,
    lastResult,
    defaultValue,
    onSubmit: async (event, { formData }) => {
      // Valid (Conform stops an invalid form before this): the phone's queue takes it from here.
      event.preventDefault()
      const outcome = await onQueue(formFields(formData))
      if (!outcome.ok) {
        // Nothing was stored: what was typed stays in the form.
        setQueued({ error: outcome.message })
        return
      }
      setQueued({ ok: savedOffline && !navigator.onLine ? savedOffline : saved })
      form.reset()
    },
  })
  return { form, fields, queued, clearQueued: () => setQueued(null) }
}
