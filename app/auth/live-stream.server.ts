// The Server-Sent Events stream behind /app/events. A stream can stay open for hours, so it does
// not trust the sign-in it started with: at every heartbeat it asks again who is signing in, and
// closes once they signed out, were deactivated, lost the role or moved company. Each user may hold
// a few streams (tabs) per server, not an unbounded number.

import { type CompanyMember, getFreshSessionUser } from '~/auth/guards.server'
import { subscribeToCompany } from '~/utils/events.server'
import { can } from '~/utils/permissions'

/** Keeps proxies from closing an idle stream, and paces the session check. */
export const HEARTBEAT_MS = 25_000
/** Open tabs per user and server; one more gets 429. */
export const MAX_STREAMS_PER_USER = 8

const openStreams = new Map<string, number>()

declare global {
  /** Every open stream's close, so a shutdown can end them (kept on globalThis: the dev server reloads modules). */
  var __poolBudLiveStreams: Set<() => void> | undefined
}

function streamClosers() {
  globalThis.__poolBudLiveStreams ??= new Set()
  return globalThis.__poolBudLiveStreams
}

/**
 * Ends every open stream (graceful shutdown: a stream never ends by itself, so it would hold the server until the
 * drain timeout). Browsers reconnect after `retry`, to whichever server is up.
 */
export function closeLiveStreams() {
  for (const close of [...streamClosers()]) close()
}

function countStream(userId: string, change: 1 | -1) {
  const next = (openStreams.get(userId) ?? 0) + change
  if (next > 0) openStreams.set(userId, next)
  else openStreams.delete(userId)
}

/** Whether the stream's member still signs in as the same member of the same company. */
async function stillMember(request: Request, member: CompanyMember) {
  const user = await getFreshSessionUser(request).catch(() => undefined)
  // A database hiccup is not a sign-out: keep the stream and ask again at the next heartbeat.
  if (user === undefined) return true
  const profile = user?.profile
  return user?.id === member.id && profile?.companyId === member.companyId && can(profile?.role, 'visits:work')
}

export function openLiveStream(request: Request, member: CompanyMember, heartbeatMs = HEARTBEAT_MS): Response {
  if ((openStreams.get(member.id) ?? 0) >= MAX_STREAMS_PER_USER) {
    return new Response('Too many live-update connections: close some Pool Bud tabs.', {
      status: 429,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '30' },
    })
  }
  countStream(member.id, 1)
  const encoder = new TextEncoder()
  let closed = false
  let cleanup = () => {}
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const close = () => {
        cleanup()
        try {
          controller.close()
        } catch {
          // Closed already (the browser went away first): closing twice throws, and there is nothing left to do.
        }
      }
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          cleanup()
        }
      }
      let unsubscribe: () => void
      try {
        unsubscribe = await subscribeToCompany(member.companyId, (event) => {
          send(`event: change\ndata: ${JSON.stringify({ type: event.type, visitId: event.visitId ?? null })}\n\n`)
        })
      } catch (error) {
        // The database is down: this stream never opened, so it does not count against the user's tabs.
        countStream(member.id, -1)
        throw error
      }
      const heartbeat = setInterval(async () => {
        if (await stillMember(request, member)) send(': keep-alive\n\n')
        else close()
      }, heartbeatMs)
      cleanup = () => {
        if (closed) return
        closed = true
        clearInterval(heartbeat)
        unsubscribe()
        countStream(member.id, -1)
        streamClosers().delete(close)
      }
      streamClosers().add(close)
      request.signal.addEventListener('abort', close)
      send('retry: 3000\n: connected\n\n')
    },
    cancel() {
      cleanup()
    },
  })
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  })
}
