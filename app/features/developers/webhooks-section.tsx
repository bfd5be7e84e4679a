// Settings → "Webhooks" (owners and admins): "Add endpoint" (URL and events; the signing secret is shown once), and
// per endpoint its delivery log (time, event, HTTP status, duration) with "Resend", "Send test event", "Delete".
import type { SubmissionResult } from '@conform-to/react'
import { getFormProps } from '@conform-to/react'
import { Form } from 'react-router'
import { ConfirmForm } from '~/components/confirm-buttons'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { FieldError, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { ScrollRegion } from '~/components/ui/scroll-region'
import { WEBHOOK_EVENT_TYPES } from '~/utils/api-fields'
import { formatWhen } from './api-keys-section'
import { AddEndpointSchema, WEBHOOK_EVENT_LABELS } from './developer-schemas'

export type EndpointView = {
  id: string
  url: string
  events: string[]
  status: 'active' | 'disabled'
  log: {
    id: string
    deliveryId: string
    eventType: string
    eventId: string
    attemptedAt: string
    statusCode: number | null
    durationMs: number
    error: string | null
  }[]
}

export function WebhooksSection({
  endpoints,
  reply,
  created,
  error,
}: {
  endpoints: EndpointView[]
  reply: SubmissionResult<string[]> | undefined
  created: { url: string; secret: string } | undefined
  error: string | undefined
}) {
  return (
    <div className="space-y-5">
      <Card className="space-y-4" aria-labelledby="webhooks-heading">
        <div className="space-y-1">
          <h1 id="webhooks-heading" className="text-lg font-semibold">
            Webhooks
          </h1>
          <p className="text-sm text-slate-700">
            Pool Bud posts a signed JSON event to your endpoint when something happens (see{' '}
            <a className="underline" href="/developers">
              the reference
            </a>
            ). Failed deliveries are retried for 24 hours.
          </p>
        </div>
        {created ? (
          <Alert tone="success">
            <p className="font-medium">Endpoint added. Its signing secret is shown only now:</p>
            <code data-testid="webhook-secret" className="mt-2 block break-all rounded bg-white p-2 text-sm">
              {created.secret}
            </code>
          </Alert>
        ) : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
        <AddEndpointForm reply={reply} />
      </Card>
      {endpoints.map((endpoint) => (
        <EndpointCard key={endpoint.id} endpoint={endpoint} />
      ))}
    </div>
  )
}

function AddEndpointForm({ reply }: { reply: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useZodForm(AddEndpointSchema, { id: 'add-endpoint', lastResult: reply, constraint: null })
  const adding = usePosting('add-endpoint')
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <h2 className="text-base font-semibold">Add endpoint</h2>
      <input type="hidden" name="intent" value="add-endpoint" />
      <FormErrors form={form} />
      <TextField
        field={fields.url}
        label="Endpoint URL"
        type="url"
        hint="https:// on a public address."
        autoComplete="off"
      />
      <fieldset className="space-y-1" aria-describedby={fields.events.errors ? fields.events.errorId : undefined}>
        <legend className="text-sm font-medium text-slate-900">Events to send</legend>
        <div className="grid gap-1 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name={fields.events.name} value={type} className="size-5" />
              {WEBHOOK_EVENT_LABELS[type]} <code className="text-xs text-slate-600">{type}</code>
            </label>
          ))}
        </div>
        <FieldError id={fields.events.errorId} errors={fields.events.errors} />
      </fieldset>
      <Button type="submit" pending={adding} pendingLabel="Adding…">
        Add endpoint
      </Button>
    </Form>
  )
}

function EndpointCard({ endpoint }: { endpoint: EndpointView }) {
  const testing = usePosting('endpoint-test')
  const headingId = `endpoint-${endpoint.id}`
  return (
    <Card className="space-y-3" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-base font-semibold break-all">
        {endpoint.url}
      </h2>
      <p className="text-sm text-slate-700">
        {endpoint.status === 'active' ? 'Active' : 'Disabled'} · {endpoint.events.join(', ')}
      </p>
      <div className="flex flex-wrap gap-2">
        <Form method="post">
          <input type="hidden" name="intent" value="endpoint-test" />
          <input type="hidden" name="endpointId" value={endpoint.id} />
          <Button type="submit" variant="secondary" pending={testing} pendingLabel="Sending…">
            Send test event
          </Button>
        </Form>
        {endpoint.status === 'disabled' ? (
          <Form method="post">
            <input type="hidden" name="intent" value="endpoint-enable" />
            <input type="hidden" name="endpointId" value={endpoint.id} />
            <Button type="submit" variant="secondary">
              Turn on again
            </Button>
          </Form>
        ) : null}
        <ConfirmForm
          fields={{ intent: 'endpoint-delete', endpointId: endpoint.id }}
          label="Delete endpoint"
          question={<p className="text-sm text-slate-800">Delete this endpoint and its delivery log?</p>}
          confirm="Yes, delete endpoint"
          className="w-full space-y-2"
        />
      </div>
      <DeliveryLog endpoint={endpoint} />
    </Card>
  )
}

function DeliveryLog({ endpoint }: { endpoint: EndpointView }) {
  if (endpoint.log.length === 0) return <p className="text-sm text-slate-600">No deliveries yet.</p>
  return (
    <ScrollRegion label={`Delivery log of ${endpoint.url}`}>
      <table className="w-full text-left text-sm" aria-label={`Delivery log of ${endpoint.url}`}>
        <thead className="text-slate-600">
          <tr>
            <th className="py-1 pr-3 font-medium">Time</th>
            <th className="py-1 pr-3 font-medium">Event</th>
            <th className="py-1 pr-3 font-medium">Status</th>
            <th className="py-1 pr-3 font-medium">Duration</th>
            <th className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {endpoint.log.map((attempt) => (
            <tr key={attempt.id}>
              <td className="py-1 pr-3 whitespace-nowrap">{formatWhen(attempt.attemptedAt)}</td>
              <td className="py-1 pr-3">
                <code>{attempt.eventType}</code>
              </td>
              <td className="py-1 pr-3" title={attempt.error ?? undefined}>
                {attempt.statusCode ?? 'No answer'}
              </td>
              <td className="py-1 pr-3 tabular-nums">{attempt.durationMs} ms</td>
              <td className="py-1">
                <Form method="post">
                  <input type="hidden" name="intent" value="endpoint-resend" />
                  <input type="hidden" name="endpointId" value={endpoint.id} />
                  <input type="hidden" name="deliveryId" value={attempt.deliveryId} />
                  <Button type="submit" variant="ghost">
                    Resend<span className="sr-only"> {attempt.eventType}</span>
                  </Button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  )
}
