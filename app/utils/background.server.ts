// Periodic work that every app instance runs in-process (docs/architecture.md "Shared rules": no extra service to run).
// Each task must be safe to run on several instances at once and twice in a row (unique keys, SKIP LOCKED, advisory
// locks); this runner only makes sure one process never overlaps a task with itself, and that shutdown waits for a run
// in progress.
import { logger } from './logger.server'

type Task = { name: string; intervalMs: number; run: () => Promise<unknown> }

const timers = new Map<string, NodeJS.Timeout>()
const running = new Map<string, Promise<unknown>>()

function runOnce(task: Task) {
  if (running.has(task.name)) return running.get(task.name)
  const run = task
    .run()
    .catch((error) => logger.error({ err: error, task: task.name }, 'background task failed; it runs again later'))
    .finally(() => running.delete(task.name))
  running.set(task.name, run)
  return run
}

/** Runs `task` now and then every `intervalMs` until `stopBackgroundTasks`. */
export function startBackgroundTask(task: Task) {
  if (timers.has(task.name)) return
  const timer = setInterval(() => void runOnce(task), task.intervalMs)
  timer.unref()
  timers.set(task.name, timer)
  void runOnce(task)
}

/** Stops every periodic task and waits for runs in progress. */
export async function stopBackgroundTasks() {
  for (const timer of timers.values()) clearInterval(timer)
  timers.clear()
  await Promise.all(running.values())
}
