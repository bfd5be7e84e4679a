import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import { getSessionUser } from '~/auth/guards.server'
import { emailOutbox } from '~/db/schema'
import { deliverDueEmails } from '~/outbox/worker.server'
import { db } from '~/utils/db.server'
import { formRequest, pageRequest, routeArgs } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action as forgotAction } from './forgot-password'
import { action } from './reset-password'

const post = (path: string, fields: Record<string, string>) =>
  formRequest(path, fields, undefined, { [CLIENT_IP_HEADER]: '192.0.2.77' })

beforeAll(async () => {
  await useDemoData()
})

describe('a password reset', () => {
  it('ends every session of the account, on every device', async () => {
    const phone = await signInAs('dispatch@bluelagoon.test')
    const laptop = await signInAs('dispatch@bluelagoon.test')
    expect(await getSessionUser(pageRequest('/app', phone))).not.toBeNull()

    await forgotAction(routeArgs(post('/forgot-password', { email: 'dispatch@bluelagoon.test' })))
    // The outbox worker looks the address up and writes the reset email (here into the built-in mailbox).
    await deliverDueEmails()
    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.to, 'dispatch@bluelagoon.test'))
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(mail?.html ?? '')?.[1]
    expect(token).toBeTruthy()

    const result = (await action(
      routeArgs(
        post('/reset-password', {
          token: token ?? '',
          password: 'brand-new-pass-1',
          confirmPassword: 'brand-new-pass-1',
        }),
      ),
    )) as { data: { done: boolean } }
    expect(result.data.done).toBe(true)

    expect(await getSessionUser(pageRequest('/app', phone))).toBeNull()
    expect(await getSessionUser(pageRequest('/app', laptop))).toBeNull()
    await expect(signInAs('dispatch@bluelagoon.test')).rejects.toThrow()
    await expect(signInAs('dispatch@bluelagoon.test', 'brand-new-pass-1')).resolves.toContain('session_token')
  })
})
