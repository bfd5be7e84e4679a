// The portal's "Notifications" (docs/decisions/047-customer-times.md): per event the company sends, "Text" and "Email"
// on or off for this customer. Replying STOP to a text still turns every text off, and the section says so. Staff
// previewing the portal see it as the customer does, but cannot save it.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import type { NoticeChoiceRow } from '~/models/customer-notices.server'
import { NOTICE_CHANNELS, NOTICE_LABELS, type NoticeChannel } from '~/notices/templates'
import { PORTAL_NOTIFICATIONS_INTENT, PortalNotificationsSchema } from './portal-notifications-schema'

export type PortalNotificationsReply = { result: SubmissionResult<string[]>; message: string | null }

const CHANNEL_LABELS: Record<NoticeChannel, string> = { text: 'Texts', email: 'Emails' }

export function PortalNotifications({
  data,
  preview,
  reply,
}: {
  data: { events: NoticeChoiceRow[]; optedOut: boolean }
  preview: boolean
  reply: PortalNotificationsReply | undefined
}) {
  const navigation = useNavigation()
  const saving = usePosting(PORTAL_NOTIFICATIONS_INTENT, { untilReloaded: true })
  const [form] = useZodForm(PortalNotificationsSchema, { id: 'notifications', lastResult: reply?.result })
  return (
    <Card id="notifications" aria-labelledby="notifications-heading" className="space-y-4">
      <div className="space-y-1">
        <h2 id="notifications-heading" className="text-lg font-semibold">
          Notifications
        </h2>
        <p className="text-sm text-slate-700">Choose which messages we send you, by text and by email.</p>
      </div>
      {data.events.length === 0 ? (
        <p className="text-slate-600">We send no notices at the moment.</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
          <input type="hidden" name="intent" value={PORTAL_NOTIFICATIONS_INTENT} />
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {data.events.map(({ event, channels }) => (
              <li key={event} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
                <span className="font-medium" id={`notice-${event}`}>
                  {NOTICE_LABELS[event]}
                </span>
                <span className="flex flex-wrap gap-x-5">
                  {NOTICE_CHANNELS.map((channel) =>
                    channels[channel] === null ? null : (
                      <label key={channel} className="flex min-h-11 items-center gap-2 text-sm">
                        <input
                          type="checkbox"
                          name="on"
                          value={`${event}:${channel}`}
                          defaultChecked={channels[channel] === true}
                          disabled={preview || (channel === 'text' && data.optedOut)}
                          aria-label={`${NOTICE_LABELS[event]}: ${CHANNEL_LABELS[channel]}`}
                          className="size-5 rounded border-slate-300"
                        />
                        {CHANNEL_LABELS[channel]}
                      </label>
                    ),
                  )}
                </span>
              </li>
            ))}
          </ul>
          {data.optedOut ? (
            <p className="text-sm text-slate-700">
              You replied STOP to our texts, so we send you no texts whatever is ticked here. Reply START to get them
              again.
            </p>
          ) : (
            <p className="text-sm text-slate-600">
              Replying STOP to any text turns off all texts, whatever is ticked here.
            </p>
          )}
          <FormErrors form={form} />
          {reply?.message && navigation.state === 'idle' ? <Alert tone="success">{reply.message}</Alert> : null}
          {preview ? (
            <p className="text-sm text-slate-600">Only the customer can change these, from their own login.</p>
          ) : (
            <Button type="submit" pending={saving} pendingLabel="Saving…">
              Save notifications
            </Button>
          )}
        </Form>
      )}
    </Card>
  )
}
