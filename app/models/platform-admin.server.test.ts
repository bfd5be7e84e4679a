import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { getSessionUser } from '~/auth/guards.server'
import { emailOutbox, profiles } from '~/db/schema'
import { createDemoLogin, seedDemoData } from '~/demo/seed.server'
import { db } from '~/utils/db.server'
import { latestInviteLink, signsIn } from '../../tests/helpers/links'
import { pageRequest, TEST_ORIGIN } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { createPlatformAdmin } from './platform-admin.server'

describe('the first platform administrator', () => {
  it('is created from an empty install, once, with an invitation to /welcome', async () => {
    expect(await createPlatformAdmin('Boss@Example.com', { onlyIfNone: true })).toEqual({
      created: true,
      email: 'boss@example.com',
    })
    const [profile] = await db().select().from(profiles).where(eq(profiles.email, 'boss@example.com'))
    expect(profile).toMatchObject({ role: 'platform_admin', companyId: null, hasCompletedSetup: false })
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.to, 'boss@example.com'))
    expect(mails).toHaveLength(1)
    expect(mails[0]?.html).toMatch(/callbackURL=(%2F|\/)welcome/)

    // Every later start-up (and every other instance) finds one and does nothing.
    expect(await createPlatformAdmin('someone.else@example.com', { onlyIfNone: true })).toEqual({
      created: false,
      reason: 'exists',
    })
    expect(await db().select().from(profiles).where(eq(profiles.email, 'someone.else@example.com'))).toHaveLength(0)
  })

  it('is never made of a company member or a customer', async () => {
    await seedDemoData(db())
    for (const email of ['owner@bluelagoon.test', 'customer@bluelagoon.test']) {
      const [before] = await db().select().from(profiles).where(eq(profiles.email, email))
      expect(await createPlatformAdmin(email)).toEqual({ created: false, reason: 'taken' })
      const [after] = await db().select().from(profiles).where(eq(profiles.email, email))
      expect(after).toEqual(before)
    }
  })

  it('can add another administrator on demand (npm run create-admin)', async () => {
    expect(await createPlatformAdmin('second@example.com')).toEqual({ created: true, email: 'second@example.com' })
    expect(await createPlatformAdmin('second@example.com')).toEqual({ created: false, reason: 'already-admin' })
  })

  it('takes over an account without a role: its password and sessions end, only the emailed link opens it (F3)', async () => {
    await createDemoLogin(db(), { email: 'early.bird@example.com', fullName: 'Early', role: null, companyId: null })
    const cookie = await signInAs('early.bird@example.com')
    expect(await createPlatformAdmin('early.bird@example.com')).toEqual({
      created: true,
      email: 'early.bird@example.com',
    })
    await expect(signInAs('early.bird@example.com')).rejects.toThrow()
    expect(await getSessionUser(pageRequest('/app', cookie))).toBeNull()
    const [profile] = await db().select().from(profiles).where(eq(profiles.email, 'early.bird@example.com'))
    expect(profile).toMatchObject({ role: 'platform_admin', hasCompletedSetup: false })
    expect(await signsIn(await latestInviteLink('early.bird@example.com'))).toMatchObject({
      signedIn: true,
      location: `${TEST_ORIGIN}/welcome`,
    })
  })
})
