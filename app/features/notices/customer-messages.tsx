// The customer record's "Notices" (docs/product.md "Notices"): the customer's own channel choices and "Messages" —
// every notice sent or held for them, newest first, with what became of it in words — and, at the top, when their
// number has replied STOP.
import { Form, useNavigation } from 'react-router'
import { Pager } from '~/components/pager'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import type { CustomerMessagesData } from './customer-messages.server'
import type { MessageTone } from './message-status'
import { NOTICE_PREFERENCE_INTENT, type NoticePreference } from './notice-preference-schema'

const TONES: Record<MessageTone, string> = {
  sent: 'pill-green',
  waiting: 'bg-amber-50 text-amber-900 ring-amber-200',
  failed: 'pill-red',
  stopped: 'bg-slate-100 text-slate-800 ring-slate-300',
}

export function CustomerMessages({ data, refusal }: { data: CustomerMessagesData; refusal: string | null }) {
  return (
    <Card className="space-y-4" aria-labelledby="customer-notices-heading">
      <h2 id="customer-notices-heading" className="text-lg font-semibold">
        Notices
      </h2>
      {data.textsStoppedOn ? (
        <Alert tone="info">Texts are off: this number replied STOP on {data.textsStoppedOn}.</Alert>
      ) : null}
      <div className="flex flex-wrap gap-x-6 gap-y-1">
        <PreferenceSwitch channel="email" label="Notices by email" on={data.byEmail} />
        <PreferenceSwitch channel="text" label="Notices by text" on={data.byText} />
      </div>
      {refusal ? <Alert tone="error">{refusal}</Alert> : null}
      <section aria-labelledby="customer-messages-heading" className="space-y-3">
        <h3 id="customer-messages-heading" className="font-semibold">
          Messages
        </h3>
        {data.rows.length === 0 ? (
          <p className="text-sm text-slate-600">No messages yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {data.rows.map((row) => (
              <li key={row.id} className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1 py-2">
                <div className="min-w-0">
                  <p className="font-medium">
                    {row.what} <span className="font-normal text-slate-600">· {row.channel}</span>
                  </p>
                  <p className="text-slate-600">
                    <span className="[overflow-wrap:anywhere]">{row.to}</span> · {row.when}
                  </p>
                </div>
                <span
                  className={cn(
                    'max-w-full rounded-full px-2 py-0.5 text-xs font-medium break-words ring-1',
                    TONES[row.status.tone],
                  )}
                >
                  {row.status.text}
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager page={data.page} pageCount={data.pageCount} label="Message pages" param="messages" />
      </section>
    </Card>
  )
}

/**
 * A switch that saves as it is tapped: a form posting the state it asks for, so it works before JavaScript loads;
 * while its post is on the way it already shows the new state.
 */
function PreferenceSwitch({
  channel,
  label,
  on,
}: {
  channel: NoticePreference['channel']
  label: string
  on: boolean
}) {
  const navigation = useNavigation()
  const pending =
    navigation.formData?.get('intent') === NOTICE_PREFERENCE_INTENT && navigation.formData.get('channel') === channel
  const shown = pending ? navigation.formData?.get('enabled') === 'on' : on
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={NOTICE_PREFERENCE_INTENT} />
      <input type="hidden" name="channel" value={channel} />
      <input type="hidden" name="enabled" value={(on ? 'off' : 'on') satisfies NoticePreference['enabled']} />
      <button
        type="submit"
        role="switch"
        aria-checked={shown}
        disabled={pending}
        className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium disabled:cursor-wait"
      >
        <span
          aria-hidden="true"
          className={cn(
            'relative h-7 w-12 shrink-0 rounded-full transition-colors',
            shown ? 'bg-brand-700' : 'bg-slate-500',
          )}
        >
          <span
            className={cn(
              'absolute top-0.5 left-0.5 size-6 rounded-full bg-white shadow transition-transform',
              shown && 'translate-x-5',
            )}
          />
        </span>
        {label}
      </button>
    </Form>
  )
}
