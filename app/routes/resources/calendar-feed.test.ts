// GET /calendar/<token>.ics and the "Calendar feed" section of My Account: the link made on the page is a working
// RFC 5545 calendar of the technician's visits, a reset link is 404, and only technicians have one.
import { eq } from 'drizzle-orm'
import ICAL from 'ical.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { profiles, visits } from '~/db/schema'
import { changeMemberRole, deactivateMember, reactivateMember } from '~/models/team.server'
import { generateVisits } from '~/models/visit-generation.server'
import { visitUid } from '~/schedule/calendar-feed'
import { db } from '~/utils/db.server'
import { requestResetToken, resetWith } from '../../../tests/helpers/links'
import { formRequest, pageRequest, routeArgs, SAME_ORIGIN, settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action as accountAction, loader as accountLoader } from '../app/account'
import { loader } from './calendar-feed'

/** Fetches the feed at `url` through the route, as a phone would (no cookie). */
async function fetchFeed(url: string) {
  const path = new URL(url).pathname
  const file = path.replace(/^\/calendar\//, '')
  return (await loader(routeArgs(new Request(`${TEST_ORIGIN}${path}`), { file }))) as Response
}

type FeedReply = {
  data: { feedUrl?: string; result: { error?: Record<string, string[] | null> } }
  init: { status?: number } | null
}

/** Presses `intent`'s button in the account page's calendar section. */
async function press(cookie: string, intent: string) {
  const request = formRequest('/app/account', { intent }, cookie, SAME_ORIGIN)
  const value = (await accountAction(routeArgs(request))) as unknown as FeedReply
  return { status: value.init?.status ?? 200, feedUrl: value.data.feedUrl, errors: value.data.result.error ?? {} }
}

async function profileId(email: string): Promise<string> {
  const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
  return row?.id ?? ''
}

async function feedSection(cookie: string) {
  const data = (await accountLoader(routeArgs(pageRequest('/app/account', cookie)))) as { calendarFeed: unknown }
  return data.calendarFeed
}

let tech: string
let tech2: string
let dispatcher: string

beforeAll(async () => {
  await useDemoData()
  await generateVisits({ now: new Date() })
  ;[tech, tech2, dispatcher] = await Promise.all([
    signInAs('tech@bluelagoon.test'),
    signInAs('tech2@bluelagoon.test'),
    signInAs('dispatch@bluelagoon.test'),
  ])
})

describe('the calendar feed', () => {
  let firstUrl: string

  it('is offered on My Account to a technician, and the link made there is a calendar of their visits', async () => {
    expect(await feedSection(tech)).toEqual({ active: false })
    const created = await press(tech, 'create-feed')
    expect(created.status).toBe(200)
    expect(created.feedUrl).toMatch(/^http:\/\/localhost:3999\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
    firstUrl = created.feedUrl ?? ''
    expect(await feedSection(tech)).toEqual({ active: true })

    const response = await fetchFeed(firstUrl)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/calendar; charset=utf-8')
    expect(response.headers.get('Cache-Control')).toBe('private, max-age=300')
    expect(response.headers.get('Content-Disposition')).toBe('inline; filename="pool-bud.ics"')
    const text = await response.text()

    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true)
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    const lines = text.slice(0, -2).split('\r\n')
    for (const line of lines) {
      expect(line).not.toMatch(/[\r\n]/)
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75)
    }

    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent')
    expect(events.length).toBeGreaterThan(0)
    const uids = new Set(events.map((event) => String(event.getFirstPropertyValue('uid'))))
    const tyler = await profileId('tech@bluelagoon.test')
    const maya = await profileId('tech2@bluelagoon.test')
    const tylers = await db().select({ id: visits.id }).from(visits).where(eq(visits.technicianId, tyler))
    const mayas = await db().select({ id: visits.id }).from(visits).where(eq(visits.technicianId, maya))
    const ownIds = new Set(tylers.map((visit) => visitUid(visit.id, 'localhost')))
    for (const uid of uids) expect(ownIds.has(uid)).toBe(true)
    for (const visit of mayas) expect(uids.has(visitUid(visit.id, 'localhost'))).toBe(false)
  })

  it('refuses a second "Create" (the page was stale) with a message, keeping the link', async () => {
    const again = await press(tech, 'create-feed')
    expect(again.status).toBe(409)
    expect(again.feedUrl).toBeUndefined()
    expect(again.errors['']?.[0]).toMatch(/Reset link/)
    expect((await fetchFeed(firstUrl)).status).toBe(200)
  })

  it('answers 404 in plain text for a reset link, and the new link works', async () => {
    const reset = await press(tech, 'reset-feed')
    expect(reset.status).toBe(200)
    expect(reset.feedUrl).not.toBe(firstUrl)
    const old = await fetchFeed(firstUrl)
    expect(old.status).toBe(404)
    expect(old.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
    expect(await old.text()).toMatch(/Calendar not found/)
    expect((await fetchFeed(reset.feedUrl ?? '')).status).toBe(200)
  })

  it('answers 404 for file names that are not <token>.ics', async () => {
    const reset = await press(tech, 'reset-feed')
    const token = /\/calendar\/(.+)\.ics$/.exec(reset.feedUrl ?? '')?.[1] ?? ''
    for (const file of [token, `${token}.ical`, `${token}.ics.ics`, '.ics', 'x.ics']) {
      const response = (await loader(routeArgs(new Request(`${TEST_ORIGIN}/calendar/${file}`), { file }))) as Response
      expect(response.status, file).toBe(404)
    }
  })

  it('gives each technician their own link', async () => {
    const created = await press(tech2, 'create-feed')
    const text = await (await fetchFeed(created.feedUrl ?? '')).text()
    expect(text).toContain('Maya Flores')
  })

  it('is not offered to the office, whose roles have no visits of their own', async () => {
    expect(await feedSection(dispatcher)).toBeNull()
    for (const intent of ['create-feed', 'reset-feed']) {
      const { thrown } = await settle(press(dispatcher, intent))
      expect((thrown as { init?: { status?: number } })?.init?.status).toBe(403)
    }
  })

  it('stops working when the technician is deactivated', async () => {
    const reset = await press(tech2, 'reset-feed')
    expect((await fetchFeed(reset.feedUrl ?? '')).status).toBe(200)
    await db().update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.email, 'tech2@bluelagoon.test'))
    expect((await fetchFeed(reset.feedUrl ?? '')).status).toBe(404)
  })
})

// N5: a feed link is revoked, not suspended. Whatever takes a technician's access away ends their link for good;
// getting the access back does not bring the old URL back, and "Create calendar link" makes a new one.
describe('the calendar link once access was taken away', () => {
  async function member(email: string) {
    const [row] = await db()
      .select({ id: profiles.id, companyId: profiles.companyId })
      .from(profiles)
      .where(eq(profiles.email, email))
    return { id: row?.id ?? '', companyId: row?.companyId ?? '' }
  }

  /** The Blue Lagoon owner acting on `email`, as the Team page does. */
  async function ownerActsOn(email: string) {
    const owner = await member('owner@bluelagoon.test')
    const target = await member(email)
    return { companyId: owner.companyId, actorId: owner.id, memberId: target.id }
  }

  it('stays dead after the technician is deactivated and reactivated; a new link works', async () => {
    const cookie = await signInAs('tech@bluelagoon.test')
    const { feedUrl } = await press(cookie, 'reset-feed')
    expect((await fetchFeed(feedUrl ?? '')).status).toBe(200)
    const target = await ownerActsOn('tech@bluelagoon.test')
    expect(await deactivateMember(target)).toEqual({ ok: true })
    expect((await fetchFeed(feedUrl ?? '')).status).toBe(404)
    expect(await reactivateMember(target)).toEqual({ ok: true })
    expect((await fetchFeed(feedUrl ?? '')).status).toBe(404)

    const again = await signInAs('tech@bluelagoon.test')
    expect(await feedSection(again)).toEqual({ active: false })
    const created = await press(again, 'create-feed')
    expect(created.status).toBe(200)
    expect(created.feedUrl).not.toBe(feedUrl)
    expect((await fetchFeed(created.feedUrl ?? '')).status).toBe(200)
  })

  it('stays dead after the technician is moved to dispatcher and back', async () => {
    const cookie = await signInAs('tech@bluelagoon.test')
    const { feedUrl } = await press(cookie, 'reset-feed')
    expect((await fetchFeed(feedUrl ?? '')).status).toBe(200)
    const target = await ownerActsOn('tech@bluelagoon.test')
    // The same role again is no change: the link keeps working.
    expect(await changeMemberRole({ ...target, role: 'tech' })).toEqual({ ok: true })
    expect((await fetchFeed(feedUrl ?? '')).status).toBe(200)
    expect(await changeMemberRole({ ...target, role: 'dispatcher' })).toEqual({ ok: true })
    expect((await fetchFeed(feedUrl ?? '')).status).toBe(404)
    expect(await changeMemberRole({ ...target, role: 'tech' })).toEqual({ ok: true })
    expect((await fetchFeed(feedUrl ?? '')).status).toBe(404)
    expect(await feedSection(cookie)).toEqual({ active: false })
    const created = await press(cookie, 'create-feed')
    expect((await fetchFeed(created.feedUrl ?? '')).status).toBe(200)
  })

  it('stays dead after a password reset', async () => {
    const cookie = await signInAs('tech@sunsetpools.test')
    const { feedUrl } = await press(cookie, 'reset-feed')
    expect((await fetchFeed(feedUrl ?? '')).status).toBe(200)
    expect(await resetWith(await requestResetToken('tech@sunsetpools.test'), 'a-brand-new-pass-9')).toBe(200)
    expect((await fetchFeed(feedUrl ?? '')).status).toBe(404)
    const again = await signInAs('tech@sunsetpools.test', 'a-brand-new-pass-9')
    expect(await feedSection(again)).toEqual({ active: false })
    const created = await press(again, 'create-feed')
    expect((await fetchFeed(created.feedUrl ?? '')).status).toBe(200)
  })
})
