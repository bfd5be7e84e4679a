import path from 'node:path'
import { count } from 'drizzle-orm'
import { stripeConfig } from '~/billing/stripe-config.server'
import { user } from '~/db/schema'
import { seedDemoData } from '~/demo/seed.server'
// For their side effects: every email is rendered from a template registered here by name …
import '~/emails/templates.server'
// … the outbox worker started here must know how to prepare password-reset tasks (better-auth makes their link) …
import '~/auth/better-auth.server'
// … and how to send texts (Twilio when configured, the built-in mailbox's "Texts" otherwise).
import '~/outbox/text-delivery.server'
import { runAutopay } from '~/models/autopay.server'
import { queueOverdueNotices } from '~/models/invoice-notice.server'
import { placeZipPositions } from '~/models/location-position.server'
import { createPlatformAdmin } from '~/models/platform-admin.server'
import { generateVisits } from '~/models/visit-generation.server'
import { queueVisitReminders } from '~/models/visit-reminder.server'
import { twilioConfig } from '~/notices/twilio-config.server'
import { startOutboxWorker, stopOutboxWorker } from '~/outbox/start.server'
import { geocoderUrl } from '~/routing/config.server'
import { startBackgroundTask, stopBackgroundTasks } from '~/utils/background.server'
import { type DatabaseHandle, installDatabase, migrateDatabase, openDatabase } from '~/utils/db.server'
import { devMailboxEnabled } from '~/utils/dev-mailbox.server'
import { env } from '~/utils/env.server'
import { stopEvents } from '~/utils/events.server'
import { runHousekeeping } from '~/utils/housekeeping.server'
import { logger } from '~/utils/logger.server'
import { refreshTableStatistics, vacuumBeforeServing } from '~/utils/table-statistics.server'

/** `mailbox`: emails go to the built-in mailbox (no SMTP_URL); `mailboxPage`: it is listed at /dev/mailbox. */
export type StartupInfo = { database: 'pglite' | 'postgres'; seeded: boolean; mailbox: boolean; mailboxPage: boolean }

declare global {
  var __poolBudStartup: Promise<StartupInfo> | undefined
}

/** Whether to seed: SEED_DEMO decides when set; otherwise only an empty embedded database is seeded. */
async function shouldSeed(handle: DatabaseHandle) {
  const flag = env().SEED_DEMO
  if (flag) return flag === '1'
  if (handle.kind !== 'pglite') return false
  const [row] = await handle.db.select({ n: count() }).from(user)
  return (row?.n ?? 0) === 0
}

async function start(): Promise<StartupInfo> {
  const config = env()
  // Half-configured or malformed card payments or texts stop the server here (an EnvError naming the variable,
  // printed by server.mjs), before anything runs (decision 032).
  stripeConfig()
  twilioConfig()
  const handle = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: path.join(config.DATA_DIR, 'db'),
    // The embedded database runs beside the requests, not in their thread (decision 068).
    worker: true,
    // A server without its database only answers errors: it exits with an error code, for its supervisor to
    // restart it (decision 068).
    onWorkerStop: () => process.exit(1),
  })
  await migrateDatabase(handle)
  installDatabase(handle)
  const seeded = (await shouldSeed(handle)) ? await seedDemoData(handle.db) : false
  if (config.PLATFORM_ADMIN_EMAIL) {
    const bootstrap = await createPlatformAdmin(config.PLATFORM_ADMIN_EMAIL, { onlyIfNone: true })
    if (!bootstrap.created && bootstrap.reason === 'taken') {
      logger.error(
        { email: config.PLATFORM_ADMIN_EMAIL },
        'PLATFORM_ADMIN_EMAIL belongs to a company member or a customer; no platform administrator was created',
      )
    }
  }
  // Every delivery loop of the outbox: emails, texts and tasks, and webhooks
  // (docs/decisions/070-webhooks-in-the-outbox.md). Each claims its rows with SKIP LOCKED and a lease, so every server
  // may run them.
  startOutboxWorker()
  startBackgroundTask({ name: 'housekeeping', intervalMs: 60 * 60_000, run: runHousekeeping })
  // Keeps every plan's visits 8 weeks ahead (docs/product.md "Schedule"): now, then every few hours, so a day's
  // rollover is never far behind. Idempotent by the database's unique key, so several servers can all run it.
  startBackgroundTask({ name: 'visit-generation', intervalMs: 6 * 60 * 60_000, run: () => generateVisits() })
  // "Visit reminder" the afternoon before (docs/product.md "Notices"), for companies that turned it on; once per visit
  // by the notice's unique key, so every server may run it.
  startBackgroundTask({ name: 'visit-reminders', intervalMs: 60 * 60_000, run: () => queueVisitReminders() })
  // "Payment overdue" 7 and 14 days after an invoice's due date (docs/billing.md), once per mark by the notice's key.
  startBackgroundTask({ name: 'overdue-notices', intervalMs: 60 * 60_000, run: () => queueOverdueNotices() })
  // Autopay (docs/billing.md): sent invoices of customers with a saved card are charged off-session, declines retried
  // over a week. Claimed with SKIP LOCKED and a lease, charged with an idempotency key: safe on every server.
  startBackgroundTask({ name: 'autopay', intervalMs: 5 * 60_000, run: () => runAutopay() })
  // Locations placed at their ZIP's center (docs/subsystems.md, "Positions") move to their street address when a
  // geocoder is configured: claimed with SKIP LOCKED, looked up one a second outside any transaction.
  if (geocoderUrl()) {
    startBackgroundTask({ name: 'geocode-positions', intervalMs: 30_000, run: () => placeZipPositions() })
  }
  // The embedded database has no autovacuum: its planner statistics are kept here (app/utils/table-statistics), checked
  // every minute as autovacuum does (its naptime), so a customer import is searched with fresh statistics soon after.
  // A VACUUM too long to run beside requests runs now, before the server listens.
  if (handle.kind === 'pglite') {
    await vacuumBeforeServing()
    startBackgroundTask({ name: 'table-statistics', intervalMs: 60_000, run: refreshTableStatistics })
  }
  logger.info({ database: handle.kind, seeded }, 'Pool Bud is ready')
  return { database: handle.kind, seeded, mailbox: !config.SMTP_URL, mailboxPage: devMailboxEnabled(config) }
}

/** Opens and migrates the database, seeds the demo and starts the outbox's workers — once per process. */
export function startApp(): Promise<StartupInfo> {
  globalThis.__poolBudStartup ??= start()
  return globalThis.__poolBudStartup
}

/** Stops background work and closes the database so the process can exit (PGlite needs this). */
export async function stopApp() {
  await stopOutboxWorker()
  await stopBackgroundTasks()
  await stopEvents()
  const handle = globalThis.__poolBudDatabase
  installDatabase(undefined)
  globalThis.__poolBudStartup = undefined
  await handle?.close()
}
