import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createDiskStorage,
  createS3Storage,
  getObject,
  InvalidStorageKeyError,
  putObject,
  storage,
} from './storage.server'

describe('disk storage', () => {
  const root = () => path.join(process.env.DATA_DIR as string, 'uploads')

  it('is the default, under DATA_DIR/uploads, and round-trips bytes with their type', async () => {
    expect(storage().kind).toBe('disk')
    await putObject('visit-1/before-1-photo-abc.jpg', Buffer.from('jpeg bytes'), 'image/jpeg')
    expect(fs.readFileSync(path.join(root(), 'visit-1/before-1-photo-abc.jpg'), 'utf8')).toBe('jpeg bytes')
    const object = await getObject('visit-1/before-1-photo-abc.jpg')
    expect(object?.bytes.toString()).toBe('jpeg bytes')
    expect(object?.contentType).toBe('image/jpeg')
    // No temporary files are left behind.
    expect(fs.readdirSync(path.join(root(), 'visit-1'))).toEqual(['before-1-photo-abc.jpg'])
  })

  it('answers null for a missing object, and deleting twice is fine', async () => {
    const disk = createDiskStorage(root())
    expect(await disk.getObject('nothing/here.jpg')).toBeNull()
    await disk.putObject('gone/soon.jpg', Buffer.from('x'), 'image/jpeg')
    await disk.deleteObject('gone/soon.jpg')
    await disk.deleteObject('gone/soon.jpg')
    expect(await disk.getObject('gone/soon.jpg')).toBeNull()
  })

  it('refuses every key that could leave the uploads folder', async () => {
    const disk = createDiskStorage(root())
    const outside = path.join(process.env.DATA_DIR as string, 'escaped.jpg')
    for (const key of [
      '../escaped.jpg',
      'a/../../escaped.jpg',
      '/etc/passwd',
      'a/./b.jpg',
      '..',
      '',
      'a\\..\\..\\escaped.jpg',
      'a//b.jpg',
      'a/b.jpg\0',
      '.hidden',
    ]) {
      await expect(disk.putObject(key, Buffer.from('x'), 'image/jpeg'), key).rejects.toBeInstanceOf(
        InvalidStorageKeyError,
      )
      await expect(disk.getObject(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError)
      await expect(disk.deleteObject(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError)
    }
    expect(fs.existsSync(outside)).toBe(false)
  })
})

describe('S3 storage', () => {
  // A minimal S3-compatible server (path-style PUT/GET/DELETE), so the real SDK is exercised over HTTP.
  const objects = new Map<string, { body: Buffer; type: string }>()
  const paths: string[] = []
  let server: http.Server
  let endpoint: string

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://localhost')
        const name = decodeURIComponent(url.pathname)
        paths.push(`${req.method} ${name}`)
        if (!req.headers.authorization?.startsWith('AWS4-HMAC-SHA256')) {
          res.writeHead(403).end()
        } else if (req.method === 'PUT') {
          objects.set(name, { body: Buffer.concat(chunks), type: String(req.headers['content-type']) })
          res.writeHead(200, { ETag: '"1"' }).end()
        } else if (req.method === 'GET' && url.searchParams.get('list-type') === '2') {
          // ListObjectsV2, one page; every object is a day old except those whose key says "new".
          const bucket = name.replace(/\/$/, '')
          const prefix = `${bucket}/${url.searchParams.get('prefix') ?? ''}`
          const keys = [...objects.keys()].filter((key) => key.startsWith(prefix))
          const contents = keys.map((key) => {
            const modified = key.includes('new') ? new Date() : new Date(Date.now() - 86_400_000)
            return `<Contents><Key>${key.slice(bucket.length + 1)}</Key><LastModified>${modified.toISOString()}</LastModified></Contents>`
          })
          res
            .writeHead(200, { 'Content-Type': 'application/xml' })
            .end(
              `<?xml version="1.0"?><ListBucketResult><IsTruncated>false</IsTruncated>${contents.join('')}</ListBucketResult>`,
            )
        } else if (req.method === 'GET') {
          const object = objects.get(name)
          if (!object) {
            res
              .writeHead(404, { 'Content-Type': 'application/xml' })
              .end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>')
          } else {
            res.writeHead(200, { 'Content-Type': object.type, 'Content-Length': object.body.length }).end(object.body)
          }
        } else if (req.method === 'DELETE') {
          objects.delete(name)
          res.writeHead(204).end()
        } else {
          res.writeHead(405).end()
        }
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  it('puts, gets and deletes objects in the bucket with path-style requests', async () => {
    const s3 = createS3Storage({
      bucket: 'photos',
      endpoint,
      region: 'auto',
      accessKeyId: 'test-key',
      secretAccessKey: 'test-secret',
    })
    expect(s3.kind).toBe('s3')
    await s3.putObject('visit-2/after-1-pool-abc.jpg', Buffer.from('jpeg!'), 'image/jpeg')
    expect(objects.get('/photos/visit-2/after-1-pool-abc.jpg')).toEqual({
      body: Buffer.from('jpeg!'),
      type: 'image/jpeg',
    })

    const object = await s3.getObject('visit-2/after-1-pool-abc.jpg')
    expect(object?.bytes.toString()).toBe('jpeg!')
    expect(object?.contentType).toBe('image/jpeg')
    expect(await s3.getObject('visit-2/missing.jpg')).toBeNull()

    await s3.deleteObject('visit-2/after-1-pool-abc.jpg')
    expect(await s3.getObject('visit-2/after-1-pool-abc.jpg')).toBeNull()
    expect(paths.every((p) => p.split(' ')[1]?.startsWith('/photos/'))).toBe(true)
  })

  it('deletes the objects under a folder written before a moment, and no others', async () => {
    const s3 = createS3Storage({ bucket: 'photos', endpoint, accessKeyId: 'k', secretAccessKey: 's' })
    await s3.putObject('imports/a/old.csv', Buffer.from('1'), 'text/csv')
    await s3.putObject('imports/a/new.csv', Buffer.from('2'), 'text/csv')
    await s3.putObject('elsewhere/old.csv', Buffer.from('3'), 'text/csv')
    expect(await s3.deleteOlderThan('imports', new Date(Date.now() - 3_600_000))).toBe(1)
    expect(await s3.getObject('imports/a/old.csv')).toBeNull()
    expect((await s3.getObject('imports/a/new.csv'))?.bytes.toString()).toBe('2')
    expect((await s3.getObject('elsewhere/old.csv'))?.bytes.toString()).toBe('3')
  })

  it('refuses bad keys before sending anything', async () => {
    const s3 = createS3Storage({ bucket: 'photos', endpoint, accessKeyId: 'k', secretAccessKey: 's' })
    const sent = paths.length
    await expect(s3.putObject('../x.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toBeInstanceOf(
      InvalidStorageKeyError,
    )
    await expect(s3.getObject('a/../../x.jpg')).rejects.toBeInstanceOf(InvalidStorageKeyError)
    expect(paths.length).toBe(sent)
  })
})
