// /app/customers/import — "Import customers" (OPERATIONS §3, decision 016): upload a CSV, check the field each
// column goes into, "Preview" (counts and every row's problems, nothing written), then "Import". The file is kept in
// private storage between those steps, so it is uploaded once and the import reads exactly what the preview read.
import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { data, Form, Link, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from 'react-router'
import { z } from 'zod'
import { requireCompanyCapability } from '~/auth/guards.server'
import { type ImportColumn, ImportColumns, NOT_IMPORTED } from '~/components/customer-import/import-columns'
import { type ImportPreview, ImportPreviewCard } from '~/components/customer-import/import-preview'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { Field } from '~/components/ui/field'
import { textLinkTarget } from '~/components/ui/touch'
import { mapColumns, overrideMapping } from '~/customer-import/column-mapping'
import { IMPORT_FIELDS } from '~/customer-import/fields'
import { type CsvDelimiter, type CsvEncoding, readCsv } from '~/customer-import/read-csv.server'
import { applyImport, type ImportOutcome, previewImport } from '~/models/customer-import.server'
import { oncePerKey, readIdempotencyKey } from '~/models/idempotency.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { readImportUpload, readUploadForm, saveImportUpload } from '~/utils/import-uploads.server'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/customers-import'

/** The largest file the import reads (read-csv.server's MAX_FILE_BYTES; a test keeps the two equal). */
export const MAX_CSV_BYTES = 10 * 1024 * 1024
export const FILE_TOO_LARGE = 'This file is too large. Split it into files under 10 MB.'
const CHOOSE_A_FILE = 'Choose a CSV file.'
export const UPLOAD_GONE =
  'This upload is no longer here (an upload is kept for a day). Upload the file again to import it.'

export const UploadSchema = z.object({
  file: z
    .instanceof(File, { error: CHOOSE_A_FILE })
    .refine((file) => file.size > 0, 'This file is empty.')
    .refine((file) => file.size <= MAX_CSV_BYTES, FILE_TOO_LARGE),
})

/** "Preview" and "Import" post the same form: the upload, each column's field, and whether to skip problem rows. */
export const MappingSchema = z.object({
  upload: z.uuid({ error: UPLOAD_GONE }),
  columns: z.array(z.enum([NOT_IMPORTED, ...IMPORT_FIELDS], { error: 'Choose a field from the list.' })).default([]),
  skipRowsWithProblems: z.boolean().default(false),
})

const ENCODING_LABELS: Record<CsvEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-8 with BOM': 'UTF-8',
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
  'windows-1252': 'Windows-1252',
}
const DELIMITER_LABELS: Record<CsvDelimiter, string> = {
  ',': 'commas',
  ';': 'semicolons',
  '\t': 'tabs',
  '|': 'bars (|)',
}
/** Problems listed on the page; the count says how many more there are. */
const PROBLEMS_SHOWN = 200
const SAMPLE_ROWS = 5

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId } = await requireCompanyCapability(request, 'customers:manage')
  const uploadId = new URL(request.url).searchParams.get('upload')
  // The import form's idempotency key: one per page load (an import redirects away).
  const importKey = crypto.randomUUID()
  if (!uploadId) return { importKey, upload: null, uploadGone: false }
  const bytes = await readImportUpload(companyId, uploadId)
  const read = bytes ? await readCsv(bytes) : null
  // Another company's upload id names nothing here, exactly as an expired one.
  if (!read?.ok) return data({ importKey, upload: null, uploadGone: true }, 404)
  const { table } = read
  const columns: ImportColumn[] = mapColumns(table.headers).map((column) => ({
    index: column.index,
    header: column.header,
    field: column.field ?? NOT_IMPORTED,
    confidence: column.confidence,
    note: column.note ?? null,
    sample: sampleOf(table.rows, column.index),
  }))
  return {
    importKey,
    uploadGone: false,
    upload: {
      id: uploadId.toLowerCase(),
      rows: table.rows.length,
      encoding: ENCODING_LABELS[table.encoding],
      delimiter: DELIMITER_LABELS[table.delimiter],
      columns,
    },
  }
}

/** The first value of the column in the first rows, so the person sees what the column holds. */
function sampleOf(rows: ReadonlyArray<{ values: string[] }>, index: number) {
  for (const row of rows.slice(0, SAMPLE_ROWS)) {
    const value = row.values[index]?.trim()
    if (value) return value.length > 60 ? `${value.slice(0, 59)}…` : value
  }
  return null
}

export async function action({ request }: Route.ActionArgs) {
  const { companyId } = await requireCompanyCapability(request, 'customers:manage')
  const form = await readUploadForm(request, MAX_CSV_BYTES)
  if (form === 'too-large') return uploadRefused(FILE_TOO_LARGE)
  if (form === 'malformed') return uploadRefused(CHOOSE_A_FILE)
  const intent = form.get('intent')
  if (intent === 'upload') return upload(companyId, form)
  if (intent === 'preview' || intent === 'import') return previewOrImport(companyId, form, intent)
  return data({ intent: 'unknown' as const, message: 'Unknown action.' }, 400)
}

function uploadRefused(message: string) {
  return data(
    { intent: 'upload' as const, result: { status: 'error' as const, error: { file: [message] } }, preview: null },
    400,
  )
}

/** Reads the file as the import will (so a wrong encoding or delimiter is told now), keeps it, shows its columns. */
async function upload(companyId: string, form: FormData) {
  const submission = parseWithZod(form, { schema: UploadSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'upload' as const, result: submission.reply({ hideFields: ['file'] }), preview: null }, 400)
  }
  const bytes = new Uint8Array(await submission.value.file.arrayBuffer())
  const read = await readCsv(bytes)
  if (!read.ok) return uploadRefused(read.message)
  const uploadId = await saveImportUpload(companyId, bytes)
  throw redirect(`/app/customers/import?upload=${uploadId}`)
}

async function previewOrImport(companyId: string, form: FormData, intent: 'preview' | 'import') {
  const submission = parseWithZod(form, { schema: MappingSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply(), preview: null }, 400)
  const { upload: uploadId, columns, skipRowsWithProblems } = submission.value
  const bytes = await readImportUpload(companyId, uploadId)
  if (!bytes) return data({ intent, result: submission.reply({ formErrors: [UPLOAD_GONE] }), preview: null }, 404)

  const choices = Object.fromEntries(
    columns.map((field, index) => [index, field === NOT_IMPORTED ? null : field] as const),
  )
  const previewed = await previewImport(companyId, bytes, (headers) => overrideMapping(mapColumns(headers), choices))
  if (!previewed.ok) {
    const reply = submission.reply({ formErrors: [previewed.message] })
    return data({ intent, result: reply, preview: null }, failureStatus(previewed))
  }
  const { plan, summary } = previewed
  const preview: ImportPreview = {
    columns,
    counts: summary.counts,
    changes: [
      { label: 'Customers', text: summary.customers },
      { label: 'Service locations', text: summary.locations },
      { label: 'Bodies of water', text: summary.bodiesOfWater },
      { label: 'Service plans', text: summary.plans },
    ],
    problems: plan.problems.slice(0, PROBLEMS_SHOWN).map((problem) => problem.message),
    problemCount: plan.problems.length,
    rowsWithProblems: plan.skippedRows.length,
  }
  if (intent === 'preview') return { intent, result: submission.reply(), preview }

  const idempotency = readIdempotencyKey(form)
  if (!idempotency.ok) {
    return data({ intent, result: submission.reply({ formErrors: [idempotency.message] }), preview }, 400)
  }
  // A double submit (or a retry after a lost answer) carries the same key: one import, the first one's summary.
  const applied = await oncePerKey({ companyId, key: idempotency.key, action: 'customer.import' }, (tx) =>
    applyImport(companyId, plan, { skipRowsWithProblems, executor: tx }),
  )
  if (!applied.ok) {
    const reply = submission.reply({ formErrors: [applied.message] })
    return data({ intent, result: reply, preview }, failureStatus(applied))
  }
  return redirectWithFlash('/app/customers', importedMessage(applied))
}

/** "Import finished. Customers: 2 new, 1 updated, 9 unchanged. …" — the re-import of a file says "0 new". */
export function importedMessage(outcome: ImportOutcome) {
  const { summary, skippedRows } = outcome
  const parts = [
    `Import finished. Customers: ${summary.customers}.`,
    `Service locations: ${summary.locations}.`,
    `Bodies of water: ${summary.bodiesOfWater}.`,
    `Service plans: ${summary.plans}.`,
  ]
  if (skippedRows.length > 0) {
    const listed = skippedRows.slice(0, 10).join(', ')
    const more = skippedRows.length > 10 ? ` and ${skippedRows.length - 10} more` : ''
    parts.push(`Skipped ${skippedRows.length === 1 ? 'row' : 'rows'} with problems: ${listed}${more}.`)
  }
  return parts.join(' ')
}

/** A preview changes nothing, so the page's data (the file's columns) need not be read again after it. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get('intent') === 'preview') return false
  return defaultShouldRevalidate
}

export function meta() {
  return [{ title: 'Import customers · Pool Bud' }]
}

export default function ImportCustomersPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold text-slate-900">Import customers</h1>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <Link to="/app/customers" className={cn('font-medium text-brand-700 underline', textLinkTarget)}>
            Back to customers
          </Link>
          <a
            href="/app/customers/export.csv"
            download
            className={cn('font-medium text-brand-700 underline', textLinkTarget)}
          >
            Export customers (CSV)
          </a>
        </div>
      </div>
      {loaderData.upload ? (
        <MappingStep upload={loaderData.upload} importKey={loaderData.importKey} actionData={actionData} />
      ) : (
        <UploadStep uploadGone={loaderData.uploadGone} actionData={actionData} />
      )}
    </div>
  )
}

type ActionData = Route.ComponentProps['actionData']

function UploadStep({ uploadGone, actionData }: { uploadGone: boolean; actionData: ActionData }) {
  const navigation = useNavigation()
  const lastResult = actionData && 'result' in actionData && actionData.intent === 'upload' ? actionData.result : null
  const [form, fields] = useForm({
    id: 'customer-import-upload',
    lastResult,
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UploadSchema }),
  })
  const uploading = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'upload'
  return (
    <Card className="space-y-4">
      <p className="text-sm text-slate-700">
        Upload the customer list exported from your old software, or a spreadsheet saved as CSV. You will see how its
        columns are read and what would be imported before anything is saved.
      </p>
      {uploadGone ? <Alert tone="error">{UPLOAD_GONE}</Alert> : null}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <Field
          label="CSV file"
          errors={fields.file.errors}
          hint="A .csv file (comma, semicolon or tab separated), up to 10 MB."
          inputProps={{
            ...getInputProps(fields.file, { type: 'file' }),
            accept: '.csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values',
            className:
              'file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1 file:text-brand-800',
          }}
        />
        <Button type="submit" name="intent" value="upload" pending={uploading} pendingLabel="Reading the file…">
          Upload
        </Button>
      </Form>
    </Card>
  )
}

type Upload = NonNullable<Route.ComponentProps['loaderData']['upload']>

function MappingStep({ upload, importKey, actionData }: { upload: Upload; importKey: string; actionData: ActionData }) {
  const navigation = useNavigation()
  const idempotencyKey = useIdempotencyKey(importKey, null)
  const [fields, setFields] = useState(() => upload.columns.map((column) => column.field))
  const lastResult = actionData && 'result' in actionData && actionData.intent !== 'upload' ? actionData.result : null
  const preview = actionData && 'preview' in actionData ? actionData.preview : null
  const [form] = useForm({ id: `customer-import-${upload.id}`, lastResult, shouldValidate: 'onSubmit' })
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
        {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
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

export function ErrorBoundary() {
  return <RouteError />
}
