// Timesheets against the database (docs/time.md, decision 056): a day's drive and on-site minutes from its visits'
// own times, edits that add rows and keep the history, overtime after 40 hours, "Approve week" locking the week (the
// phone's taps and the office's edits alike) until "Reopen week" with a reason, the payroll rows of approved weeks
// only, and another company's technician as a 404. Every date is fixed: the clock's `now` is passed in.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { chemLogs, companies, profiles, timeEvents, user, visits } from '~/db/schema'
import { instantAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { payrollRows } from './payroll.server'
import { recordTimeEvent } from './time-clock.server'
import { TIME_MESSAGES } from './time-events.server'
import { weekTimesheet } from './timesheet.server'
import { approveWeek, editDay, reopenWeek } from './timesheet-edits.server'

const ZONE = 'America/New_York'
const MONDAY = '2026-11-02'
const at = (date: string, time: string) => instantAt(date, time, ZONE)
const DAYS = ['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06']

let companyId: string
let otherCompanyId: string
let techId: string
let ownerId: string
let otherTechId: string

async function person(
  company: string,
  role: 'tech' | 'owner',
  name: string,
  pay: Partial<typeof profiles.$inferInsert> = {},
) {
  const id = randomUUID()
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${id.slice(0, 6)}@example.com`
  await db().insert(user).values({ id, email, name, emailVerified: true })
  await db()
    .insert(profiles)
    .values({ id, companyId: company, role, email, fullName: name, hasCompletedSetup: true, ...pay })
  return id
}

/** Taps the phone's clock at a wall time of `date`, the server seeing it that evening. */
function tap(technicianId: string, kind: 'start' | 'break-start' | 'break-end' | 'end', date: string, time: string) {
  return recordTimeEvent(
    { id: technicianId, companyId, timezone: ZONE },
    { id: randomUUID(), kind, madeAt: at(date, time).toISOString() },
    at(date, '23:00'),
  )
}

beforeAll(async () => {
  const [company] = await db().insert(companies).values({ name: 'Clock Pools', timezone: ZONE }).returning()
  const [other] = await db().insert(companies).values({ name: 'Other Pools', timezone: ZONE }).returning()
  companyId = company?.id ?? ''
  otherCompanyId = other?.id ?? ''
  techId = await person(companyId, 'tech', 'Tess Clock', { payType: 'hourly', hourlyRateCents: 2000 })
  ownerId = await person(companyId, 'owner', 'Olive Owner')
  otherTechId = await person(otherCompanyId, 'tech', 'Other Tech')
})

const owner = () => ({ id: ownerId, companyId, timezone: ZONE })

describe('a day on the timesheet', () => {
  it('counts a stop from "On my way" to its first reading as drive and then on site to "Mark Complete"', async () => {
    const customer = await addTestCustomer(companyId, {
      customerName: 'Drive Test',
      address: '1 Drive St, Tampa, FL 33606',
    })
    const [visit] = await db()
      .insert(visits)
      .values({
        companyId,
        customerId: customer.id,
        locationId: customer.locationId,
        customerName: customer.customerName,
        address: customer.address,
        technicianId: techId,
        scheduledAt: at(MONDAY, '08:00'),
        onMyWayAt: at(MONDAY, '08:10'),
        completedAt: at(MONDAY, '18:00'),
        completedOnPhoneAt: at(MONDAY, '09:15'),
      })
      .returning({ id: visits.id })
    await db()
      .insert(chemLogs)
      .values({
        companyId,
        visitId: visit?.id ?? '',
        ph: 7.4,
        chlorinePpm: 3,
        alkalinity: 100,
        takenAt: at(MONDAY, '08:30'),
      })
    expect(await tap(techId, 'start', MONDAY, '08:00')).toMatchObject({ ok: true })
    expect(await tap(techId, 'break-start', MONDAY, '12:00')).toMatchObject({ ok: true })
    expect(await tap(techId, 'break-end', MONDAY, '12:30')).toMatchObject({ ok: true })
    expect(await tap(techId, 'end', MONDAY, '16:00')).toMatchObject({ ok: true })
    const week = await weekTimesheet({ companyId, technicianId: techId, weekStart: MONDAY, timezone: ZONE })
    const day = week?.days[0]
    expect(day).toMatchObject({
      driveMinutes: 20,
      onSiteMinutes: 45,
      breakMinutes: 30,
      workedMinutes: 450,
      idleMinutes: 480 - 20 - 45 - 30,
      completed: 1,
    })
    expect(day?.stops[0]).toMatchObject({ state: 'completed', driveMinutes: 20, onSiteMinutes: 45 })
    // 7 h 30 min at $20.00.
    expect(day?.grossCents).toBe(15000)
  })

  it('keeps every edit as a new row with its reason, the phone’s original untouched, and refuses one without a reason', async () => {
    expect(
      await editDay(owner(), { technicianId: techId, date: MONDAY, start: '07:55', end: null, reason: ' ' }),
    ).toMatchObject({
      ok: false,
      field: 'reason',
    })
    expect(
      await editDay(owner(), {
        technicianId: techId,
        date: MONDAY,
        start: '07:55',
        end: null,
        reason: 'Forgot to tap',
      }),
    ).toEqual({ ok: true })
    expect(
      await editDay(owner(), { technicianId: techId, date: MONDAY, start: '07:50', end: '16:20', reason: 'Gate log' }),
    ).toEqual({ ok: true })
    const rows = await db()
      .select({ kind: timeEvents.kind, at: timeEvents.at, source: timeEvents.source })
      .from(timeEvents)
      .where(
        and(eq(timeEvents.companyId, companyId), eq(timeEvents.technicianId, techId), eq(timeEvents.kind, 'start')),
      )
      .orderBy(timeEvents.recordedAt)
    expect(rows.map((row) => [row.source, row.at.toISOString()])).toEqual([
      ['phone', at(MONDAY, '08:00').toISOString()],
      ['office', at(MONDAY, '07:55').toISOString()],
      ['office', at(MONDAY, '07:50').toISOString()],
    ])
    const week = await weekTimesheet({ companyId, technicianId: techId, weekStart: MONDAY, timezone: ZONE })
    const day = week?.days[0]
    expect(day?.startAt?.toISOString()).toBe(at(MONDAY, '07:50').toISOString())
    expect(day?.workedMinutes).toBe(8 * 60 + 30 - 30)
    expect(day?.edits.map((edit) => [edit.kind, edit.from?.toISOString(), edit.to.toISOString(), edit.reason])).toEqual(
      [
        ['start', at(MONDAY, '08:00').toISOString(), at(MONDAY, '07:55').toISOString(), 'Forgot to tap'],
        ['start', at(MONDAY, '07:55').toISOString(), at(MONDAY, '07:50').toISOString(), 'Gate log'],
        ['end', at(MONDAY, '16:00').toISOString(), at(MONDAY, '16:20').toISOString(), 'Gate log'],
      ],
    )
  })

  it('flags overtime after 40 hours and pays it at one and a half', async () => {
    for (const date of DAYS.slice(1)) {
      await tap(techId, 'start', date, '07:00')
      await tap(techId, 'end', date, '17:00')
    }
    const week = await weekTimesheet({ companyId, technicianId: techId, weekStart: MONDAY, timezone: ZONE })
    // Monday 8 h (7:50–16:20 less 30 min), then four days of 10 h: 48 h, 8 of them overtime, all on Friday.
    expect(week?.totals).toMatchObject({ workedMinutes: 48 * 60, regularMinutes: 40 * 60, overtimeMinutes: 8 * 60 })
    expect(week?.overtime).toBe(true)
    expect(week?.days[4]).toMatchObject({ regularMinutes: 2 * 60, overtimeMinutes: 8 * 60 })
    expect(week?.days[4]?.grossCents).toBe(2 * 2000 + 8 * 3000)
  })
})

describe('approving a week', () => {
  it('refuses a week with a day started and not ended', async () => {
    const next = '2026-11-09'
    await tap(techId, 'start', next, '07:00')
    expect(await approveWeek(owner(), { technicianId: techId, weekStart: next })).toMatchObject({
      ok: false,
      message: TIME_MESSAGES.openDay(next),
    })
  })

  it('locks the week for the office and the phone until it is reopened with a reason', async () => {
    expect(await approveWeek(owner(), { technicianId: techId, weekStart: MONDAY })).toEqual({ ok: true })
    expect(await approveWeek(owner(), { technicianId: techId, weekStart: MONDAY })).toMatchObject({ ok: false })
    expect(
      await editDay(owner(), { technicianId: techId, date: MONDAY, start: '07:00', end: null, reason: 'Late change' }),
    ).toMatchObject({ ok: false, message: TIME_MESSAGES.weekApproved })
    expect(await tap(techId, 'start', '2026-11-07', '09:00')).toMatchObject({
      ok: false,
      message: TIME_MESSAGES.weekApproved,
    })
    expect(await reopenWeek(owner(), { technicianId: techId, weekStart: MONDAY, reason: '' })).toMatchObject({
      ok: false,
    })
    expect(await reopenWeek(owner(), { technicianId: techId, weekStart: MONDAY, reason: 'Missed a break' })).toEqual({
      ok: true,
    })
    const reopened = await weekTimesheet({ companyId, technicianId: techId, weekStart: MONDAY, timezone: ZONE })
    expect(reopened?.approved).toBe(false)
    expect(reopened?.approvals.map((step) => [step.action, step.reason])).toEqual([
      ['reopen', 'Missed a break'],
      ['approve', null],
    ])
  })

  it('exports approved weeks only, one row per day with hours, stops and gross', async () => {
    expect(await payrollRows({ companyId, timezone: ZONE, from: MONDAY, to: '2026-11-16' })).toEqual([])
    await approveWeek(owner(), { technicianId: techId, weekStart: MONDAY })
    const rows = await payrollRows({ companyId, timezone: ZONE, from: MONDAY, to: '2026-11-16' })
    expect(rows.map((row) => [row.date, row.regularMinutes, row.overtimeMinutes, row.stops, row.grossCents])).toEqual([
      ['2026-11-02', 480, 0, 1, 16000],
      ['2026-11-03', 600, 0, 0, 20000],
      ['2026-11-04', 600, 0, 0, 20000],
      ['2026-11-05', 600, 0, 0, 20000],
      ['2026-11-06', 120, 480, 0, 4000 + 24000],
    ])
    expect(rows[0]?.employee).toBe('Tess Clock')
    // Paid per stop instead: the completed visit at the rate, whatever the hours.
    await db()
      .update(profiles)
      .set({ payType: 'per-stop', hourlyRateCents: null, perStopRateCents: 1800, skippedVisitExtraCents: 500 })
      .where(eq(profiles.id, techId))
    const perStop = await payrollRows({ companyId, timezone: ZONE, from: MONDAY, to: '2026-11-16' })
    expect(perStop.map((row) => row.grossCents)).toEqual([1800, 0, 0, 0, 0])
  })

  it('treats another company’s technician as not found', async () => {
    expect(await weekTimesheet({ companyId, technicianId: otherTechId, weekStart: MONDAY, timezone: ZONE })).toBeNull()
    expect(
      await editDay(owner(), { technicianId: otherTechId, date: MONDAY, start: '07:00', end: null, reason: 'x' }),
    ).toMatchObject({ ok: false, code: 'not-found' })
    expect(await approveWeek(owner(), { technicianId: otherTechId, weekStart: MONDAY })).toMatchObject({
      code: 'not-found',
    })
  })
})
