// The import route's server part (docs/product.md "Import", decision 016): the uploaded file's columns, the upload, and
// "Preview" / "Import" of a mapping. The route checks who may import; these take the member's company.
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { z } from 'zod'
import { mapColumns, overrideMapping } from '~/customer-import/column-mapping'
import { type CsvDelimiter, type CsvEncoding, type CsvTable, readCsv } from '~/customer-import/read-csv.server'
import { applyImport, type ImportOutcome } from '~/models/customer-import.server'
import { previewImport } from '~/models/customer-import-preview.server'
import { oncePerKey, readIdempotencyKey } from '~/models/idempotency.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { readImportSummary, readImportUpload, saveImportSummary, saveImportUpload } from '~/utils/import-uploads.server'
import { failureStatus } from '~/utils/result'
import type { ImportColumn } from './import-columns'
import {
  type ImportPreview,
  type ImportReply,
  MappingSchema,
  NOT_IMPORTED,
  UPLOAD_GONE,
  UploadSchema,
} from './import-schema'

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

/**
 * What the upload read of the file, kept next to it (import-uploads.server.ts) so a page view reads a few kilobytes
 * of JSON instead of parsing up to 10 MB again (N7): its size, layout, header and each column's sample.
 */
const UploadSummarySchema = z.object({
  rows: z.number().int().nonnegative(),
  encoding: z.enum(Object.keys(ENCODING_LABELS) as [CsvEncoding, ...CsvEncoding[]]),
  delimiter: z.enum(Object.keys(DELIMITER_LABELS) as [CsvDelimiter, ...CsvDelimiter[]]),
  headers: z.array(z.string()),
  samples: z.array(z.string().nullable()),
})
type UploadSummary = z.infer<typeof UploadSummarySchema>

function summaryOf(table: CsvTable): UploadSummary {
  return {
    rows: table.rows.length,
    encoding: table.encoding,
    delimiter: table.delimiter,
    headers: table.headers,
    samples: table.headers.map((_, index) => sampleOf(table.rows, index)),
  }
}

/**
 * The upload's summary: the stored one, or — for an upload kept before summaries were (or whose summary is lost) —
 * read from the file once and stored. Null when the upload is gone, another company's, or no longer readable.
 */
async function uploadSummary(companyId: string, uploadId: string): Promise<UploadSummary | null> {
  const stored = UploadSummarySchema.safeParse(await readImportSummary(companyId, uploadId))
  if (stored.success) return stored.data
  const bytes = await readImportUpload(companyId, uploadId)
  const read = bytes ? await readCsv(bytes) : null
  if (!read?.ok) return null
  const summary = summaryOf(read.table)
  await saveImportSummary(companyId, uploadId, summary)
  return summary
}

/** The page: with `?upload=`, that file's columns and the field each goes into; a 404 when the upload is gone. */
export async function loadImportPage(companyId: string, uploadId: string | null) {
  // The import form's idempotency key: one per page load (an import redirects away).
  const importKey = crypto.randomUUID()
  if (!uploadId) return { importKey, upload: null, uploadGone: false }
  const summary = await uploadSummary(companyId, uploadId)
  // Another company's upload id names nothing here, exactly as an expired one.
  if (!summary) return data({ importKey, upload: null, uploadGone: true }, 404)
  const columns: ImportColumn[] = mapColumns(summary.headers).map((column) => ({
    index: column.index,
    header: column.header,
    field: column.field ?? NOT_IMPORTED,
    confidence: column.confidence,
    note: column.note ?? null,
    sample: summary.samples[column.index] ?? null,
  }))
  return {
    importKey,
    uploadGone: false,
    upload: {
      id: uploadId.toLowerCase(),
      rows: summary.rows,
      encoding: ENCODING_LABELS[summary.encoding],
      delimiter: DELIMITER_LABELS[summary.delimiter],
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

function reply(body: ImportReply, status = 200) {
  return data<ImportReply>(body, status)
}

/** The upload refused, with `message` at the file field. */
export function uploadRefused(message: string) {
  return reply({ intent: 'upload', result: { status: 'error', error: { file: [message] } }, preview: null }, 400)
}

/** Reads the file as the import will (so a wrong encoding or delimiter is told now), keeps it, shows its columns. */
export async function uploadFile(companyId: string, form: FormData) {
  const submission = parseWithZod(form, { schema: UploadSchema })
  if (submission.status !== 'success') {
    return reply({ intent: 'upload', result: submission.reply({ hideFields: ['file'] }), preview: null }, 400)
  }
  const bytes = new Uint8Array(await submission.value.file.arrayBuffer())
  const read = await readCsv(bytes)
  if (!read.ok) return uploadRefused(read.message)
  const uploadId = await saveImportUpload(companyId, bytes, summaryOf(read.table))
  throw redirect(`/app/customers/import?upload=${uploadId}`)
}

/** "Preview" writes nothing; "Import" applies the same plan once per idempotency key and goes back to the list. */
export async function previewOrImport(
  { companyId, userId }: { companyId: string; userId: string },
  form: FormData,
  intent: 'preview' | 'import',
) {
  const submission = parseWithZod(form, { schema: MappingSchema })
  if (submission.status !== 'success') return reply({ intent, result: submission.reply(), preview: null }, 400)
  const { upload: uploadId, columns, skipRowsWithProblems } = submission.value
  const bytes = await readImportUpload(companyId, uploadId)
  if (!bytes) return reply({ intent, result: submission.reply({ formErrors: [UPLOAD_GONE] }), preview: null }, 404)

  const choices = Object.fromEntries(
    columns.map((field, index) => [index, field === NOT_IMPORTED ? null : field] as const),
  )
  const previewed = await previewImport(companyId, bytes, (headers) => overrideMapping(mapColumns(headers), choices))
  if (!previewed.ok) {
    const result = submission.reply({ formErrors: [previewed.message] })
    return reply({ intent, result, preview: null }, failureStatus(previewed))
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
  if (intent === 'preview') return { intent, result: submission.reply(), preview } satisfies ImportReply

  const idempotency = readIdempotencyKey(form)
  if (!idempotency.ok) {
    return reply({ intent, result: submission.reply({ formErrors: [idempotency.message] }), preview }, 400)
  }
  // A double submit (or a retry after a lost answer) carries the same key: one import, the first one's summary.
  // Bound to the upload and the choices made for it (columns, skipping rows with problems): the same key with
  // another file or mapping is refused rather than answered with the first import's summary.
  const applied = await oncePerKey(
    {
      companyId,
      key: idempotency.key,
      action: 'customer.import',
      userId,
      target: companyId,
      body: { upload: uploadId, columns, skipRowsWithProblems },
    },
    (tx) => applyImport(companyId, plan, { skipRowsWithProblems, executor: tx }),
  )
  if (!applied.ok) {
    const result = submission.reply({ formErrors: [applied.message] })
    return reply({ intent, result, preview }, failureStatus(applied))
  }
  return redirectWithFlash('/app/customers', importedMessage(applied))
}

/** "Import finished. Customers: 2 new, 1 updated, 9 unchanged. …" — the re-import of a file says "0 new". */
function importedMessage(outcome: ImportOutcome) {
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
