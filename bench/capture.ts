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
 * Answers each request once to warm up (lazy imports, the company cache), then twice more while recording. `env` must
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
  const requestFor = (page: PageRequest) =>
    new Request(`${options.env.APP_URL}${page.path}`, { method: page.method, headers: page.headers, body: page.body })
  try {
    for (const page of options.pages) await (await serve(requestFor(page), handler)).arrayBuffer()
    // Start-up's background work (visit generation, overdue notices, autopay: a statement or more per company) goes
    // through the same driver: a page is recorded only after 300 ms in which nothing else spoke to the database.
    const quiet = async () => {
      for (let waited = 0; waited < 60_000; waited += 300) {
        recording = []
        await new Promise((resolve) => setTimeout(resolve, 300))
        const heard = recording.length
        recording = null
        if (heard === 0) return
      }
      throw new Error('the database never went quiet: a background task keeps running')
    }
    for (const page of options.pages) {
      await quiet()
      // Recorded twice, the shorter kept: a background task (the outbox polls every few seconds) that runs during
      // one of them sends its statements through the same driver, and they are not the page's.
      let best: { statements: Statement[]; status: number; html: Buffer } | undefined
      for (let attempt = 0; attempt < 2; attempt++) {
        recording = []
        const response = await serve(requestFor(page), handler)
        const html = Buffer.from(await response.arrayBuffer())
        const statements = recording
        recording = null
        if (!best || statements.length < best.statements.length) best = { statements, status: response.status, html }
      }
      if (!best) continue
      captured.push({
        name: page.name,
        status: best.status,
        statements: best.statements,
        htmlBytes: page.method === 'GET' ? best.html.byteLength : 0,
        htmlGzipBytes: page.method === 'GET' ? zlib.gzipSync(best.html).byteLength : 0,
      })
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
