/**
 * "Calendar feed" (docs/product.md "Schedule"): the technician's secret `.ics` link. Only its hash is stored, so the
 * full URL is shown once, right after it is made; afterwards the page can only say that a link is active and offer a
 * new one.
 */
import { getFormProps } from '@conform-to/react'
import { type MouseEvent, useState } from 'react'
import { useFetcher } from 'react-router'
import { ConfirmForm } from '~/components/confirm-buttons'
import { Button } from '~/components/ui/button'
import { inputClass } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import type { AccountReply } from './account.server'
import { CalendarFeedSchema } from './account-schema'

export function CalendarFeedSection({ active, pageReply }: { active: boolean; pageReply: AccountReply | undefined }) {
  const fetcher = useFetcher<AccountReply>({ key: 'calendar-feed' })
  const reply = fetcher.data ?? pageReply
  const busy = fetcher.state !== 'idle'
  const pendingIntent = busy ? fetcher.formData?.get('intent') : null
  const [form] = useZodForm(CalendarFeedSchema, { id: 'calendar-feed', lastResult: busy ? undefined : reply?.result })
  const feedUrl = busy ? null : (reply?.feedUrl ?? null)
  return (
    <section aria-labelledby="calendar-feed-title" className="space-y-4 border-t border-slate-200 pt-5">
      <h2 id="calendar-feed-title" className="text-lg font-semibold">
        Calendar feed
      </h2>
      {feedUrl ? (
        <FeedLink url={feedUrl} />
      ) : active ? (
        <p className="text-sm text-slate-700">Your calendar link is active.</p>
      ) : (
        <p className="text-sm text-slate-700">
          See your visits in your phone's calendar: create a private link and subscribe to it there.
        </p>
      )}
      <FormErrors form={form} />
      {!active && !feedUrl ? (
        <fetcher.Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="create-feed" />
          <Button type="submit" pending={pendingIntent === 'create-feed'} pendingLabel="Creating link…">
            Create calendar link
          </Button>
        </fetcher.Form>
      ) : (
        <ConfirmForm
          as={fetcher.Form}
          fields={{ intent: 'reset-feed' }}
          label="Reset link"
          pending={pendingIntent === 'reset-feed'}
          pendingLabel="Resetting link…"
          className="space-y-2"
          question={
            <p className="text-sm text-slate-700">
              Reset your calendar link? The old link stops working: calendars subscribed to it stop updating until you
              add the new one.
            </p>
          }
          confirm="Yes, reset link"
        />
      )}
    </section>
  )
}

/** The new link, read-only, with "Copy"; where the clipboard is not allowed the text is selected to copy by hand. */
function FeedLink({ url }: { url: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)
  const select = (input: HTMLInputElement | null) => input?.select()
  const copy = async (event: MouseEvent<HTMLButtonElement>) => {
    const input = event.currentTarget.form?.elements.namedItem('calendar-feed-url') as HTMLInputElement | null
    try {
      await navigator.clipboard.writeText(url)
      setCopied('yes')
    } catch {
      select(input)
      setCopied('no')
    }
  }
  return (
    <form className="space-y-2" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor="calendar-feed-url" className="block text-sm font-medium text-slate-800">
        Your calendar link
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id="calendar-feed-url"
          name="calendar-feed-url"
          type="text"
          readOnly
          value={url}
          onFocus={(event) => select(event.currentTarget)}
          aria-describedby="calendar-feed-url-hint"
          className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
        />
        <Button type="button" variant="secondary" onClick={copy}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p id="calendar-feed-url-hint" className="text-sm text-slate-700">
        Add this link to your phone's calendar as a subscription. It is shown only now; if you lose it, reset it.
      </p>
      <p aria-live="polite" className="text-sm text-slate-700">
        {copied === 'no' ? 'Copying is not allowed here: the link is selected, copy it by hand.' : null}
      </p>
    </form>
  )
}
