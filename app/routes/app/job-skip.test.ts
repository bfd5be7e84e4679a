// "Skip visit" and "Cancel job" on the visit page (docs/product.md "Schedule", "The visit"), through the job route's
// loader and action.
import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { jobs, profiles } from '~/db/schema'
import { generateVisits } from '~/models/visit-generation.server'
import { FIELD_MESSAGES } from '~/models/visit-work.server'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { formRequest, pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './job'

const post = (cookie: string, jobId: string, fields: Record<string, string>) =>
  formRequest(`/app/jobs/${jobId}`, fields, cookie)

type JobPage = Awaited<ReturnType<typeof loader>>
const page = async (cookie: string, jobId: string) =>
  (await loader(routeArgs(pageRequest(`/app/jobs/${jobId}`, cookie), { jobId }))) as JobPage

/** Runs an action that should redirect back to the visit; returns the message it carries. */
async function done(cookie: string, jobId: string, fields: Record<string, string>) {
  const { thrown, returned } = await settle(action(routeArgs(post(cookie, jobId, fields), { jobId })))
  expect(returned).toBeUndefined()
  const response = thrown as Response
  expect(response).toHaveRedirect(`/app/jobs/${jobId}`)
  const cookieValue = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  return (await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie: cookieValue } }))).flash?.text
}

function refused(returned: unknown) {
  const value = returned as {
    data: { error?: string; result?: { error?: Record<string, string[] | null> } }
    init?: { status?: number }
  }
  return { status: value.init?.status, errors: value.data.result?.error ?? {}, error: value.data.error }
}

let dispatcher: string
let tech: string
let techJobs: string[]
let tech2Job: string

async function openJobsOf(email: string) {
  const [profile] = await db().select().from(profiles).where(eq(profiles.email, email))
  const rows = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.technicianId, profile?.id ?? ''), isNull(jobs.completedAt), isNull(jobs.cancelledAt)))
    .orderBy(jobs.scheduledAt)
  return rows.map((row) => row.id)
}

beforeAll(async () => {
  await useDemoData()
  await generateVisits({ now: new Date() })
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  tech = await signInAs('tech@bluelagoon.test')
  techJobs = await openJobsOf('tech@bluelagoon.test')
  tech2Job = (await openJobsOf('tech2@bluelagoon.test'))[0] ?? ''
  expect(techJobs.length).toBeGreaterThanOrEqual(6)
  expect(tech2Job).not.toBe('')
})

describe('Skip visit', () => {
  it('is offered on an open visit to the office and the visit’s technician; cancel only to the office', async () => {
    const jobId = techJobs[0] ?? ''
    expect(await page(dispatcher, jobId)).toMatchObject({ canSkip: true, canCancel: true })
    expect(await page(tech, jobId)).toMatchObject({ canSkip: true, canCancel: false })
  })

  it('lets the office skip a visit with a reason; the visit then shows "Skipped: <reason>" and offers nothing', async () => {
    const jobId = techJobs[0] ?? ''
    expect(await done(dispatcher, jobId, { intent: 'skip-visit', reason: 'Weather' })).toBe('Visit skipped.')
    const [row] = await db().select().from(jobs).where(eq(jobs.id, jobId))
    expect(row?.skipReason).toBe('Weather')
    expect(row?.cancelledAt).not.toBeNull()
    const after = await page(dispatcher, jobId)
    expect(after.job).toMatchObject({ status: 'Skipped', state: 'skipped', skipReason: 'Weather' })
    expect(after).toMatchObject({ canSkip: false, canCancel: false })
  })

  it('lets the visit’s own technician skip it', async () => {
    const jobId = techJobs[1] ?? ''
    expect(await done(tech, jobId, { intent: 'skip-visit', reason: 'Locked gate' })).toBe('Visit skipped.')
    expect((await page(tech, jobId)).job.skipReason).toBe('Locked gate')
  })

  it('keeps "Other" with its words, and asks for them when missing', async () => {
    const jobId = techJobs[2] ?? ''
    const { returned } = await settle(
      action(routeArgs(post(tech, jobId, { intent: 'skip-visit', reason: 'Other' }), { jobId })),
    )
    const answer = refused(returned)
    expect(answer.status).toBe(400)
    expect(answer.errors.otherReason).toEqual(['Say why the visit is skipped.'])
    const none = refused(
      (await settle(action(routeArgs(post(tech, jobId, { intent: 'skip-visit' }), { jobId })))).returned,
    )
    expect(none.errors.reason).toEqual(['Choose a reason.'])
    await done(tech, jobId, { intent: 'skip-visit', reason: 'Other', otherReason: 'Pump room flooded' })
    expect((await page(tech, jobId)).job.skipReason).toBe('Other: Pump room flooded')
  })

  it("is refused to a technician on a teammate's visit, as on the phone, and changes nothing", async () => {
    const { returned } = await settle(
      action(routeArgs(post(tech, tech2Job, { intent: 'skip-visit', reason: 'Weather' }), { jobId: tech2Job })),
    )
    const answer = refused(returned)
    expect(answer.status).toBe(409)
    expect(answer.errors['']).toEqual([FIELD_MESSAGES.reassigned])
    const [row] = await db().select().from(jobs).where(eq(jobs.id, tech2Job))
    expect(row?.skipReason).toBeNull()
  })

  it('refuses a visit that is already finished', async () => {
    const { returned } = await settle(
      action(
        routeArgs(post(dispatcher, techJobs[0] ?? '', { intent: 'skip-visit', reason: 'Weather' }), {
          jobId: techJobs[0] ?? '',
        }),
      ),
    )
    expect(refused(returned).status).toBe(409)
  })
})

describe('Cancel job', () => {
  it('is refused to a technician', async () => {
    const jobId = techJobs[3] ?? ''
    const { thrown } = await settle(action(routeArgs(post(tech, jobId, { intent: 'cancel-job' }), { jobId })))
    expect(statusOf(thrown)).toBe(403)
    const [row] = await db().select().from(jobs).where(eq(jobs.id, jobId))
    expect(row?.cancelledAt).toBeNull()
  })

  it('cancels an open visit for the office; it stays as "Canceled" and offers nothing more', async () => {
    const jobId = techJobs[3] ?? ''
    expect(await done(dispatcher, jobId, { intent: 'cancel-job' })).toBe('Job canceled.')
    const after = await page(dispatcher, jobId)
    expect(after.job).toMatchObject({ status: 'Canceled', state: 'cancelled', skipReason: null })
    expect(after).toMatchObject({ canSkip: false, canCancel: false })
    const again = refused(
      (await settle(action(routeArgs(post(dispatcher, jobId, { intent: 'cancel-job' }), { jobId })))).returned,
    )
    expect(again.status).toBe(409)
    expect(again.error).toBe('This visit is already completed, skipped or canceled.')
  })

  it("is a 404 for another company's owner", async () => {
    const otherOwner = await signInAs('owner@sunsetpools.test')
    const jobId = techJobs[4] ?? ''
    const attempts: Array<Record<string, string>> = [
      { intent: 'cancel-job' },
      { intent: 'skip-visit', reason: 'Weather' },
    ]
    for (const fields of attempts) {
      expect(statusOf((await settle(action(routeArgs(post(otherOwner, jobId, fields), { jobId })))).thrown)).toBe(404)
    }
  })
})
