// `npm run create-admin -- --email someone@example.com`: makes that address a platform
// administrator of the configured database and emails them an invitation (over SMTP_URL, or into
// the built-in mailbox). Refuses an address that belongs to a company member or a customer.
import path from 'node:path'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { createPlatformAdmin } from '~/models/platform-admin.server'
import { deliverDueEmails } from '~/outbox/worker.server'
import { installDatabase, migrateDatabase, openDatabase } from '~/utils/db.server'
import { env } from '~/utils/env.server'

const { values } = parseArgs({ options: { email: { type: 'string' } } })
const email = z.email().safeParse(values.email?.trim())
if (!email.success) {
  console.error('Usage: npm run create-admin -- --email someone@example.com')
  process.exit(2)
}

const config = env()
const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: path.join(config.DATA_DIR, 'db') })
try {
  await migrateDatabase(handle)
  installDatabase(handle)
  const result = await createPlatformAdmin(email.data)
  if (result.created) {
    // Send it now rather than waiting for a server's outbox worker.
    await deliverDueEmails()
    console.log(`${result.email} is now a platform administrator; an invitation is on its way.`)
  } else if (result.reason === 'already-admin') {
    console.log(`${email.data} is already a platform administrator.`)
  } else {
    console.error(`${email.data} belongs to a company member or a customer; choose another address.`)
    process.exitCode = 1
  }
} finally {
  installDatabase(undefined)
  await handle.close()
}
