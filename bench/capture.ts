// What each benchmarked page asks of the database: every statement (text and parameters) that one request sends,
// recorded at the driver — `pg.Client.prototype.query`, so statements on a pooled connection inside a transaction
// are seen too — while the server build answers that request in this process. The per-page baselines
// (bench/baseline.ts) replay exactly these statements, and the page's HTML size is measured from the same answer.

import { pathToFileURL } from 'node:url'
import zlib from 'node:zlib'
import pg from 'pg'
import type { ServerBuild } from 'react-router'

export type Statement = { text: string; values: unknown[] }
export type PageRequest = {
  name: string
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
}
export type CapturedPage = {
  name: string
  status: number
  statements: Statement[]
  htmlBytes: number
  htmlGzipBytes: number
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown

function statementOf(args: unknown[]): Statement | null {
  const [first, second] = args
  if (typeof first === 'string') return { text: first, values: Array.isArray(second) ? second : [] }
  if (first && typeof first === 'object' && 'text' in first) {
    const config = first as { text: string; values?: unknown[] }
    return { text: config.text, values: config.values ?? (Array.isArray(second) ? second : []) }
  }
  return null
}

/**
 * Answers each request once to warm up (lazy imports, the company cache), then once more while recording. `env` must
 * match the server that signed the cookies (AUTH_SECRET, APP_URL).
 */
export async function capturePages(options: {
  root: string
  databaseUrl: string
  env: Record<string, string>
  pages: PageRequest[]
}): Promise<CapturedPage[]> {
  Object.assign(process.env, options.env, { NODE_ENV: 'production', LOG_LEVEL: 'error' })
  // Only now: React picks its development or production build from NODE_ENV when first loaded, and React DOM (loaded
  // by the server build) must match it.
  const { createRequestHandler } = await import('react-router')
  // Loading the server build starts the app (entry.server.tsx): it opens DATABASE_URL, as the server would.
  process.env.DATABASE_URL = options.databaseUrl
  const build = (await import(pathToFileURL(`${options.root}/build/server/index.js`).href)) as ServerBuild
  const handler = createRequestHandler(build, 'production')
  const serve = (build.entry.module as { serveRequest?: typeof serveDirect }).serveRequest ?? serveDirect
  const prototype = pg.Client.prototype as unknown as { query: Query }
  const original = prototype.query
  let recording: Statement[] | null = null
  prototype.query = function recordingQuery(this: pg.Client, ...args: unknown[]) {
    const statement = recording && statementOf(args)
    if (statement) recording?.push(statement)
    return original.apply(this, args)
  }
  const captured: CapturedPage[] = []
  try {
    for (const page of options.pages) {
      const request = () =>
        new Request(`${options.env.APP_URL}${page.path}`, {
          method: page.method,
          headers: page.headers,
          body: page.body,
        })
      await (await serve(request(), handler)).arrayBuffer()
      recording = []
      const response = await serve(request(), handler)
      const html = Buffer.from(await response.arrayBuffer())
      captured.push({
        name: page.name,
        status: response.status,
        statements: recording,
        htmlBytes: page.method === 'GET' ? html.byteLength : 0,
        htmlGzipBytes: page.method === 'GET' ? zlib.gzipSync(html).byteLength : 0,
      })
      recording = null
    }
  } finally {
    prototype.query = original
    await (build.entry.module as unknown as { stopApp: () => Promise<void> }).stopApp()
  }
  return captured
}

function serveDirect(request: Request, handle: (request: Request) => Promise<Response>) {
  return handle(request)
}
