import { beforeAll, describe, expect, it } from 'vitest'
import { pageRequest, signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader } from './dashboard'
import { loader as dispatchLoader } from './dispatch'

const call = (request: Request) => ({ request, params: {}, context: {} }) as never

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
    const data = (await loader(call(pageRequest('/app', await signInAs(email))))) as { kind: string }
    expect(data.kind).toBe(kind)
  })

  it("the owner's team section lists everyone; the admin's roster only dispatchers and technicians", async () => {
    const owner = (await loader(call(pageRequest('/app', await signInAs('owner@bluelagoon.test'))))) as {
      members: Array<{ role: string }>
    }
    const admin = (await loader(call(pageRequest('/app', await signInAs('office@bluelagoon.test'))))) as {
      roster: Array<{ role: string }>
    }
    expect(new Set(owner.members.map((m) => m.role))).toEqual(new Set(['owner', 'admin', 'dispatcher', 'tech']))
    expect(new Set(admin.roster.map((m) => m.role))).toEqual(new Set(['dispatcher', 'tech']))
  })

  it("the technician's ?tab= picks Today, This week or the overdue list; anything else is Today", async () => {
    const cookie = await signInAs('tech@bluelagoon.test')
    const tab = async (search: string) => {
      const data = (await loader(call(pageRequest(`/app${search}`, cookie)))) as { tab: string; week: unknown[] }
      return { tab: data.tab, days: data.week.length }
    }
    expect(await tab('')).toEqual({ tab: 'today', days: 0 })
    expect(await tab('?tab=week')).toEqual({ tab: 'week', days: 7 })
    expect(await tab('?tab=overdue')).toEqual({ tab: 'overdue', days: 0 })
    expect(await tab('?tab=everything')).toEqual({ tab: 'today', days: 0 })
  })

  it('owners and admins keep the dispatch board at /app/dispatch', async () => {
    for (const email of ['owner@bluelagoon.test', 'office@bluelagoon.test']) {
      const board = (await dispatchLoader(call(pageRequest('/app/dispatch', await signInAs(email))))) as {
        counts: { unassigned: number }
      }
      expect(board.counts.unassigned).toBeGreaterThan(0)
    }
  })
})
