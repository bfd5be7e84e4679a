// Private file storage (docs/architecture.md "Stack"): local disk under DATA_DIR/uploads by default, any
// S3-compatible bucket when S3_BUCKET is set. Nothing here is ever served directly: photos
// reach people only through an authorized route that reads them with getObject.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { type Env, env } from './env.server'

export type StoredObject = { bytes: Buffer; contentType: string }

export type Storage = {
  kind: 'disk' | 's3'
  putObject(key: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** The object, or null when there is none under `key`. */
  getObject(key: string): Promise<StoredObject | null>
  /** Removes the object; removing a missing one is not an error. */
  deleteObject(key: string): Promise<void>
  /** Removes every object under the folder `prefix` written before `cutoff` (housekeeping); how many it removed. */
  deleteOlderThan(prefix: string, cutoff: Date): Promise<number>
}

/** Thrown for a key that could name something outside the storage area. */
export class InvalidStorageKeyError extends Error {
  override name = 'InvalidStorageKeyError'
}

// Keys are built by our code, never taken from a request; this is the second line of defense.
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/

export function assertValidKey(key: string) {
  if (key.length > 512 || !KEY_PATTERN.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
    throw new InvalidStorageKeyError(`Invalid storage key: ${JSON.stringify(key)}`)
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
}

/**
 * Local disk under `root`. The content type is not stored beside the file; it follows from the
 * key's extension, which our keys always carry.
 */
export function createDiskStorage(root: string): Storage {
  const base = path.resolve(root)

  function fileFor(key: string) {
    assertValidKey(key)
    const file = path.resolve(base, key)
    // The pattern already rules out "..", but a resolved path outside the folder is refused regardless.
    if (!file.startsWith(base + path.sep)) throw new InvalidStorageKeyError(`Key escapes storage: ${key}`)
    return file
  }

  return {
    kind: 'disk',
    async putObject(key, bytes) {
      const file = fileFor(key)
      await fs.mkdir(path.dirname(file), { recursive: true })
      // Write then rename, so a reader never sees half a file.
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
      try {
        await fs.writeFile(temp, bytes, { mode: 0o600 })
        await fs.rename(temp, file)
      } catch (error) {
        await fs.rm(temp, { force: true })
        throw error
      }
    },
    async getObject(key) {
      const file = fileFor(key)
      try {
        const bytes = await fs.readFile(file)
        return { bytes, contentType: CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream' }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async deleteObject(key) {
      await fs.rm(fileFor(key), { force: true })
    },
    async deleteOlderThan(prefix, cutoff) {
      const folder = fileFor(prefix)
      let entries: string[]
      try {
        entries = await fs.readdir(folder, { recursive: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
        throw error
      }
      let removed = 0
      for (const entry of entries) {
        const file = path.join(folder, entry)
        // Gone since the listing (deleted meanwhile, or by another sweep): nothing to remove.
        const stat = await fs.stat(file).catch(() => null)
        if (!stat?.isFile() || stat.mtime >= cutoff) continue
        await fs.rm(file, { force: true })
        removed++
      }
      return removed
    },
  }
}

export type S3Config = {
  bucket: string
  endpoint?: string | undefined
  region?: string | undefined
  accessKeyId?: string | undefined
  secretAccessKey?: string | undefined
}

type S3Module = typeof import('@aws-sdk/client-s3')

/** Any S3-compatible store; with an endpoint (MinIO, R2, Ceph…) it uses path-style addressing. */
export function createS3Storage(config: S3Config): Storage {
  const Bucket = config.bucket
  let sdk: Promise<{ client: InstanceType<S3Module['S3Client']>; s3: S3Module }> | undefined
  // The SDK is large; only deployments that use a bucket pay for loading it.
  function connect() {
    sdk ??= import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({
        region: config.region ?? 'us-east-1',
        endpoint: config.endpoint,
        forcePathStyle: Boolean(config.endpoint),
        credentials:
          config.accessKeyId && config.secretAccessKey
            ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
            : undefined,
        // Several S3-compatible stores reject the SDK's newer default checksum headers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }))
    return sdk
  }

  return {
    kind: 's3',
    async putObject(key, bytes, contentType) {
      assertValidKey(key)
      const { client, s3 } = await connect()
      await client.send(new s3.PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType }))
    },
    async getObject(key) {
      assertValidKey(key)
      const { client, s3 } = await connect()
      try {
        const result = await client.send(new s3.GetObjectCommand({ Bucket, Key: key }))
        if (!result.Body) return null
        const bytes = Buffer.from(await result.Body.transformToByteArray())
        return { bytes, contentType: result.ContentType ?? 'application/octet-stream' }
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
        if ((error as Error).name === 'NoSuchKey' || status === 404) return null
        throw error
      }
    },
    async deleteObject(key) {
      assertValidKey(key)
      const { client, s3 } = await connect()
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }))
    },
    async deleteOlderThan(prefix, cutoff) {
      assertValidKey(prefix)
      const { client, s3 } = await connect()
      let removed = 0
      let ContinuationToken: string | undefined
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket, Prefix: `${prefix}/`, ContinuationToken }))
        for (const item of page.Contents ?? []) {
          if (!item.Key || !item.LastModified || item.LastModified >= cutoff) continue
          // One DELETE per object: DeleteObjects needs a checksum header several S3-compatible stores refuse.
          await client.send(new s3.DeleteObjectCommand({ Bucket, Key: item.Key }))
          removed++
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
      return removed
    },
  }
}

let cached: { config: Env; storage: Storage } | undefined

/** The storage the environment asks for, made once per environment read (like env()). */
export function storage(): Storage {
  const config = env()
  if (cached?.config !== config) {
    const made = config.S3_BUCKET
      ? createS3Storage({
          bucket: config.S3_BUCKET,
          endpoint: config.S3_ENDPOINT,
          region: config.S3_REGION,
          accessKeyId: config.S3_ACCESS_KEY_ID,
          secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        })
      : createDiskStorage(path.join(config.DATA_DIR, 'uploads'))
    cached = { config, storage: made }
  }
  return cached.storage
}

export function putObject(key: string, bytes: Uint8Array, contentType: string) {
  return storage().putObject(key, bytes, contentType)
}

export function getObject(key: string) {
  return storage().getObject(key)
}

export function deleteObject(key: string) {
  return storage().deleteObject(key)
}
