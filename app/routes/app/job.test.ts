import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { chemLogs, jobs, profiles } from '~/db/schema'
import { seedDemoData } from '~/db/seed.server'
import { db } from '~/utils/db.server'
import { pageRequest, settle, signInAs, TEST_ORIGIN } from '../../../tests/helpers/session'
import { action, loader } from './job'

const call = (request: Request, jobId: string) => ({ request, params: { jobId }, context: {} }) as never

function post(cookie: string, jobId: string, fields: Record<string, string>) {
  return new Request(`${TEST_ORIGIN}/app/jobs/${jobId}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
}

const status = (thrown: unknown) =>
  (thrown as { init?: { status?: number } })?.init?.status ?? (thrown as Response)?.status

let tech2Job: string

beforeAll(async () => {
  await seedDemoData(db())
  const [tech2] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.email, 'tech2@bluelagoon.test'))
  const [job] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.technicianId, tech2?.id ?? ''), isNull(jobs.completedAt)))
    .limit(1)
  tech2Job = job?.id ?? ''
})

const ACTIONS: Array<Record<string, string>> = [
  { intent: 'complete' },
  { intent: 'reading', ph: '7.4', chlorinePpm: '3', alkalinity: '90' },
  { intent: 'assign', technicianId: '', scheduledAt: '2026-12-01T09:00' },
]

describe('job page', () => {
  it("is a 404 for another company's owner, on the page and every action, and changes nothing", async () => {
    const cookie = await signInAs('owner@sunsetpools.test')
    expect(status((await settle(loader(call(pageRequest(`/app/jobs/${tech2Job}`, cookie), tech2Job)))).thrown)).toBe(
      404,
    )
    for (const fields of ACTIONS) {
      const { thrown } = await settle(action(call(post(cookie, tech2Job, fields), tech2Job)))
      expect(status(thrown)).toBe(404)
    }
    const [job] = await db().select().from(jobs).where(eq(jobs.id, tech2Job))
    expect(job?.completedAt).toBeNull()
    expect(await db().select().from(chemLogs).where(eq(chemLogs.jobId, tech2Job))).toHaveLength(0)
  })

  it("is a 404 for a technician on a teammate's job", async () => {
    const cookie = await signInAs('tech@bluelagoon.test')
    expect(status((await settle(loader(call(pageRequest(`/app/jobs/${tech2Job}`, cookie), tech2Job)))).thrown)).toBe(
      404,
    )
    const { thrown } = await settle(action(call(post(cookie, tech2Job, { intent: 'complete' }), tech2Job)))
    expect(status(thrown)).toBe(404)
  })

  it('lets technicians log readings but not reassign', async () => {
    const cookie = await signInAs('tech2@bluelagoon.test')
    const saved = (await action(call(post(cookie, tech2Job, ACTIONS[1] ?? {}), tech2Job))) as { ok: string }
    expect(saved.ok).toBe('Readings saved.')
    const { thrown } = await settle(action(call(post(cookie, tech2Job, ACTIONS[2] ?? {}), tech2Job)))
    expect(status(thrown)).toBe(403)
  })

  it('opens read-only for platform admins, who cannot change it', async () => {
    const cookie = await signInAs('admin@poolbud.test')
    const page = (await loader(call(pageRequest(`/app/jobs/${tech2Job}`, cookie), tech2Job))) as {
      readOnly: boolean
      canManage: boolean
      companyName: string
    }
    expect(page).toMatchObject({ readOnly: true, canManage: false, companyName: 'Blue Lagoon Pool Co.' })
    const { thrown } = await settle(action(call(post(cookie, tech2Job, { intent: 'complete' }), tech2Job)))
    expect(status(thrown)).toBe(403)
  })

  it('Mark Complete returns to the dashboard', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const { thrown } = await settle(action(call(post(cookie, tech2Job, { intent: 'complete' }), tech2Job)))
    expect((thrown as Response).headers.get('location')).toBe('/app')
    const [job] = await db().select().from(jobs).where(eq(jobs.id, tech2Job))
    expect(job?.completedAt).not.toBeNull()
  })
})
