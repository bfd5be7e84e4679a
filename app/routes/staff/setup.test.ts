import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, emailOutbox, profiles, user } from '~/db/schema'
import { db } from '~/utils/db.server'
import { formRequest, pageRequest, routeArgs, settle } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader as indexLoader } from './index'
import { loader as layoutLoader } from './layout'
import { action, loader } from './setup'

const post = (cookie: string | undefined, fields: Record<string, string>) => formRequest('/staff/setup', fields, cookie)

type Reply = { ok: boolean; message: string; companyId?: string; result?: { error?: Record<string, string[]> } }
async function outcome(promise: unknown) {
  const { returned, thrown } = await settle(promise as Promise<unknown>)
  const value = (returned ?? thrown) as {
    data?: Reply
    init?: { status?: number } | null
    status?: number
    headers?: Headers
  }
  return {
    status: value.init?.status ?? value.status ?? 200,
    body: value.data as Reply,
    location: value.headers?.get?.('Location') ?? null,
  }
}

async function profileByEmail(email: string) {
  const [row] = await db().select().from(profiles).where(eq(profiles.email, email))
  return row
}

let admin: string
let blueLagoon: string

beforeAll(async () => {
  await useDemoData()
  admin = await signInAs('admin@poolbud.test')
  blueLagoon = (await profileByEmail('owner@bluelagoon.test'))?.companyId as string
})

describe('only platform admins pass', () => {
  const INTENTS = ['invite-owner', 'update-company', 'assign-owner']
  it.each([
    'owner@bluelagoon.test',
    'office@bluelagoon.test',
    'dispatch@bluelagoon.test',
    'tech@bluelagoon.test',
    'customer@bluelagoon.test',
  ])('%s gets the Restricted area card on every page and action, and changes nothing', async (email) => {
    const cookie = await signInAs(email)
    const before = await db().select().from(companies).orderBy(companies.id)
    for (const handler of [indexLoader, layoutLoader, loader]) {
      const result = await outcome(handler(routeArgs(pageRequest('/staff/setup', cookie))))
      expect(result.status).toBe(403)
    }
    for (const intent of INTENTS) {
      const result = await outcome(
        action(
          routeArgs(
            post(cookie, {
              intent,
              mode: 'new',
              companyName: 'Hijack Co',
              fullName: 'X',
              email: `hijack.${intent}@example.com`,
              companyId: blueLagoon,
              name: 'Hijacked',
              profileId: (await profileByEmail(email))?.id ?? '',
            }),
          ),
        ),
      )
      expect(result.status, intent).toBe(403)
    }
    expect(await db().select().from(companies).orderBy(companies.id)).toEqual(before)
  })

  it('anonymous visitors are sent to log in', async () => {
    for (const handler of [indexLoader, layoutLoader, loader]) {
      expect((await outcome(handler(routeArgs(pageRequest('/staff/setup'))))).location).toMatch(/^\/login/)
    }
    expect((await outcome(action(routeArgs(post(undefined, { intent: 'invite-owner' }))))).location).toMatch(/^\/login/)
  })

  it('a platform admin is sent from /staff to /staff/setup and sees the companies, oldest first', async () => {
    expect((await outcome(indexLoader(routeArgs(pageRequest('/staff', admin))))).location).toBe('/staff/setup')
    const data = (await loader(routeArgs(pageRequest('/staff/setup', admin)))) as {
      companies: Array<{ name: string; owners: Array<{ email: string }>; eligibleOwners: Array<{ email: string }> }>
    }
    expect(data.companies.map((c) => c.name).sort()).toEqual(['Blue Lagoon Pool Co.', 'Sunset Pool Care'])
    const created = data.companies.map((c) => (c as unknown as { createdAt: string }).createdAt)
    expect(created).toEqual([...created].sort())
    const blue = data.companies.find((c) => c.name === 'Blue Lagoon Pool Co.')
    expect(blue?.owners.map((o) => o.email)).toEqual(['owner@bluelagoon.test'])
    const eligible = blue?.eligibleOwners.map((p) => p.email) ?? []
    expect(eligible).toContain('office@bluelagoon.test')
    expect(eligible).not.toContain('customer@bluelagoon.test')
    expect(eligible).not.toContain('admin@poolbud.test')
  })
})

describe('inviting an owner', () => {
  it('for a new company: creates the company, the owner and the invite email', async () => {
    const result = await outcome(
      action(
        routeArgs(
          post(admin, {
            intent: 'invite-owner',
            mode: 'new',
            companyName: 'Coral Reef Pools',
            // Ignored: only the company's owner sets payment settings (F12).
            stripeAccountId: 'acct_chosenByStaff1',
            fullName: 'Rita Coral',
            email: 'Rita@Coral.example',
          }),
        ),
      ),
    )
    expect(result.body).toMatchObject({
      ok: true,
      message: 'Invitation sent. The owner will receive an email to finish setting up their account.',
    })
    const [company] = await db().select().from(companies).where(eq(companies.name, 'Coral Reef Pools'))
    expect(company?.stripeAccountId).toBeNull()
    // A company a platform admin creates is no trial.
    expect(company?.trialEndsAt).toBeNull()
    expect(await profileByEmail('rita@coral.example')).toMatchObject({
      companyId: company?.id,
      role: 'owner',
      fullName: 'Rita Coral',
      hasCompletedSetup: false,
    })
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.to, 'rita@coral.example'))
    expect(mails).toHaveLength(1)
    expect(mails[0]?.html).toContain('/api/auth/magic-link/verify')
  })

  it('for an existing company: the new owner replaces the previous one, who becomes admin', async () => {
    const [coral] = await db().select().from(companies).where(eq(companies.name, 'Coral Reef Pools'))
    const result = await outcome(
      action(
        routeArgs(
          post(admin, {
            intent: 'invite-owner',
            mode: 'existing',
            companyId: coral?.id ?? '',
            fullName: 'Sam Shell',
            email: 'sam@coral.example',
            phone: '555-0100',
          }),
        ),
      ),
    )
    expect(result.body.ok).toBe(true)
    expect((await profileByEmail('sam@coral.example'))?.role).toBe('owner')
    expect((await profileByEmail('rita@coral.example'))?.role).toBe('admin')
  })

  it('answers missing fields with the spec messages', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ mode: 'new', companyName: 'X', fullName: '', email: '' }, 'Owner name and email are required.'],
      [
        { mode: 'existing', companyId: '', fullName: 'A', email: 'a@b.example' },
        'Select a company to assign the owner to.',
      ],
      [
        { mode: 'new', companyName: ' ', fullName: 'A', email: 'a@b.example' },
        'Company name is required for new companies.',
      ],
    ]
    for (const [fields, message] of cases) {
      const result = await outcome(action(routeArgs(post(admin, { intent: 'invite-owner', ...fields }))))
      expect(result.status).toBe(400)
      expect(result.body.message).toBe(message)
      // The form shows the same reasons at its fields (the page's schema is the action's).
      expect(Object.values(result.body.result?.error ?? {}).flat()).toContain(message)
    }
  })

  it("refuses another company's member, a customer or a platform admin, and changes nothing", async () => {
    for (const email of ['owner@sunsetpools.test', 'customer@bluelagoon.test', 'admin@poolbud.test']) {
      const before = await profileByEmail(email)
      const companiesBefore = await db().select({ n: sql<number>`count(*)::int` }).from(companies)
      const result = await outcome(
        action(
          routeArgs(
            post(admin, { intent: 'invite-owner', mode: 'new', companyName: `Grab ${email}`, fullName: 'X', email }),
          ),
        ),
      )
      expect(result.status, email).toBe(400)
      expect(result.body.message).toBe(
        'That email already belongs to another Pool Bud account. Use a different email address.',
      )
      expect(await profileByEmail(email)).toEqual(before)
      expect(await db().select({ n: sql<number>`count(*)::int` }).from(companies)).toEqual(companiesBefore)
    }
  })
})

describe('companies', () => {
  it('saves a new name; the card-provider account id is only shown, and a posted one is ignored (F12)', async () => {
    const [before] = await db().select().from(companies).where(eq(companies.id, blueLagoon))
    expect(before?.stripeAccountId).toBe('acct_1BlueLagoonDemo')
    for (const stripeAccountId of ['acct_chosenByStaff2', '  ']) {
      const result = await outcome(
        action(
          routeArgs(
            post(admin, {
              intent: 'update-company',
              companyId: blueLagoon,
              name: 'Blue Lagoon Pools',
              stripeAccountId,
            }),
          ),
        ),
      )
      expect(result.body.ok).toBe(true)
      const [row] = await db().select().from(companies).where(eq(companies.id, blueLagoon))
      expect(row?.name).toBe('Blue Lagoon Pools')
      expect(row?.stripeAccountId).toBe('acct_1BlueLagoonDemo')
    }
    const page = (await loader(routeArgs(pageRequest(`/staff/setup?q=${blueLagoon}`, admin)))) as {
      companies: Array<{ id: string; stripeAccountId: string | null }>
    }
    expect(page.companies.find((c) => c.id === blueLagoon)?.stripeAccountId).toBe('acct_1BlueLagoonDemo')
    const missing = await outcome(
      action(
        routeArgs(
          post(admin, { intent: 'update-company', companyId: '00000000-0000-4000-8000-000000000000', name: 'Ghost' }),
        ),
      ),
    )
    expect(missing.status).toBe(404)
  })

  it('searches by name or id prefix, and pages past 50', async () => {
    await db()
      .insert(companies)
      .values(Array.from({ length: 55 }, (_, i) => ({ name: `Paging Pools ${String(i).padStart(2, '0')}` })))
    const first = (await loader(routeArgs(pageRequest('/staff/setup?q=paging', admin)))) as {
      total: number
      pageCount: number
      companies: Array<{ id: string; name: string }>
    }
    expect(first.total).toBe(55)
    expect(first.pageCount).toBe(2)
    expect(first.companies).toHaveLength(50)
    const second = (await loader(routeArgs(pageRequest('/staff/setup?q=paging&page=2', admin)))) as typeof first
    expect(second.companies).toHaveLength(5)
    const byId = (await loader(
      routeArgs(pageRequest(`/staff/setup?q=${blueLagoon.slice(0, 8)}`, admin)),
    )) as typeof first
    expect(byId.companies.map((c) => c.id)).toEqual([blueLagoon])
    const wildcard = (await loader(routeArgs(pageRequest('/staff/setup?q=%25', admin)))) as typeof first
    expect(wildcard.total).toBe(0)
  })
})

describe('ownership transfer', () => {
  it('makes office@bluelagoon.test the owner and owner@bluelagoon.test an admin', async () => {
    const office = await profileByEmail('office@bluelagoon.test')
    const result = await outcome(
      action(routeArgs(post(admin, { intent: 'assign-owner', companyId: blueLagoon, profileId: office?.id ?? '' }))),
    )
    expect(result.body).toMatchObject({ ok: true })
    expect((await profileByEmail('office@bluelagoon.test'))?.role).toBe('owner')
    expect((await profileByEmail('owner@bluelagoon.test'))?.role).toBe('admin')
    // And back, so the roles are as seeded again.
    const owner = await profileByEmail('owner@bluelagoon.test')
    await action(routeArgs(post(admin, { intent: 'assign-owner', companyId: blueLagoon, profileId: owner?.id ?? '' })))
    expect((await profileByEmail('owner@bluelagoon.test'))?.role).toBe('owner')
    expect((await profileByEmail('office@bluelagoon.test'))?.role).toBe('admin')
  })

  it('runs in one transaction: when the second statement fails, the previous owner is still owner', async () => {
    const office = await profileByEmail('office@bluelagoon.test')
    // A trigger that makes "the chosen user becomes owner" fail, after previous owners were demoted.
    await db().execute(
      sql.raw(`create function refuse_promotion() returns trigger language plpgsql as $$
        begin
          if new.role = 'owner' and new.id = '${office?.id}' then raise exception 'promotion refused'; end if;
          return new;
        end $$`),
    )
    await db().execute(
      sql.raw(
        'create trigger refuse_promotion before update on profiles for each row execute function refuse_promotion()',
      ),
    )
    try {
      const result = await outcome(
        action(routeArgs(post(admin, { intent: 'assign-owner', companyId: blueLagoon, profileId: office?.id ?? '' }))),
      )
      expect(result.status).toBe(500)
      expect(result.body.message).toBe('Unable to assign owner.')
      expect((await profileByEmail('owner@bluelagoon.test'))?.role).toBe('owner')
      expect((await profileByEmail('office@bluelagoon.test'))?.role).toBe('admin')
    } finally {
      await db().execute(sql.raw('drop trigger refuse_promotion on profiles'))
      await db().execute(sql.raw('drop function refuse_promotion()'))
    }
  })

  it('asks for a teammate when none is chosen, at the field', async () => {
    const result = await outcome(action(routeArgs(post(admin, { intent: 'assign-owner', companyId: blueLagoon }))))
    expect(result.status).toBe(400)
    expect(result.body).toMatchObject({
      ok: false,
      companyId: blueLagoon,
      message: 'Choose who should own this company.',
    })
    expect(result.body.result?.error?.profileId).toEqual(['Choose who should own this company.'])
  })

  it('an intent no form sends is the 400 error page', async () => {
    const result = await outcome(action(routeArgs(post(admin, { intent: 'delete-company', companyId: blueLagoon }))))
    expect(result).toMatchObject({ status: 400, body: 'Unknown action.' })
  })

  it("refuses a customer, a platform admin or another company's member as owner (404)", async () => {
    for (const email of ['customer@bluelagoon.test', 'admin@poolbud.test', 'owner@sunsetpools.test']) {
      const person = await profileByEmail(email)
      const result = await outcome(
        action(routeArgs(post(admin, { intent: 'assign-owner', companyId: blueLagoon, profileId: person?.id ?? '' }))),
      )
      expect(result.status, email).toBe(404)
    }
    expect((await profileByEmail('owner@bluelagoon.test'))?.role).toBe('owner')
    expect(await db().select().from(user).where(eq(user.email, 'nobody@example.com'))).toHaveLength(0)
  })
})
