// Settings → "API keys" (owners and admins): create a key (shown once), the list with name, scope, created and last
// used, and "Revoke" (asked first). docs/api.md says how a key is used.

import type { SubmissionResult } from '@conform-to/react'
import { getFormProps } from '@conform-to/react'
import { Form } from 'react-router'
import { ConfirmForm } from '~/components/confirm-buttons'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { SelectField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { API_KEY_SCOPE_LABELS } from '~/models/api-key-schema'
import { CreateApiKeySchema } from './developer-schemas'

export type ApiKeyRow = {
  id: string
  name: string
  scope: 'read' | 'write'
  prefix: string
  createdAt: string
  lastUsedAt: string | null
}

export function ApiKeysSection({
  keys,
  reply,
  created,
  error,
}: {
  keys: ApiKeyRow[]
  reply: SubmissionResult<string[]> | undefined
  created: { name: string; key: string } | undefined
  error: string | undefined
}) {
  return (
    <Card className="space-y-4" aria-labelledby="api-keys-heading">
      <div className="space-y-1">
        <h1 id="api-keys-heading" className="text-lg font-semibold">
          API keys
        </h1>
        <p className="text-sm text-slate-700">
          Keys let your own tools use the Pool Bud API (
          <a className="underline" href="/developers">
            reference
          </a>
          ). Keep them secret: a key acts for your whole company.
        </p>
      </div>
      {created ? (
        <Alert tone="success">
          <p className="font-medium">API key “{created.name}” created. Copy it now: it is not shown again.</p>
          <code data-testid="new-api-key" className="mt-2 block break-all rounded bg-white p-2 text-sm text-slate-900">
            {created.key}
          </code>
        </Alert>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <KeyList keys={keys} />
      <CreateKeyForm reply={reply} />
    </Card>
  )
}

function KeyList({ keys }: { keys: ApiKeyRow[] }) {
  if (keys.length === 0) return <p className="text-sm text-slate-600">No API keys yet.</p>
  return (
    <ul aria-label="API keys" className="divide-y divide-slate-200 border-y border-slate-200">
      {keys.map((key) => (
        <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
          <div className="min-w-0 space-y-0.5 text-sm">
            <p className="font-medium break-words text-slate-900">{key.name}</p>
            <p className="text-slate-700">
              {API_KEY_SCOPE_LABELS[key.scope]} · <code>{key.prefix}…</code>
            </p>
            <p className="text-slate-600">
              Created {formatWhen(key.createdAt)} · Last used {key.lastUsedAt ? formatWhen(key.lastUsedAt) : 'never'}
            </p>
          </div>
          <ConfirmForm
            fields={{ intent: 'revoke', keyId: key.id }}
            label={
              <>
                Revoke<span className="sr-only"> {key.name}</span>
              </>
            }
            pendingLabel="Revoking…"
            question={
              <p className="text-sm text-slate-800">
                Revoke “{key.name}”? Tools using it stop working at once. This cannot be undone.
              </p>
            }
            confirm="Yes, revoke key"
            className="w-full space-y-2"
          />
        </li>
      ))}
    </ul>
  )
}

function CreateKeyForm({ reply }: { reply: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useZodForm(CreateApiKeySchema, {
    id: 'create-api-key',
    lastResult: reply,
    defaultValue: { scope: 'read' },
  })
  const creating = usePosting('create')
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <h2 className="text-base font-semibold">Create API key</h2>
      <input type="hidden" name="intent" value="create" />
      <FormErrors form={form} />
      <TextField field={fields.name} label="Name" hint="For example “Accounting sync”." autoComplete="off" />
      <SelectField
        field={fields.scope}
        label="Access"
        options={[
          { value: 'read', label: API_KEY_SCOPE_LABELS.read },
          { value: 'write', label: API_KEY_SCOPE_LABELS.write },
        ]}
      />
      <Button type="submit" pending={creating} pendingLabel="Creating…">
        Create API key
      </Button>
    </Form>
  )
}

export function formatWhen(iso: string) {
  const when = new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
  return `${when} UTC`
}
