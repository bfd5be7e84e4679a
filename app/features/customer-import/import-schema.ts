// "Import customers"' forms, shared by the page, its action and their tests: the upload, and the column mapping that
// "Preview" and "Import" post. Also what the action answers each step.
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { IMPORT_FIELDS, type ImportField } from '~/customer-import/fields'

/** The largest file the import reads (read-csv.server's MAX_FILE_BYTES; a test keeps the two equal). */
export const MAX_CSV_BYTES = 10 * 1024 * 1024
export const FILE_TOO_LARGE = 'This file is too large. Split it into files under 10 MB.'
export const CHOOSE_A_FILE = 'Choose a CSV file.'
export const UPLOAD_GONE =
  'This upload is no longer here (an upload is kept for a day). Upload the file again to import it.'

/** The value of "Don't import" (a column's field is this or an import field). */
export const NOT_IMPORTED = 'none'
export type ColumnChoice = ImportField | typeof NOT_IMPORTED

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

/** What a preview shows: the counts, what changes, and the rows' problems. */
export type ImportPreview = {
  /** The columns' fields this preview was made with. */
  columns: ColumnChoice[]
  counts: string
  changes: Array<{ label: string; text: string }>
  /** "Row 7: …", the first ones of `problemCount`. */
  problems: string[]
  problemCount: number
  rowsWithProblems: number
}

/** What the action answers (a successful upload or import redirects instead). */
export type ImportReply =
  | { intent: 'upload'; result: SubmissionResult<string[]>; preview: null }
  | { intent: 'preview' | 'import'; result: SubmissionResult<string[]>; preview: ImportPreview | null }
  | { intent: 'unknown'; message: string }
