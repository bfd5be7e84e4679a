// The balancing pages' guards (docs/routing.md "Balancing"): the office only, a real date, one of the company's own
// technicians; a hand-made Apply that names a visit the preview did not have is refused and changes nothing.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles } from '~/db/schema'
import { addDays, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { visitAt } from '../../../tests/helpers/visits'
import { loader as coverLoader } from './route-cover'
import { action, loader } from './schedule-balance'

let dispatcher: string
let tech: string
let tyler: string
let sunsetTech: string
let date: string

beforeAll(async () => {
  await useDemoData()
  const [blue] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  const techs = await db()
    .select({ id: profiles.id, email: profiles.email, companyId: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.role, 'tech'))
  tyler = techs.find((row) => row.email === 'tech@bluelagoon.test')?.id ?? ''
  sunsetTech = techs.find((row) => row.companyId !== blue?.id)?.id ?? ''
  date = addDays(localDateAt(new Date(), 'America/New_York'), 3)
  // The day's own visits: the demo has none on a Sunday (three days after a Thursday), and the Apply below needs a
  // technician's list to put a stranger's visit in.
  for (const [hour, position] of [
    [8, [28.06, -82.45]],
    [9, [27.84, -82.7]],
  ] as const) {
    await visitAt({ companyId: blue?.id ?? '', name: `Balance ${hour}`, position, technicianId: tyler, date, hour })
  }
  ;[dispatcher, tech] = await Promise.all([signInAs('dispatch@bluelagoon.test'), signInAs('tech@bluelagoon.test')])
})

describe('Balance the day and Cover this day', () => {
  it('shows the office a preview of the day with every technician’s miles', async () => {
    const page = await loader({
      request: pageRequest(`/app/schedule/balance/${date}`, dispatcher),
      params: { date },
      context: {},
    } as never)
    expect(page.date).toBe(date)
    expect(page.problem).toBeNull()
    expect(page.preview?.totalBefore).toMatch(/^\d+\.\d mi$/)
  })

  it.each([
    ['a date that does not exist', '2026-02-30'],
    ['a word for a date', 'tomorrow'],
  ])('is a 404 for %s', async (_, day) => {
    const { thrown } = await settle(
      loader({
        request: pageRequest(`/app/schedule/balance/${day}`, dispatcher),
        params: { date: day },
        context: {},
      } as never),
    )
    expect(statusOf(thrown)).toBe(404)
  })

  it('is refused to a technician', async () => {
    const { thrown } = await settle(loader(routeArgs(pageRequest(`/app/schedule/balance/${date}`, tech), { date })))
    expect(statusOf(thrown)).toBe(403)
  })

  it("is a 404 to cover another company's technician", async () => {
    const path = `/app/schedule/${sunsetTech}/${date}/cover`
    const { thrown } = await settle(
      coverLoader({
        request: pageRequest(path, dispatcher),
        params: { technicianId: sunsetTech, date },
        context: {},
      } as never),
    )
    expect(statusOf(thrown)).toBe(404)
    const own = await coverLoader({
      request: pageRequest(`/app/schedule/${tyler}/${date}/cover`, dispatcher),
      params: { technicianId: tyler, date },
      context: {},
    } as never)
    expect(own.technician.name).toBe('Tyler Brooks')
  })

  it('refuses an Apply whose proposal names a visit the preview did not have', async () => {
    const page = await loader({
      request: pageRequest(`/app/schedule/balance/${date}`, dispatcher),
      params: { date },
      context: {},
    } as never)
    const preview = page.preview
    if (!preview) throw new Error('no preview')
    const after = JSON.parse(preview.after) as [string, string[]][]
    after[0]?.[1].push('6f1c0d7e-0000-4000-8000-000000000000')
    const request = new Request(`${TEST_ORIGIN}/app/schedule/balance/${date}`, {
      method: 'POST',
      headers: { cookie: dispatcher, 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN },
      body: new URLSearchParams({
        intent: 'apply',
        balanceId: preview.balanceId,
        before: preview.before,
        after: JSON.stringify(after),
      }),
    })
    const reply = (await action(routeArgs(request, { date }))) as unknown as {
      data: { tone: string; message: string }
    }
    expect(reply.data).toMatchObject({ tone: 'error', message: 'This preview is not valid. Open the page again.' })
  })
})
