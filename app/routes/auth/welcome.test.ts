import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { profiles } from '~/db/schema'
import { WelcomeSchema } from '~/features/account/account-schema'
import { db } from '~/utils/db.server'
import { routeArgs, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action } from './welcome'

const NEW_TECH = 'newtech@bluelagoon.test'
const PASSWORD = 'harbour-lights-71'

type Reply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: object }
  done: boolean
}

async function finish(cookie: string, fields: Record<string, string>) {
  const request = new Request(`${TEST_ORIGIN}/welcome`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN },
    body: new URLSearchParams(fields),
  })
  const value = (await action(routeArgs(request))) as unknown as
    | Reply
    | { data: Reply; init: { status?: number } | null }
  if ('data' in value) return { ...value.data, status: value.init?.status ?? 200 }
  return { ...value, status: 200 }
}

beforeAll(async () => {
  await useDemoData()
})

describe('the welcome form', () => {
  it('refuses, with the schema the page checks with, a blank name, a missing password and a mismatch', async () => {
    const cookie = await signInAs(NEW_TECH)
    const reply = await finish(cookie, { fullName: ' ', password: '', confirmPassword: 'x' })
    expect(reply.status).toBe(400)
    expect(reply.done).toBe(false)
    expect(reply.result.error).toMatchObject({
      fullName: ['Enter your full name.'],
      password: ['Set a password to continue.'],
    })
    // The passwords typed are never sent back into the page.
    expect(reply.result.initialValue).not.toHaveProperty('password')
    expect(reply.result.initialValue).not.toHaveProperty('confirmPassword')

    const mismatch = WelcomeSchema.safeParse({ fullName: 'Noah Reed', password: PASSWORD, confirmPassword: 'other' })
    expect(mismatch.error?.issues).toEqual([
      expect.objectContaining({ path: ['confirmPassword'], message: 'Passwords do not match.' }),
    ])
  })

  it('sets the password, saves the details (a blank address as none) and finishes setup', async () => {
    const cookie = await signInAs(NEW_TECH)
    const reply = await finish(cookie, {
      fullName: 'Noah Reed',
      phone: '(813) 555-0006',
      addressLine1: '',
      city: 'Tampa',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    })
    expect(reply).toMatchObject({ status: 200, done: true })
    const [profile] = await db()
      .select({ done: profiles.hasCompletedSetup, city: profiles.city, line1: profiles.addressLine1 })
      .from(profiles)
      .where(eq(profiles.email, NEW_TECH))
    expect(profile).toEqual({ done: true, city: 'Tampa', line1: null })
    await expect(signInAs(NEW_TECH, PASSWORD)).resolves.toContain('session_token')
  })
})
