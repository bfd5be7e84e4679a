// Settings → "Company logo" (issue 38 item 8, docs/decisions/044-company-brand.md): the logo invoices, customer emails
// and the portal show. A PNG or JPEG of at most 1 MB (checked here before sending, and again on the server by its
// content); "Remove logo" is asked first.
import { useState } from 'react'
import { Form } from 'react-router'
import { ConfirmForm } from '~/components/confirm-buttons'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { FieldFrame } from '~/components/ui/field'
import { usePosting } from '~/components/ui/form'
import { LOGO_MESSAGES, MAX_LOGO_BYTES } from '~/models/company-brand'

const INPUT_ID = 'company-logo'

export function CompanyLogoSection({
  logoUrl,
  companyName,
  canSave,
  reply,
}: {
  logoUrl: string | null
  companyName: string
  canSave: boolean
  reply: { ok: boolean; message: string } | undefined
}) {
  const uploading = usePosting('logo-upload')
  const [fileError, setFileError] = useState<string | null>(null)
  const error = fileError ?? (reply && !reply.ok ? reply.message : null)
  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold">Company logo</h2>
      <p className="text-sm text-slate-600">Shown on your invoices, in your emails to customers and in their portal.</p>
      {logoUrl ? (
        <div className="flex flex-wrap items-center gap-4">
          <img
            src={logoUrl}
            alt={`${companyName} logo`}
            className="max-h-20 max-w-60 rounded border border-slate-200 bg-white p-2"
          />
          {canSave ? (
            <ConfirmForm
              fields={{ intent: 'logo-remove' }}
              label="Remove logo"
              question={
                <p className="text-sm">Remove the logo? Invoices, emails and the portal then show your name only.</p>
              }
              confirm="Yes, remove logo"
              className="space-y-2"
            />
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-slate-600">No logo yet.</p>
      )}
      {canSave ? (
        <Form
          method="post"
          encType="multipart/form-data"
          className="space-y-3"
          onSubmit={(event) => {
            const file = new FormData(event.currentTarget).get('logo')
            const problem =
              !(file instanceof File) || file.size === 0
                ? LOGO_MESSAGES.noFile
                : file.size > MAX_LOGO_BYTES
                  ? LOGO_MESSAGES.tooLarge
                  : null
            setFileError(problem)
            if (problem) event.preventDefault()
          }}
        >
          <input type="hidden" name="intent" value="logo-upload" />
          <FieldFrame
            id={INPUT_ID}
            label={logoUrl ? 'Replace logo' : 'Upload logo'}
            hint="PNG or JPEG, at most 1 MB."
            errors={error ? [error] : undefined}
          >
            <input
              id={INPUT_ID}
              name="logo"
              type="file"
              accept="image/png,image/jpeg"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${INPUT_ID}-error ${INPUT_ID}-hint` : `${INPUT_ID}-hint`}
              onChange={() => setFileError(null)}
              className="block min-h-11 w-full text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-slate-100 file:px-4 file:font-medium"
            />
          </FieldFrame>
          <Button type="submit" variant="secondary" pending={uploading} pendingLabel="Uploading…">
            Save logo
          </Button>
        </Form>
      ) : null}
      {reply?.ok ? <Alert tone="success">{reply.message}</Alert> : null}
    </Card>
  )
}
