import fs from 'node:fs'
import inspector from 'node:inspector/promises'
import { afterAll, beforeAll } from 'vitest'

const g = globalThis as unknown as { __prof?: inspector.Session; __n?: number }
beforeAll(async () => {
  if (g.__prof) return
  const s = new inspector.Session()
  s.connect()
  await s.post('Profiler.enable')
  await s.post('Profiler.setSamplingInterval', { interval: 1000 })
  await s.post('Profiler.start')
  g.__prof = s
  g.__n = 0
})
afterAll(async () => {
  const s = g.__prof
  if (!s) return
  g.__n = (g.__n ?? 0) + 1
  if (g.__n < 8) return
  const { profile } = await s.post('Profiler.stop')
  fs.writeFileSync(`/tmp/prof/${process.pid}.cpuprofile`, JSON.stringify(profile))
})
