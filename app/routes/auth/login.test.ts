import { beforeAll, describe, expect, it } from 'vitest'
import { seedDemoData } from '~/db/seed.server'
import { CLIENT_IP_HEADER } from '~/utils/auth.server'
import { db } from '~/utils/db.server'
import { TEST_ORIGIN } from '../../../tests/helpers/session'
import { action } from './login'

function loginRequest(fields: Record<string, string>, ip: string) {
  return new Request(`${TEST_ORIGIN}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', [CLIENT_IP_HEADER]: ip, origin: TEST_ORIGIN },
    body: new URLSearchParams(fields),
  })
}

async function attempt(fields: Record<string, string>, ip: string) {
  try {
    const result = (await action({ request: loginRequest(fields, ip), params: {}, context: {} } as never)) as {
      data: { result: { error?: Record<string, string[]> } }
      init: { status: number }
    }
    return { status: result.init.status, errors: result.data.result.error?.[''] ?? [], location: null }
  } catch (thrown) {
    const response = thrown as Response
    return { status: response.status, errors: [], location: response.headers.get('location') }
  }
}

beforeAll(async () => {
  await seedDemoData(db())
})

describe('login action', () => {
  it('signs in and goes to the page asked for, but never off-site', async () => {
    const ok = await attempt(
      { intent: 'login', email: ' Dispatch@BlueLagoon.test ', password: 'pooldemo123', redirectTo: '/app/account' },
      '10.1.0.1',
    )
    expect(ok).toMatchObject({ status: 302, location: '/app/account' })
    const offSite = await attempt(
      { intent: 'login', email: 'dispatch@bluelagoon.test', password: 'pooldemo123', redirectTo: '//evil.example' },
      '10.1.0.2',
    )
    expect(offSite.location).toBe('/app')
  })

  it('answers a wrong password with the server message', async () => {
    const wrong = await attempt(
      { intent: 'login', email: 'dispatch@bluelagoon.test', password: 'nope-nope' },
      '10.1.0.3',
    )
    expect(wrong.status).toBe(400)
    expect(wrong.errors).toEqual(['Invalid email or password.'])
  })

  it('is rate-limited per client: the 11th attempt in a minute gets 429 and a message', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await attempt({ intent: 'login', email: 'tech@bluelagoon.test', password: 'wrong-password' }, '10.1.0.9'))
          .status,
      )
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true)
    const limited = await attempt(
      { intent: 'login', email: 'tech@bluelagoon.test', password: 'pooldemo123' },
      '10.1.0.9',
    )
    expect(limited.status).toBe(429)
    expect(limited.errors).toEqual(['Too many attempts. Wait a minute, then try again.'])
    // Another client is not affected.
    expect(
      (await attempt({ intent: 'login', email: 'tech@bluelagoon.test', password: 'pooldemo123' }, '10.1.0.10')).status,
    ).toBe(302)
  })
})
