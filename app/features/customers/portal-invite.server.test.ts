// A refusal is noted in the log here, once; inviteCustomer's own failures are its to log (this file's vitest run
// shares modules between files, so the inviter is driven through real records, not a module mock).
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { customers, profiles } from '~/db/schema'
import { db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { failure } from '~/utils/result'
import { useDemoData } from '../../../tests/helpers/test-database'
import { sendPortalInvite } from './portal-invite.server'

let companyId = ''

beforeAll(async () => {
  await useDemoData()
  const [owner] = await db()
    .select({ companyId: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.email, 'owner@bluelagoon.test'))
  companyId = owner?.companyId ?? ''
})

afterEach(() => vi.restoreAllMocks())

describe('sendPortalInvite', () => {
  it('answers a refusal as the inviter gave it and notes it in the log once, as a warning', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined)
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined)
    const [noEmail] = await db()
      .insert(customers)
      .values({ companyId, customerName: 'No Email Yet' })
      .returning({ id: customers.id })
    expect(await sendPortalInvite(companyId, noEmail?.id ?? '')).toEqual(
      failure('invalid', 'Add an email address to this customer first.'),
    )
    expect(warn).toHaveBeenCalledTimes(1)
    expect(await sendPortalInvite(companyId, randomUUID())).toEqual(failure('not-found', 'Customer not found.'))
    expect(warn).toHaveBeenCalledTimes(2)
    expect(error).not.toHaveBeenCalled()
  })
})
