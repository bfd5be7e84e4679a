// The outbox's start and stop (docs/decisions/070-webhooks-in-the-outbox.md): one place runs every delivery loop —
// emails, texts and tasks (`worker.server.ts`) and webhooks (`webhook-worker.server.ts`) — so the server starts them
// together and a test or a shutdown stops them together.

import { webhookLoop } from './webhook-worker.server'
import { emailLoop } from './worker.server'

/** Starts polling the outbox; the server calls this once at start-up. */
export function startOutboxWorker(intervalMs = 5_000) {
  emailLoop.start(intervalMs)
  webhookLoop.start(intervalMs)
}

/** Stops every delivery loop and waits for the passes under way. */
export async function stopOutboxWorker() {
  await Promise.all([emailLoop.stop(), webhookLoop.stop()])
}
