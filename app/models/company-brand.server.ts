// The company's logo file (issue 38 item 8, docs/decisions/044-company-brand.md): a PNG or JPEG of at most 1 MB,
// known by its first bytes; re-encoded by sharp (as photos are) to at most 600 × 200 pixels with no metadata; stored
// privately like photos under `logos/<random>`; one per company, a new upload replacing the old file.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { companies } from '~/db/schema'
import { db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { failure, type Result, success } from '~/utils/result'
import { deleteObject, getObject, putObject } from '~/utils/storage.server'
import {
  LOGO_MESSAGES,
  type LogoFormat,
  logoContentType,
  logoFormatOf,
  logoKeyFor,
  MAX_LOGO_BYTES,
} from './company-brand'

/** Larger images are refused before decoding (a small file can unpack to gigabytes). */
const MAX_LOGO_PIXELS = 25_000_000
/** The stored logo fits this box: plenty for a letterhead, small enough for every email to carry. */
export const LOGO_BOX = { width: 600, height: 200 }

/** Checks the bytes are a PNG or JPEG of at most 1 MB, then re-encodes them in the same format, fitted to LOGO_BOX. */
export async function processLogo(bytes: Uint8Array): Promise<Result<{ format: LogoFormat; bytes: Buffer }>> {
  if (bytes.byteLength === 0) return failure('invalid', LOGO_MESSAGES.noFile, 'logo')
  if (bytes.byteLength > MAX_LOGO_BYTES) return failure('too-large', LOGO_MESSAGES.tooLarge, 'logo')
  const format = logoFormatOf(bytes)
  if (!format) return failure('invalid', LOGO_MESSAGES.notImage, 'logo')
  try {
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata()
    if (metadata.format !== format || !metadata.width || !metadata.height) {
      return failure('invalid', LOGO_MESSAGES.notImage, 'logo')
    }
    if (metadata.width * metadata.height > MAX_LOGO_PIXELS) {
      return failure('invalid', LOGO_MESSAGES.tooManyPixels, 'logo')
    }
    const image = sharp(bytes, { limitInputPixels: MAX_LOGO_PIXELS, failOn: 'warning' })
      .autoOrient()
      .resize(LOGO_BOX.width, LOGO_BOX.height, { fit: 'inside', withoutEnlargement: true })
    const out = format === 'png' ? image.png({ compressionLevel: 9 }) : image.jpeg({ quality: 88, mozjpeg: true })
    return success({ format, bytes: await out.toBuffer() })
  } catch {
    // Truncated or corrupt files land here.
    return failure('invalid', LOGO_MESSAGES.notImage, 'logo')
  }
}

async function currentLogoKey(companyId: string) {
  const [row] = await db()
    .select({ logoKey: companies.logoKey })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1)
  return row ? row.logoKey : undefined
}

/** Removes a file no row points to any more; a failure leaves an orphan for the logs, never an error. */
async function discardLogoFile(key: string) {
  await deleteObject(key).catch((error: unknown) => logger.warn({ err: error, key }, 'old logo file not removed'))
}

/** Stores `bytes` as the company's logo (replacing any earlier one). */
export async function saveCompanyLogo(companyId: string, bytes: Uint8Array): Promise<Result> {
  const processed = await processLogo(bytes)
  if (!processed.ok) return processed
  const previous = await currentLogoKey(companyId)
  if (previous === undefined) return failure('not-found', 'Company not found.')
  const key = `logos/${randomBytes(16).toString('hex')}.${processed.format === 'png' ? 'png' : 'jpg'}`
  await putObject(key, processed.bytes, logoContentType(key))
  try {
    const rows = await db()
      .update(companies)
      .set({ logoKey: key })
      .where(eq(companies.id, companyId))
      .returning({ id: companies.id })
    if (rows.length === 0) throw new Error('company not found')
  } catch (error) {
    await discardLogoFile(key)
    throw error
  }
  if (previous) await discardLogoFile(previous)
  return success({})
}

/** Removes the company's logo (row first, then the file). */
export async function removeCompanyLogo(companyId: string): Promise<Result> {
  const previous = await currentLogoKey(companyId)
  if (previous === undefined) return failure('not-found', 'Company not found.')
  await db().update(companies).set({ logoKey: null }).where(eq(companies.id, companyId))
  if (previous) await discardLogoFile(previous)
  return success({})
}

/**
 * The logo an address names, only while it is some company's current logo: an old (replaced or removed) logo or a
 * guessed token gives null (a 404, the same whatever the reason). One lookup by the unique `logo_key`.
 */
export async function getPublicLogo(file: string) {
  const key = logoKeyFor(file)
  if (!key) return null
  const [current] = await db().select({ id: companies.id }).from(companies).where(eq(companies.logoKey, key)).limit(1)
  if (!current) return null
  const object = await getObject(key)
  return object ? { bytes: object.bytes, contentType: logoContentType(key) } : null
}

/** The logo's bytes for a PDF, or null (none, or its file is missing: the PDF is drawn without it). */
export async function readLogo(logoKey: string | null) {
  if (!logoKey) return null
  try {
    return (await getObject(logoKey))?.bytes ?? null
  } catch (error) {
    logger.warn({ err: error, logoKey }, 'logo file unreadable; drawn without it')
    return null
  }
}

/** The company's name, email and logo key, for a customer email queued where no query already reads them. */
export async function getEmailCompany(companyId: string, executor: Pick<ReturnType<typeof db>, 'select'> = db()) {
  const [row] = await executor
    .select({ name: companies.name, email: companies.email, logoKey: companies.logoKey })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1)
  return row ?? null
}
