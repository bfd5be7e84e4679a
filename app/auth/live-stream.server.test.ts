// The live-update stream asks again who is signing in at every heartbeat, and caps tabs per user.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { requireCompanyCapability } from '~/auth/guards.server'
import { MAX_STREAMS_PER_USER, openLiveStream } from '~/auth/live-stream.server'
import { profiles, session } from '~/db/schema'
import { db } from '~/utils/db.server'
import { pageRequest } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'

/** A stream of `email`'s, checked every 40 ms, with a way to hang up. */
async function open(email: string, cookie?: string) {
  const signedIn = cookie ?? (await signInAs(email))
  const controller = new AbortController()
  const request = new Request(pageRequest('/app/events', signedIn), { signal: controller.signal })
  const member = await requireCompanyCapability(request, 'visits:work')
  return { response: openLiveStream(request, member, 40), hangUp: () => controller.abort(), cookie: signedIn }
}

/** Everything the stream sends until it ends, or 'still open' after `ms`. */
async function readToEnd(response: Response, ms = 3000) {
  const reader = response.body?.getReader()
  if (!reader) throw new Error('no body')
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const next = await Promise.race([reader.read(), new Promise<'wait'>((r) => setTimeout(() => r('wait'), 100))])
    if (next === 'wait') continue
    if (next.done) return text
    text += decoder.decode(next.value)
  }
  await reader.cancel()
  return 'still open'
}

beforeAll(async () => {
  await useDemoData()
})

describe('a live-update stream', () => {
  it('stays open with heartbeats while the member is signed in', async () => {
    const { response, hangUp } = await open('dispatch@bluelagoon.test')
    const reader = response.body?.getReader()
    const decoder = new TextDecoder()
    let text = ''
    while (!text.includes(': keep-alive')) text += decoder.decode((await reader?.read())?.value)
    expect(text).toContain(': connected')
    hangUp()
  })

  it('closes at the next heartbeat once the member is signed out everywhere', async () => {
    const { response } = await open('tech2@bluelagoon.test')
    const [tech] = await db().select().from(profiles).where(eq(profiles.email, 'tech2@bluelagoon.test'))
    await db()
      .delete(session)
      .where(eq(session.userId, tech?.id ?? ''))
    expect(await readToEnd(response)).not.toBe('still open')
  })

  it('closes once the member is deactivated', async () => {
    const { response } = await open('tech@bluelagoon.test')
    await db().update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.email, 'tech@bluelagoon.test'))
    try {
      expect(await readToEnd(response)).not.toBe('still open')
    } finally {
      await db().update(profiles).set({ deactivatedAt: null }).where(eq(profiles.email, 'tech@bluelagoon.test'))
    }
  })

  it(`holds at most ${MAX_STREAMS_PER_USER} per user; one more is told to close some tabs`, async () => {
    const first = await open('office@bluelagoon.test')
    const streams = [first]
    for (let i = 1; i < MAX_STREAMS_PER_USER; i++) streams.push(await open('office@bluelagoon.test', first.cookie))
    expect(streams.map((s) => s.response.status)).toEqual(Array(MAX_STREAMS_PER_USER).fill(200))

    const extra = await open('office@bluelagoon.test', first.cookie)
    expect(extra.response.status).toBe(429)
    expect(await extra.response.text()).toMatch(/close some Pool Bud tabs/)
    // Another user is not affected.
    const other = await open('owner@bluelagoon.test')
    expect(other.response.status).toBe(200)

    streams[0]?.hangUp()
    const again = await open('office@bluelagoon.test', first.cookie)
    expect(again.response.status).toBe(200)
    for (const s of [...streams, other, again]) s.hangUp()
  })
})
