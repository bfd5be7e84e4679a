import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { startCompanySchema } from '~/features/auth/start-company-schema'
import { HAS_ROLE, startTrialCompany } from '~/models/trial.server'
import { action as teamAction } from '~/routes/app/team'
import { db } from '~/utils/db.server'
import { failure } from '~/utils/result'
import { TRIAL_DAYS } from '~/utils/trial'
import { formRequest, pageRequest, routeArgs, settle } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './start'

const location = (value: unknown) => (value as Response).headers.get('Location')
const companyCount = async () => (await db().select({ n: sql<number>`count(*)::int` }).from(companies))[0]?.n

beforeAll(async () => {
  await useDemoData()
  await createDemoLogin(db(), { email: 'solo@example.com', fullName: 'Sol Solo', role: null, companyId: null })
})

describe('self-serve trial', () => {
  it('a signed-up user with no role starts a company, becomes its owner, and can invite a technician', async () => {
    const cookie = await signInAs('solo@example.com')
    expect(await loader(routeArgs(pageRequest('/start', cookie)))).toMatchObject({ email: 'solo@example.com' })
    const { thrown } = await settle(
      action(routeArgs(formRequest('/start', { companyName: 'Solo Pools', timezone: 'America/Chicago' }, cookie))),
    )
    expect(location(thrown)).toBe('/app')
    const [company] = await db().select().from(companies).where(eq(companies.name, 'Solo Pools'))
    expect(company?.timezone).toBe('America/Chicago')
    // No plan chosen on the way: the pricing page's entry plan.
    expect(company?.plan).toBe('starter')
    // A trial of the length the pricing page states.
    const trialDays = ((company?.trialEndsAt?.getTime() ?? 0) - (company?.createdAt.getTime() ?? 0)) / 86_400_000
    expect(Math.round(trialDays)).toBe(TRIAL_DAYS)
    const [profile] = await db().select().from(profiles).where(eq(profiles.email, 'solo@example.com'))
    expect(profile).toMatchObject({ role: 'owner', companyId: company?.id, hasCompletedSetup: true })

    const invite = (await teamAction(
      routeArgs(
        formRequest(
          '/app/team',
          { intent: 'invite', role: 'tech', fullName: 'Tia Tech', email: 'tia@example.com' },
          cookie,
        ),
      ),
    )) as { data: { ok: boolean } }
    expect(invite.data.ok).toBe(true)
    const [tia] = await db().select().from(profiles).where(eq(profiles.email, 'tia@example.com'))
    expect(tia).toMatchObject({ role: 'tech', companyId: company?.id })

    // Once they own a company, /start sends them to it and creates nothing more.
    const before = await companyCount()
    const again = await settle(
      action(routeArgs(formRequest('/start', { companyName: 'Second', timezone: 'UTC' }, cookie))),
    )
    expect(location(again.thrown)).toBe('/app')
    expect(await companyCount()).toBe(before)
  })

  it('keeps the plan chosen on the pricing page (/start?plan=business), and ignores a plan that is not ours', async () => {
    await createDemoLogin(db(), { email: 'boss@example.com', fullName: 'Bo Boss', role: null, companyId: null })
    await createDemoLogin(db(), { email: 'odd@example.com', fullName: 'Od Odd', role: null, companyId: null })
    const boss = await signInAs('boss@example.com')
    expect(await loader(routeArgs(pageRequest('/start?plan=business', boss)))).toMatchObject({ plan: 'Business' })
    await settle(
      action(
        routeArgs(
          formRequest(
            '/start?plan=business',
            {
              companyName: 'Boss Pools',
              timezone: 'America/Chicago',
              plan: 'business',
            },
            boss,
          ),
        ),
      ),
    )
    const odd = await signInAs('odd@example.com')
    await settle(
      action(
        routeArgs(
          formRequest('/start', { companyName: 'Odd Pools', timezone: 'America/Chicago', plan: 'platinum' }, odd),
        ),
      ),
    )
    const rows = await db()
      .select({ name: companies.name, plan: companies.plan })
      .from(companies)
      .where(sql`${companies.name} in ('Boss Pools', 'Odd Pools')`)
      .orderBy(companies.name)
    expect(rows).toEqual([
      { name: 'Boss Pools', plan: 'business' },
      { name: 'Odd Pools', plan: 'starter' },
    ])
  })

  it('never touches someone who has a role: staff, customers and platform admins are sent home', async () => {
    const before = await companyCount()
    for (const [email, home] of [
      ['tech@bluelagoon.test', '/app'],
      ['admin@poolbud.test', '/app'],
      ['customer@bluelagoon.test', '/customer/'],
    ] as const) {
      const cookie = await signInAs(email)
      const [profileBefore] = await db().select().from(profiles).where(eq(profiles.email, email))
      const { thrown } = await settle(
        action(routeArgs(formRequest('/start', { companyName: 'Takeover', timezone: 'UTC' }, cookie))),
      )
      expect(location(thrown), email).toMatch(new RegExp(`^${home}`))
      const [profileAfter] = await db().select().from(profiles).where(eq(profiles.email, email))
      expect(profileAfter).toEqual(profileBefore)
    }
    expect(await companyCount()).toBe(before)
  })

  it('refuses, in the model too, an account that got a role meanwhile (a conflict), and creates nothing', async () => {
    const before = await companyCount()
    const [tech] = await db().select().from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
    const started = await startTrialCompany({ userId: tech?.id ?? '', companyName: 'Takeover', timezone: 'UTC' })
    expect(started).toEqual(failure('conflict', HAS_ROLE))
    expect(await companyCount()).toBe(before)
  })

  it('asks for a company name and a listed timezone', async () => {
    await createDemoLogin(db(), { email: 'solo2@example.com', fullName: 'Sol Two', role: null, companyId: null })
    const cookie = await signInAs('solo2@example.com')
    const errors = async (fields: Record<string, string>) => {
      const answer = (await action(routeArgs(formRequest('/start', fields, cookie)))) as unknown as {
        data: { result: { error?: Record<string, string[] | null> } }
        init: { status: number }
      }
      expect(answer.init.status).toBe(400)
      return answer.data.result.error
    }
    expect(await errors({ companyName: ' ', timezone: 'America/Chicago' })).toEqual({
      companyName: ['Company name is required.'],
    })
    expect(await errors({ companyName: 'X', timezone: 'Mars/Olympus' })).toEqual({
      timezone: ['Choose a timezone from the list.'],
    })
    // The browser checks with the same schema, given the zones the page lists.
    const schema = startCompanySchema(['UTC', 'America/Chicago'])
    expect(schema.safeParse({ companyName: 'X', timezone: 'America/Chicago', plan: 'TEAM' }).data).toEqual({
      companyName: 'X',
      timezone: 'America/Chicago',
      plan: 'team',
    })
    expect(schema.safeParse({ companyName: 'X', timezone: 'Europe/Paris' }).success).toBe(false)
  })
})
