// A customer spreadsheet kept between "Preview" and "Import" (decision 016), so the person uploads it once and the
// import reads exactly the bytes the preview read. It goes to the app's private storage (disk under DATA_DIR, or
// the S3 bucket when one is set, so any app instance can read it back) under the company's own folder: an upload id
// from another company names nothing. Housekeeping deletes uploads a day old. Next to the file goes what the upload
// read of it (its header and a sample, as JSON), so viewing the page again never parses the file again (N7).
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { readForm } from './forms'
import { getObject, putObject, storage } from './storage.server'

const PREFIX = 'customer-imports'

/** Long enough to map, preview, fix a mapping and import; an upload left longer is deleted. */
export const IMPORT_UPLOAD_HOURS = 24

function keyOf(companyId: string, uploadId: string) {
  return `${PREFIX}/${companyId}/${uploadId}.csv`
}

function summaryKeyOf(companyId: string, uploadId: string) {
  return `${PREFIX}/${companyId}/${uploadId}.json`
}

function isUuid(value: string) {
  return z.uuid().safeParse(value).success
}

/**
 * Stores the file's bytes for the company, and `summary` (what reading it found, as JSON) when given; the id names
 * the upload in the page's address and forms.
 */
export async function saveImportUpload(companyId: string, bytes: Uint8Array, summary?: unknown): Promise<string> {
  const uploadId = randomUUID()
  await putObject(keyOf(companyId, uploadId), bytes, 'text/csv')
  if (summary !== undefined) await saveImportSummary(companyId, uploadId, summary)
  return uploadId
}

/** Stores what reading the upload found (written at upload; for an older upload, by the first page view). */
export async function saveImportSummary(companyId: string, uploadId: string, summary: unknown) {
  const json = new TextEncoder().encode(JSON.stringify(summary))
  await putObject(summaryKeyOf(companyId, uploadId.toLowerCase()), json, 'application/json')
}

/** The upload's stored summary (parsed JSON, for the caller to check), or null when there is none or it is gone. */
export async function readImportSummary(companyId: string, uploadId: string): Promise<unknown> {
  if (!isUuid(uploadId) || !isUuid(companyId)) return null
  const object = await getObject(summaryKeyOf(companyId, uploadId.toLowerCase()))
  if (!object) return null
  try {
    return JSON.parse(new TextDecoder().decode(object.bytes)) as unknown
  } catch {
    return null
  }
}

/** The company's upload, or null when the id is not one (malformed, expired, or another company's). */
export async function readImportUpload(companyId: string, uploadId: string): Promise<Uint8Array | null> {
  if (!isUuid(uploadId) || !isUuid(companyId)) return null
  const object = await getObject(keyOf(companyId, uploadId.toLowerCase()))
  return object ? new Uint8Array(object.bytes) : null
}

/** Deletes every company's uploads older than a day (housekeeping). */
export function pruneImportUploads(now = new Date()) {
  return storage().deleteOlderThan(PREFIX, new Date(now.getTime() - IMPORT_UPLOAD_HOURS * 3_600_000))
}

/** Room for the multipart wrapping and the form's other fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024

/**
 * The posted form of the import page: a multipart upload is read only up to the file cap (a larger file is
 * 'too-large' without reading the rest, so a 50 MB export costs 10 MB), anything else as a plain form.
 */
export async function readUploadForm(
  request: Request,
  maxFileBytes: number,
): Promise<FormData | 'too-large' | 'malformed'> {
  const type = request.headers.get('Content-Type') ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data')) return readForm(request)
  const limit = maxFileBytes + FORM_OVERHEAD_BYTES
  if (Number(request.headers.get('Content-Length') ?? 0) > limit) return 'too-large'
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = request.body?.getReader()
  for (;;) {
    const next = await reader?.read()
    if (!next || next.done) break
    total += next.value.byteLength
    if (total > limit) {
      await reader?.cancel()
      return 'too-large'
    }
    chunks.push(next.value)
  }
  try {
    return await new Response(Buffer.concat(chunks, total), { headers: { 'Content-Type': type } }).formData()
  } catch {
    return 'malformed'
  }
}
