import { subscribeToCompany } from '~/utils/events.server'
import { requireCompanyCapability } from '~/utils/permissions.server'
import type { Route } from './+types/events'

/** Keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000

// Server-Sent Events for the signed-in member's company: pages revalidate when told.
// Technicians hear about their company's jobs but each page still loads only what they may see.
export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'jobs:work')
  const encoder = new TextEncoder()
  let cleanup = () => {}
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          cleanup()
        }
      }
      const unsubscribe = await subscribeToCompany(member.companyId, (event) => {
        send(`event: change\ndata: ${JSON.stringify({ type: event.type, jobId: event.jobId ?? null })}\n\n`)
      })
      const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS)
      cleanup = () => {
        clearInterval(heartbeat)
        unsubscribe()
      }
      request.signal.addEventListener('abort', () => {
        cleanup()
        try {
          controller.close()
        } catch {}
      })
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
