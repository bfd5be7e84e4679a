import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, jobs, profiles } from '~/db/schema'
import { seedDemoData } from '~/db/seed.server'
import { db } from '~/utils/db.server'
import { addChemLog, listChemLogsForJob } from './chem-log.server'
import { ChemReadingSchema } from './chem-reading'
import { assignJob, assignmentVersion, completeJob, getJobForViewer, jobStatus } from './job.server'

let blue: string
let sunset: string
let tech: { id: string }
let tech2: { id: string }
let sunsetTech: { id: string }

async function profileByEmail(email: string) {
  const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
  if (!row) throw new Error(`no profile ${email}`)
  return row
}

async function openJobOf(technicianId: string) {
  const [job] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.technicianId, technicianId), isNull(jobs.completedAt)))
    .limit(1)
  if (!job) throw new Error('no open job')
  return job.id
}

beforeAll(async () => {
  await seedDemoData(db())
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  tech = await profileByEmail('tech@bluelagoon.test')
  tech2 = await profileByEmail('tech2@bluelagoon.test')
  sunsetTech = await profileByEmail('tech@sunsetpools.test')
})

describe('getJobForViewer', () => {
  it("lets a technician see their own job but not a teammate's", async () => {
    const own = await openJobOf(tech.id)
    const teammates = await openJobOf(tech2.id)
    expect(await getJobForViewer({ id: tech.id, role: 'tech', companyId: blue }, own)).not.toBeNull()
    expect(await getJobForViewer({ id: tech.id, role: 'tech', companyId: blue }, teammates)).toBeNull()
  })

  it('lets office staff see any job of their company, and nobody see another company’s', async () => {
    const job = await openJobOf(tech2.id)
    expect(await getJobForViewer({ id: 'x', role: 'dispatcher', companyId: blue }, job)).not.toBeNull()
    expect(await getJobForViewer({ id: 'x', role: 'owner', companyId: sunset }, job)).toBeNull()
    expect(await getJobForViewer({ id: 'x', role: 'owner', companyId: blue }, 'not-a-uuid')).toBeNull()
  })
})

describe('completeJob', () => {
  it('sets completed_at once and only inside the company', async () => {
    const job = await openJobOf(tech.id)
    expect(await completeJob({ companyId: sunset, jobId: job })).toBe(false)
    const at = new Date('2026-11-20T15:00:00Z')
    expect(await completeJob({ companyId: blue, jobId: job, now: at })).toBe(true)
    expect(await completeJob({ companyId: blue, jobId: job })).toBe(false)
    const [row] = await db().select({ completedAt: jobs.completedAt }).from(jobs).where(eq(jobs.id, job))
    expect(row?.completedAt?.toISOString()).toBe(at.toISOString())
  })
})

describe('assignJob', () => {
  it('assigns and reschedules an open job', async () => {
    const job = await openJobOf(tech.id)
    const when = new Date('2026-12-01T14:00:00Z')
    expect(await assignJob({ companyId: blue, jobId: job, technicianId: tech2.id, scheduledAt: when })).toBe('saved')
    const [row] = await db().select().from(jobs).where(eq(jobs.id, job))
    expect(row?.technicianId).toBe(tech2.id)
    expect(row?.scheduledAt.toISOString()).toBe(when.toISOString())
  })

  it("refuses another company's technician and completed jobs", async () => {
    const job = await openJobOf(tech2.id)
    const when = new Date()
    expect(await assignJob({ companyId: blue, jobId: job, technicianId: sunsetTech.id, scheduledAt: when })).toBe(
      'refused',
    )
    const [done] = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.companyId, blue), isNotNull(jobs.completedAt)))
      .limit(1)
    expect(await assignJob({ companyId: blue, jobId: done?.id ?? '', technicianId: tech.id, scheduledAt: when })).toBe(
      'refused',
    )
  })
})

describe('two dispatchers assigning the same job at once', () => {
  it('end with one consistent result, and the loser is told', async () => {
    const [job] = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.companyId, blue), isNull(jobs.completedAt)))
      .limit(1)
    if (!job) throw new Error('no open job')
    const seen = assignmentVersion(job)
    const [tech, tech2] = (await Promise.all(
      ['tech@bluelagoon.test', 'tech2@bluelagoon.test'].map(async (email) => {
        const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
        return row?.id as string
      }),
    )) as [string, string]
    const when = new Date('2026-12-15T15:00:00Z')
    // Both saw the same version of the job; both save at the same moment.
    const outcomes = await Promise.all(
      [tech, tech2].map((technicianId) =>
        assignJob({ companyId: blue, jobId: job.id, technicianId, scheduledAt: when, expectedVersion: seen }),
      ),
    )
    expect([...outcomes].sort()).toEqual(['conflict', 'saved'])
    const winner = outcomes[0] === 'saved' ? tech : tech2
    const [row] = await db().select().from(jobs).where(eq(jobs.id, job.id))
    expect(row?.technicianId).toBe(winner)
    // Saving again from the page as it is now works.
    const retry = await assignJob({
      companyId: blue,
      jobId: job.id,
      technicianId: tech,
      scheduledAt: when,
      expectedVersion: assignmentVersion(row as typeof job),
    })
    expect(retry).toBe('saved')
  })
})

describe('chemistry readings', () => {
  it('requires all three readings with the spec message', () => {
    const result = ChemReadingSchema.safeParse({ ph: '7.4', chlorinePpm: '', alkalinity: '90' })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.message)).toContain('Fill in all readings before submitting.')
  })

  it('refuses out-of-range and non-numeric values with a clear message', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ ph: '15', chlorinePpm: '2', alkalinity: '90' }, 'pH must be between 0 and 14.'],
      [{ ph: '7.5', chlorinePpm: '51', alkalinity: '90' }, 'Chlorine must be between 0 and 50 ppm.'],
      [{ ph: '7.5', chlorinePpm: '2', alkalinity: '-1' }, 'Alkalinity must be between 0 and 500 ppm.'],
      [{ ph: 'abc', chlorinePpm: '2', alkalinity: '90' }, 'pH must be a number.'],
    ]
    for (const [input, message] of cases) {
      const result = ChemReadingSchema.safeParse(input)
      expect(result.error?.issues.map((i) => i.message)).toContain(message)
    }
  })

  it('stores readings as numbers and lists them newest first', async () => {
    const job = await openJobOf(tech.id)
    const reading = ChemReadingSchema.parse({ ph: '7.4', chlorinePpm: '3', alkalinity: '95' })
    await addChemLog({ companyId: blue, jobId: job, reading, takenAt: new Date('2026-11-01T10:00:00Z') })
    await addChemLog({
      companyId: blue,
      jobId: job,
      reading: { ...reading, ph: 7.6 },
      takenAt: new Date('2026-11-02T10:00:00Z'),
    })
    const logs = await listChemLogsForJob({ companyId: blue, jobId: job })
    expect(logs.map((l) => l.ph).slice(0, 2)).toEqual([7.6, 7.4])
    expect(typeof logs[0]?.chlorinePpm).toBe('number')
    expect(await listChemLogsForJob({ companyId: sunset, jobId: job })).toEqual([])
  })

  it("cannot attach a reading to another company's job", async () => {
    const job = await openJobOf(tech.id)
    const reading = ChemReadingSchema.parse({ ph: '7.4', chlorinePpm: '3', alkalinity: '95' })
    await expect(addChemLog({ companyId: sunset, jobId: job, reading })).rejects.toThrow()
  })
})

describe('jobStatus', () => {
  it('follows SPEC §4', () => {
    const now = new Date('2026-11-22T12:00:00Z')
    expect(jobStatus({ completedAt: now, scheduledAt: now }, now)).toBe('Completed')
    expect(jobStatus({ completedAt: null, scheduledAt: new Date('2026-11-22T11:59:00Z') }, now)).toBe('Overdue')
    expect(jobStatus({ completedAt: null, scheduledAt: new Date('2026-11-22T12:01:00Z') }, now)).toBe('Scheduled')
  })
})
