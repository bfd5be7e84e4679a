// Migrates one template database per run, and a second one holding the demo data: PGlite dumps, or PostgreSQL
// template databases when DATABASE_URL is set. Each test file then gets its own copy of the first (see test-env.ts),
// and swaps it for a copy of the second when it wants the demo (tests/helpers/test-database.ts): seeding once per run
// instead of once per file.

import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { seedDemoData } from '~/demo/seed.server'
import { type DatabaseHandle, installDatabase, migrateDatabase, openDatabase } from '~/utils/db.server'
import { rereadEnv } from '~/utils/env.server'

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase:
      | { kind: 'pglite'; dumpFile: string; demoDumpFile: string; demoUploads: string }
      | {
          kind: 'postgres'
          adminUrl: string
          template: string
          demoTemplate: string
          demoUploads: string
          runId: string
        }
  }
}

/** The URL of another database on the same PostgreSQL server. */
export function databaseUrl(baseUrl: string, database: string) {
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/**
 * Seeds the demo into `handle` as a test file would, its photos going to a folder of their own (returned), which
 * each file that uses the demo copies into its data folder.
 */
async function seedDemo(handle: DatabaseHandle, folder: string) {
  const saved = { ...process.env }
  process.env.DATA_DIR = path.join(folder, 'data')
  process.env.AUTH_SECRET = 'test-secret-0123456789abcdef0123456789abcdef'
  process.env.APP_URL = 'http://localhost:3999'
  rereadEnv()
  installDatabase(handle)
  try {
    await seedDemoData(handle.db)
    // Analyzed, as a running app's database is (autovacuum; on PGlite the statistics task, decision 029): the copies
    // every file opens carry the statistics, so the planner chooses as it would in use.
    await handle.db.execute(sql`analyze`)
  } finally {
    installDatabase(undefined)
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
    Object.assign(process.env, saved)
    rereadEnv()
  }
  return path.join(folder, 'data', 'uploads')
}

export default async function setup(project: TestProject) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-test-'))
  const baseUrl = process.env.DATABASE_URL
  if (!baseUrl) {
    const handle = await openDatabase({})
    await migrateDatabase(handle)
    if (handle.kind !== 'pglite') throw new Error('expected PGlite')
    // Every file loads a copy, hundreds a run: a test's few megabytes need no 128 MB buffer pool, whose setting-up was
    // half of each load's processor time (decision 025). The setting goes in the copies' postgresql.auto.conf.
    await handle.client.exec(`alter system set shared_buffers = '16MB'`)
    const dump = async (file: string) => {
      // A checkpoint first, so a copy opens without replaying the write-ahead log.
      await handle.client.exec('checkpoint')
      fs.writeFileSync(file, Buffer.from(await (await handle.client.dumpDataDir('none')).arrayBuffer()))
    }
    const dumpFile = path.join(folder, 'template.tar')
    await dump(dumpFile)
    const demoUploads = await seedDemo(handle, folder)
    const demoDumpFile = path.join(folder, 'demo.tar')
    await dump(demoDumpFile)
    await handle.close()
    project.provide('testDatabase', { kind: 'pglite', dumpFile, demoDumpFile, demoUploads })
    return () => fs.rmSync(folder, { recursive: true, force: true })
  }

  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  const template = `pool_bud_test_${runId}_template`
  const demoTemplate = `pool_bud_test_${runId}_demo`
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`create database "${template}"`)
  const handle = await openDatabase({ databaseUrl: databaseUrl(baseUrl, template) })
  await migrateDatabase(handle)
  await handle.close()
  await admin.query(`create database "${demoTemplate}" template "${template}"`)
  const demo = await openDatabase({ databaseUrl: databaseUrl(baseUrl, demoTemplate) })
  const demoUploads = await seedDemo(demo, folder)
  await demo.close()
  project.provide('testDatabase', { kind: 'postgres', adminUrl: baseUrl, template, demoTemplate, demoUploads, runId })
  return async () => {
    // Drop this run's databases (the templates and any a crashed file left behind).
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [
      `pool_bud_test_${runId}_%`,
    ])
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`)
    await admin.end()
    fs.rmSync(folder, { recursive: true, force: true })
  }
}
