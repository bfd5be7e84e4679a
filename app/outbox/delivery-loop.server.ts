// One delivery loop of the outbox (docs/decisions/070-webhooks-in-the-outbox.md): a worker's pass run every few seconds
// on every app instance, never overlapping itself in one process (the claims keep instances apart). Each worker owns
// its loop, so a kick reaches the right one; `start.server.ts` starts and stops them all.
import { logger } from '~/utils/logger.server'

export type DeliveryLoop = {
  /** Runs a pass now rather than at the next tick (no-op when the loop is not started). */
  kick: () => void
  start: (intervalMs: number) => void
  /** Stops the ticks and waits for a pass under way. */
  stop: () => Promise<void>
}

/** A loop running `deliver`; `name` is what its log says failed when a whole pass does. */
export function deliveryLoop(name: string, deliver: () => Promise<unknown>): DeliveryLoop {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | undefined
  const runOnce = () => {
    running ??= deliver()
      .catch((error: unknown) => logger.error({ err: error }, `${name} failed`))
      .finally(() => {
        running = undefined
      })
    return running
  }
  return {
    kick() {
      if (timer) setImmediate(runOnce)
    },
    start(intervalMs) {
      if (timer) return
      timer = setInterval(runOnce, intervalMs)
      timer.unref()
      void runOnce()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      await running
    },
  }
}
