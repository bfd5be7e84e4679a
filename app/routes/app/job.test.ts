import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { chemLogs, jobs, profiles } from '~/db/schema'
import { ASSIGN_MESSAGES } from '~/features/jobs/assign-job-schema'
import { FIELD_MESSAGES } from '~/models/visit-work.server'
import { db } from '~/utils/db.server'
import { UNKNOWN_INTENT } from '~/utils/result'
import { formRequest, pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './job'

const post = (cookie: string, jobId: string, fields: Record<string, string>) =>
  formRequest(`/app/jobs/${jobId}`, fields, cookie)

let tech2Job: string

beforeAll(async () => {
  await useDemoData()
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
    expect(
      statusOf(
        (await settle(loader(routeArgs(pageRequest(`/app/jobs/${tech2Job}`, cookie), { jobId: tech2Job })))).thrown,
      ),
    ).toBe(404)
    for (const fields of ACTIONS) {
      const { thrown } = await settle(action(routeArgs(post(cookie, tech2Job, fields), { jobId: tech2Job })))
      expect(statusOf(thrown)).toBe(404)
    }
    const [job] = await db().select().from(jobs).where(eq(jobs.id, tech2Job))
    expect(job?.completedAt).toBeNull()
    expect(await db().select().from(chemLogs).where(eq(chemLogs.jobId, tech2Job))).toHaveLength(0)
  })

  it("is a 404 page for a technician on a teammate's job; Mark Complete there is refused as on the phone", async () => {
    const cookie = await signInAs('tech@bluelagoon.test')
    expect(
      statusOf(
        (await settle(loader(routeArgs(pageRequest(`/app/jobs/${tech2Job}`, cookie), { jobId: tech2Job })))).thrown,
      ),
    ).toBe(404)
    const refused = (await action(
      routeArgs(post(cookie, tech2Job, { intent: 'complete' }), { jobId: tech2Job }),
    )) as unknown as {
      data: { error: string }
      init: { status: number }
    }
    expect(refused.init.status).toBe(409)
    expect(refused.data.error).toBe(FIELD_MESSAGES.reassigned)
    const [job] = await db().select().from(jobs).where(eq(jobs.id, tech2Job))
    expect(job?.completedAt).toBeNull()
  })

  it('lets technicians log readings but not reassign', async () => {
    const cookie = await signInAs('tech2@bluelagoon.test')
    const saved = (await action(routeArgs(post(cookie, tech2Job, ACTIONS[1] ?? {}), { jobId: tech2Job }))) as {
      ok: string
    }
    expect(saved.ok).toBe('Readings saved.')
    const { thrown } = await settle(action(routeArgs(post(cookie, tech2Job, ACTIONS[2] ?? {}), { jobId: tech2Job })))
    expect(statusOf(thrown)).toBe(403)
  })

  it('opens read-only for platform admins, who cannot change it', async () => {
    const cookie = await signInAs('admin@poolbud.test')
    const page = (await loader(routeArgs(pageRequest(`/app/jobs/${tech2Job}`, cookie), { jobId: tech2Job }))) as {
      readOnly: boolean
      canManage: boolean
      companyName: string
    }
    expect(page).toMatchObject({ readOnly: true, canManage: false, companyName: 'Blue Lagoon Pool Co.' })
    const { thrown } = await settle(
      action(routeArgs(post(cookie, tech2Job, { intent: 'complete' }), { jobId: tech2Job })),
    )
    expect(statusOf(thrown)).toBe(403)
  })

  it('Mark Complete returns to the dashboard', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const { thrown } = await settle(
      action(routeArgs(post(cookie, tech2Job, { intent: 'complete' }), { jobId: tech2Job })),
    )
    expect((thrown as Response).headers.get('location')).toBe('/app')
    const [job] = await db().select().from(jobs).where(eq(jobs.id, tech2Job))
    expect(job?.completedAt).not.toBeNull()
  })

  it('Mark Complete posted again (a second tap, a second tab) goes back to the dashboard as the first did', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const { thrown } = await settle(
      action(routeArgs(post(cookie, tech2Job, { intent: 'complete' }), { jobId: tech2Job })),
    )
    expect(thrown).toBeInstanceOf(Response)
    expect(thrown).toHaveRedirect('/app')
  })

  it('Mark Complete on a visit cancelled meanwhile is refused with the reason (409), and completes nothing', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const [blue] = await db().select({ companyId: jobs.companyId }).from(jobs).where(eq(jobs.id, tech2Job))
    const [open] = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          eq(jobs.companyId, blue?.companyId ?? ''),
          isNull(jobs.completedAt),
          isNull(jobs.cancelledAt),
          isNull(jobs.skipReason),
        ),
      )
      .limit(1)
    const jobId = open?.id ?? ''
    await db().update(jobs).set({ cancelledAt: new Date() }).where(eq(jobs.id, jobId))
    const refused = (await action(routeArgs(post(cookie, jobId, { intent: 'complete' }), { jobId }))) as unknown as {
      data: { intent: string; error: string }
      init: { status: number }
    }
    expect(refused.init.status).toBe(409)
    expect(refused.data).toMatchObject({ intent: 'complete', error: FIELD_MESSAGES.cancelled })
    const [row] = await db().select({ completedAt: jobs.completedAt }).from(jobs).where(eq(jobs.id, jobId))
    expect(row?.completedAt).toBeNull()
  })

  it('answers a post no form of the page sends with the 400 "Unknown action."', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const posts: Record<string, string>[] = [{}, { intent: 'launch' }]
    for (const fields of posts) {
      const { thrown } = await settle(action(routeArgs(post(cookie, tech2Job, fields), { jobId: tech2Job })))
      expect(thrown).toMatchObject({ data: UNKNOWN_INTENT, init: { status: 400 } })
    }
  })
})

describe('water balance and dosing on the job page', () => {
  let techJob: string
  let cookie: string

  beforeAll(async () => {
    const [tech] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.email, 'tech@bluelagoon.test'))
    const [job] = await db()
      .select({ id: jobs.id })
      .from(jobs)
      // Open work: a reading on a visit skipped or canceled is refused (applyFieldChange), as on the phone.
      .where(and(eq(jobs.technicianId, tech?.id ?? ''), isNull(jobs.completedAt), isNull(jobs.cancelledAt)))
      .limit(1)
    techJob = job?.id ?? ''
    cookie = await signInAs('tech@bluelagoon.test')
  })

  type Page = {
    job: { pool: string | null }
    logs: { ph: number; cyanuricAcid: number | null; summary: { statuses: { text: string }[] } }[]
    advice: { parameter: string; kind: string; text: string }[] | null
  }
  const page = async () =>
    (await loader(routeArgs(pageRequest(`/app/jobs/${techJob}`, cookie), { jobId: techJob }))) as Page

  it('shows the pool, flags pH high and chlorine low, and doses each on a 15,000-gallon chlorine pool', async () => {
    const saved = (await action(
      routeArgs(post(cookie, techJob, { intent: 'reading', ph: '7.9', chlorinePpm: '0.5', alkalinity: '70' }), {
        jobId: techJob,
      }),
    )) as { ok: string }
    expect(saved.ok).toBe('Readings saved.')
    const { job, logs, advice } = await page()
    expect(job.pool).toBe('15,000 gal · chlorine · plaster · outdoor')
    expect(logs[0]?.summary.statuses.map((s) => s.text)).toEqual(expect.arrayContaining(['pH high', 'chlorine low']))
    expect(advice?.find((line) => line.parameter === 'ph')?.text).toMatch(/^Add [\d.]+ fl oz of muriatic acid/)
    expect(advice?.find((line) => line.parameter === 'chlorine')?.text).toMatch(
      /^Add 38\.4 fl oz of liquid chlorine \(12\.5 %\)/,
    )
  })

  it('stores the optional readings and refuses one out of range with its own message, saving nothing', async () => {
    const before = await db().select({ id: chemLogs.id }).from(chemLogs).where(eq(chemLogs.jobId, techJob))
    const refused = (await action(
      routeArgs(
        post(cookie, techJob, {
          intent: 'reading',
          ph: '7.5',
          chlorinePpm: '3',
          alkalinity: '90',
          cyanuricAcid: '400',
        }),
        { jobId: techJob },
      ),
    )) as { init: { status: number }; data: { result: { error: Record<string, string[]> } } }
    expect(refused.init.status).toBe(400)
    expect(refused.data.result.error.cyanuricAcid).toEqual(['Cyanuric acid must be between 0 and 300 ppm.'])
    const after = await db().select({ id: chemLogs.id }).from(chemLogs).where(eq(chemLogs.jobId, techJob))
    expect(after).toHaveLength(before.length)

    await action(
      routeArgs(
        post(cookie, techJob, {
          intent: 'reading',
          ph: '7.5',
          chlorinePpm: '3',
          alkalinity: '80',
          cyanuricAcid: '50',
          calciumHardness: '300',
          salt: '',
          waterTempF: '84',
        }),
        { jobId: techJob },
      ),
    )
    const { logs } = await page()
    expect(logs[0]).toMatchObject({ ph: 7.5, cyanuricAcid: 50, calciumHardness: 300, salt: null, waterTempF: 84 })
    expect(logs[0]?.summary).toMatchObject({ balance: { status: 'Balanced' } })
  })
})

describe('Assign and reschedule on the visit page', () => {
  let jobId: string
  let mayaId: string
  let office: string

  type Answer = {
    init: { status: number } | null
    data: { ok: string | null; error: string | null; result: { error?: Record<string, string[] | null> } }
  }
  const assign = async (fields: Record<string, string>) =>
    (await action(routeArgs(post(office, jobId, { intent: 'assign', ...fields }), { jobId }))) as Answer
  const version = async () =>
    ((await loader(routeArgs(pageRequest(`/app/jobs/${jobId}`, office), { jobId }))) as { job: { version: string } })
      .job.version

  beforeAll(async () => {
    const [maya] = await db()
      .select({ id: profiles.id, companyId: profiles.companyId })
      .from(profiles)
      .where(eq(profiles.email, 'tech2@bluelagoon.test'))
    const [job] = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.companyId, maya?.companyId ?? ''), isNull(jobs.technicianId), isNull(jobs.completedAt)))
      .limit(1)
    jobId = job?.id ?? ''
    mayaId = maya?.id ?? ''
    office = await signInAs('dispatch@bluelagoon.test')
  })

  it('saves the technician and the time, read in the company timezone', async () => {
    const saved = await assign({ technicianId: mayaId, scheduledAt: '2026-12-03T09:00', version: await version() })
    expect(saved.init?.status ?? 200).toBe(200)
    expect(saved.data).toMatchObject({ ok: 'Job updated.', error: null })
    const [job] = await db().select().from(jobs).where(eq(jobs.id, jobId))
    expect(job?.technicianId).toBe(mayaId)
    expect(job?.scheduledAt.toISOString()).toBe('2026-12-03T14:00:00.000Z')
  })

  it('tells the second of two edits from the same page that the job changed (409), and saves nothing', async () => {
    const seen = await version()
    await assign({ technicianId: '', scheduledAt: '2026-12-04T09:00', version: seen })
    const late = await assign({ technicianId: mayaId, scheduledAt: '2026-12-05T09:00', version: seen })
    expect(late.init?.status).toBe(409)
    expect(late.data.error).toBe(ASSIGN_MESSAGES.conflict)
    expect(late.data.result.error?.['']).toEqual([ASSIGN_MESSAGES.conflict])
    const [job] = await db().select().from(jobs).where(eq(jobs.id, jobId))
    expect(job?.technicianId).toBeNull()
  })

  it('answers a missing time and a tampered technician at their fields (400)', async () => {
    const noTime = await assign({ technicianId: '', scheduledAt: '' })
    expect(noTime.init?.status).toBe(400)
    expect(noTime.data.error).toBe(ASSIGN_MESSAGES.schedule)
    expect(noTime.data.result.error?.scheduledAt).toEqual([ASSIGN_MESSAGES.schedule])
    const tampered = await assign({ technicianId: "' OR 1=1 --", scheduledAt: '2026-12-03T09:00' })
    expect(tampered.init?.status).toBe(400)
    expect(tampered.data.result.error?.technicianId).toEqual([ASSIGN_MESSAGES.refused])
  })
})
