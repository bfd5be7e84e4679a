import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { DASHBOARD_TEAM_SIZE } from '~/dashboards/business-dashboard.server'
import { profiles, user } from '~/db/schema'
import { db } from '~/utils/db.server'
import { pageRequest, routeArgs } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader } from './dashboard'
import { loader as dispatchLoader } from './dispatch'

async function companyIdOf(email: string) {
  const [row] = await db().select({ companyId: profiles.companyId }).from(profiles).where(eq(profiles.email, email))
  if (!row?.companyId) throw new Error(`no company for ${email}`)
  return row.companyId
}

beforeAll(async () => {
  await useDemoData()
})

describe('/app picks the dashboard by role', () => {
  it.each([
    ['owner@bluelagoon.test', 'owner'],
    ['office@bluelagoon.test', 'admin'],
    ['dispatch@bluelagoon.test', 'dispatcher'],
    ['tech@bluelagoon.test', 'tech'],
    ['admin@poolbud.test', 'fallback'],
  ])('%s gets the %s dashboard', async (email, kind) => {
    const data = (await loader(routeArgs(pageRequest('/app', await signInAs(email))))) as { kind: string }
    expect(data.kind).toBe(kind)
  })

  it("the owner's team section lists everyone; the admin's roster only dispatchers and technicians", async () => {
    type Preview = { members: Array<{ role: string }>; total: number }
    const owner = (await loader(
      routeArgs(pageRequest('/app', await signInAs('owner@bluelagoon.test'))),
    )) as unknown as {
      members: Preview
    }
    const admin = (await loader(
      routeArgs(pageRequest('/app', await signInAs('office@bluelagoon.test'))),
    )) as unknown as {
      roster: Preview
    }
    expect(new Set(owner.members.members.map((m) => m.role))).toEqual(new Set(['owner', 'admin', 'dispatcher', 'tech']))
    expect(owner.members.total).toBe(owner.members.members.length)
    expect(new Set(admin.roster.members.map((m) => m.role))).toEqual(new Set(['dispatcher', 'tech']))
  })

  it('a large team is shortened to the first eight, owners first, with the count of everyone', async () => {
    const blue = await companyIdOf('owner@bluelagoon.test')
    const before = (await loader(
      routeArgs(pageRequest('/app', await signInAs('owner@bluelagoon.test'))),
    )) as unknown as {
      members: { total: number }
    }
    const techs = Array.from({ length: 12 }, (_, i) => ({
      id: randomUUID(),
      email: `roster.${i}@example.com`,
      name: `Roster Tech ${String(i).padStart(2, '0')}`,
    }))
    await db().transaction(async (tx) => {
      await tx.insert(user).values(techs.map((t) => ({ ...t, emailVerified: true })))
      await tx.insert(profiles).values(
        techs.map((t) => ({
          id: t.id,
          companyId: blue,
          role: 'tech' as const,
          email: t.email,
          fullName: t.name,
          hasCompletedSetup: true,
        })),
      )
    })
    const owner = (await loader(
      routeArgs(pageRequest('/app', await signInAs('owner@bluelagoon.test'))),
    )) as unknown as {
      members: { members: Array<{ role: string }>; total: number }
    }
    expect(owner.members.members).toHaveLength(DASHBOARD_TEAM_SIZE)
    expect(owner.members.members[0]?.role).toBe('owner')
    expect(owner.members.total).toBe(before.members.total + 12)
    const admin = (await loader(
      routeArgs(pageRequest('/app', await signInAs('office@bluelagoon.test'))),
    )) as unknown as {
      roster: { members: Array<{ role: string }>; total: number }
    }
    expect(admin.roster.members).toHaveLength(DASHBOARD_TEAM_SIZE)
    expect(admin.roster.members.every((m) => m.role === 'dispatcher' || m.role === 'tech')).toBe(true)
    expect(admin.roster.total).toBeLessThan(owner.members.total)
  })

  it("the technician's ?tab= picks Today, This week or the overdue list; anything else is Today", async () => {
    const cookie = await signInAs('tech@bluelagoon.test')
    const tab = async (search: string) => {
      const data = (await loader(routeArgs(pageRequest(`/app${search}`, cookie)))) as { tab: string; week: unknown[] }
      return { tab: data.tab, days: data.week.length }
    }
    expect(await tab('')).toEqual({ tab: 'today', days: 0 })
    expect(await tab('?tab=week')).toEqual({ tab: 'week', days: 7 })
    expect(await tab('?tab=overdue')).toEqual({ tab: 'overdue', days: 0 })
    expect(await tab('?tab=everything')).toEqual({ tab: 'today', days: 0 })
  })

  it('owners and admins keep the dispatch board at /app/dispatch', async () => {
    for (const email of ['owner@bluelagoon.test', 'office@bluelagoon.test']) {
      const board = (await dispatchLoader(routeArgs(pageRequest('/app/dispatch', await signInAs(email))))) as {
        counts: { unassigned: number }
      }
      expect(board.counts.unassigned).toBeGreaterThan(0)
    }
  })
})
