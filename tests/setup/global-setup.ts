// Migrates one template database per run: a PGlite dump, or a PostgreSQL template database
// when DATABASE_URL is set. Each test file then gets its own copy (see test-env.ts).

import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { migrateDatabase, openDatabase } from '~/utils/db.server'

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase:
      | { kind: 'pglite'; dumpFile: string }
      | { kind: 'postgres'; adminUrl: string; template: string; runId: string }
  }
}

/** The URL of another database on the same PostgreSQL server. */
export function databaseUrl(baseUrl: string, database: string) {
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  return url.toString()
}

export default async function setup(project: TestProject) {
  const baseUrl = process.env.DATABASE_URL
  if (!baseUrl) {
    const handle = await openDatabase({})
    await migrateDatabase(handle)
    if (handle.kind !== 'pglite') throw new Error('expected PGlite')
    const dump = await handle.client.dumpDataDir('none')
    await handle.close()
    const dumpFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-test-')), 'template.tar')
    fs.writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()))
    project.provide('testDatabase', { kind: 'pglite', dumpFile })
    return () => fs.rmSync(path.dirname(dumpFile), { recursive: true, force: true })
  }

  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  const template = `pool_bud_test_${runId}_template`
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`create database "${template}"`)
  const handle = await openDatabase({ databaseUrl: databaseUrl(baseUrl, template) })
  await migrateDatabase(handle)
  await handle.close()
  project.provide('testDatabase', { kind: 'postgres', adminUrl: baseUrl, template, runId })
  return async () => {
    // Drop this run's databases (the template and any a crashed file left behind).
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [
      `pool_bud_test_${runId}_%`,
    ])
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`)
    await admin.end()
  }
}
