// A reading judged for display: what the visit page, dashboards, portal and report email show about the water.
import { type Balance, waterBalance } from './balance'
import { type Advice, dosingAdvice } from './dosing'
import { type Level, type PoolProfile, type Reading, readingStatus, surfaceWord } from './targets'

export type ReadingSummary = {
  statuses: { text: string; level: Level }[]
  balance: Balance | null
}

/** Per-parameter status and the saturation index (when the inputs were measured) of one reading. */
export function summarizeReading(reading: Reading, profile: PoolProfile): ReadingSummary {
  return {
    statuses: readingStatus(reading, profile).map(({ text, level }) => ({ text, level })),
    balance: waterBalance(reading),
  }
}

/** Advice for the latest reading, or null when there is no reading or no pool volume to dose for. */
export function adviceForLatest(latest: Reading | undefined, profile: PoolProfile): Advice[] | null {
  return latest ? dosingAdvice(latest, profile) : null
}

/** "15,000 gal · chlorine · plaster · outdoor", or null when the office has not filled the pool profile in. */
export function describePool(profile: PoolProfile) {
  const parts = [
    profile.volumeGallons ? `${profile.volumeGallons.toLocaleString('en-US')} gal` : null,
    profile.sanitizer,
    surfaceWord(profile.surface),
    profile.indoor == null ? null : profile.indoor ? 'indoor' : 'outdoor',
  ].filter(Boolean)
  return parts.length ? parts.join(' · ') : null
}

/** "pH 7.9 · chlorine 0.5 ppm · alkalinity 70 ppm · CYA 40 ppm · 82 °F": the measured values of one reading. */
export function describeReading(reading: Reading) {
  return [
    `pH ${reading.ph}`,
    `chlorine ${reading.chlorinePpm} ppm`,
    `alkalinity ${reading.alkalinity} ppm`,
    reading.cyanuricAcid == null ? null : `CYA ${reading.cyanuricAcid} ppm`,
    reading.calciumHardness == null ? null : `calcium ${reading.calciumHardness} ppm`,
    reading.salt == null ? null : `salt ${reading.salt} ppm`,
    reading.waterTempF == null ? null : `${reading.waterTempF} °F`,
  ]
    .filter(Boolean)
    .join(' · ')
}

/** "pH high, chlorine low" (or "All in range"), then the balance when it was computed: for text such as email. */
export function describeStatus(summary: ReadingSummary) {
  const off = summary.statuses.filter((status) => status.level !== 'in range').map((status) => status.text)
  const status = off.length ? off.join(', ') : 'All in range'
  if (!summary.balance) return status
  const index = summary.balance.index
  return `${status} · ${summary.balance.status} (CSI ${index > 0 ? '+' : ''}${index.toFixed(2)})`
}
