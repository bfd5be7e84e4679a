// The import page's two steps: "Upload" a CSV file, then check the field each column goes into, "Preview" and
// "Import" (one form, posted with the upload's id and an idempotency key).
import { getFormProps } from '@conform-to/react'
import { useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { type ImportColumn, ImportColumns } from './import-columns'
import { ImportPreviewCard } from './import-preview'
import { type ImportReply, MappingSchema, UPLOAD_GONE, UploadSchema } from './import-schema'

export function UploadStep({ uploadGone, reply }: { uploadGone: boolean; reply: ImportReply | undefined }) {
  const lastResult = reply && 'result' in reply && reply.intent === 'upload' ? reply.result : null
  const [form, fields] = useZodForm(UploadSchema, { id: 'customer-import-upload', lastResult })
  const uploading = usePosting('upload', { untilReloaded: true })
  return (
    <Card className="space-y-4">
      <p className="text-sm text-slate-700">
        Upload the customer list exported from your old software, or a spreadsheet saved as CSV. You will see how its
        columns are read and what would be imported before anything is saved.
      </p>
      {uploadGone ? <Alert tone="error">{UPLOAD_GONE}</Alert> : null}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <TextField
          field={fields.file}
          label="CSV file"
          type="file"
          hint="A .csv file (comma, semicolon or tab separated), up to 10 MB."
          accept=".csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values"
          inputClassName="file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1 file:text-brand-800"
        />
        <Button type="submit" name="intent" value="upload" pending={uploading} pendingLabel="Reading the file…">
          Upload
        </Button>
      </Form>
    </Card>
  )
}

type UploadedFile = {
  id: string
  rows: number
  encoding: string
  delimiter: string
  columns: ImportColumn[]
}

export function MappingStep({
  upload,
  importKey,
  reply,
}: {
  upload: UploadedFile
  importKey: string
  reply: ImportReply | undefined
}) {
  const navigation = useNavigation()
  const idempotencyKey = useIdempotencyKey(importKey, null)
  const [fields, setFields] = useState(() => upload.columns.map((column) => column.field))
  const lastResult = reply && 'result' in reply && reply.intent !== 'upload' ? reply.result : null
  const preview = reply && 'preview' in reply ? reply.preview : null
  const [form, schemaFields] = useZodForm(MappingSchema, { id: `customer-import-${upload.id}`, lastResult })
  const busyWith = navigation.state === 'idle' ? null : navigation.formData?.get('intent')
  // A preview of other columns than those now chosen must not be imported without looking at it again.
  const stale = preview !== null && preview.columns.join() !== fields.join()
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="upload" value={upload.id} />
      <IdempotencyKeyInput value={idempotencyKey} />
      <Card className="space-y-4">
        <div className="space-y-1">
          <h2 className="text-lg font-semibold text-slate-900">Columns</h2>
          <p className="text-sm text-slate-700">
            {upload.rows.toLocaleString('en-US')} {upload.rows === 1 ? 'row' : 'rows'}, {upload.encoding}, values
            separated by {upload.delimiter}. Check the field each column goes into, then choose Preview. Nothing is
            saved until you choose Import.
          </p>
        </div>
        <ImportColumns
          columns={upload.columns}
          fields={fields}
          onChange={(index, field) => setFields((current) => current.map((f, i) => (i === index ? field : f)))}
        />
        {/* The columns' selects have no message of their own: a refusal of the upload or the columns shows here. */}
        <FormErrors form={form} fields={[schemaFields.upload, schemaFields.columns]} />
        <Button
          type="submit"
          name="intent"
          value="preview"
          variant={preview && !stale ? 'secondary' : 'primary'}
          pending={busyWith === 'preview'}
          pendingLabel="Reading every row…"
          disabled={busyWith === 'import'}
        >
          Preview
        </Button>
      </Card>
      {preview ? <ImportPreviewCard preview={preview} stale={stale} importing={busyWith === 'import'} /> : null}
      <p className="text-sm">
        <Link to="/app/customers/import" className="font-medium text-brand-700 underline">
          Upload a different file
        </Link>
      </p>
    </Form>
  )
}
