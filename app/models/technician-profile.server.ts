// Team → technician (docs/profit.md, docs/routing.md): a technician's day — start and end address, working hours —
// and what they cost and are paid (decision 043). Addresses are placed as locations are (docs/subsystems.md,
// "Positions"): by the geocoder when GEOCODER_URL is set, else at the ZIP code's center, marked approximate. An
// address that did not change keeps its position; a blank one is the company's start address (routing's default).
import { and, eq } from 'drizzle-orm'
import { companies, type PayType, profiles } from '~/db/schema'
import { geocoderUrl } from '~/routing/config.server'
import { type Geocode, geocodeAddress } from '~/routing/geocoder.server'
import { zipCenter } from '~/routing/zip-center'
import { db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { failure, type Result, success } from '~/utils/result'

export const UNPLACED_ADDRESS =
  'This address could not be placed on the map: end it with its ZIP code, like “2502 N Rocky Point Dr, Tampa, FL 33607”.'

const COLUMNS = {
  id: profiles.id,
  fullName: profiles.fullName,
  email: profiles.email,
  startAddress: profiles.startAddress,
  startLat: profiles.startLat,
  startLng: profiles.startLng,
  startApproximate: profiles.startApproximate,
  endAddress: profiles.endAddress,
  endLat: profiles.endLat,
  endLng: profiles.endLng,
  endApproximate: profiles.endApproximate,
  workStarts: profiles.workStarts,
  workEnds: profiles.workEnds,
  hourlyCostCents: profiles.hourlyCostCents,
  payType: profiles.payType,
  hourlyRateCents: profiles.hourlyRateCents,
  perStopRateCents: profiles.perStopRateCents,
  skippedVisitExtraCents: profiles.skippedVisitExtraCents,
}

/** A technician of the company ("tech" role, active or not) by id. */
function technicianOf(companyId: string, memberId: string) {
  return and(eq(profiles.companyId, companyId), eq(profiles.id, memberId), eq(profiles.role, 'tech'))
}

/**
 * The technician's page: their fields and the company's start address (the blank addresses' placeholder). Null when
 * `memberId` is not a technician of this company (another company's member, an office member, nobody): a 404.
 */
export async function getTechnicianProfile(companyId: string, memberId: string) {
  const [row] = await db()
    .select({ ...COLUMNS, companyStartAddress: companies.startAddress })
    .from(profiles)
    .innerJoin(companies, eq(companies.id, profiles.companyId))
    .where(technicianOf(companyId, memberId))
    .limit(1)
  return row ?? null
}

export type TechnicianUpdate = {
  startAddress: string | null
  endAddress: string | null
  /** "HH:MM" wall-clock, or null for the default hours. */
  workStarts: string | null
  workEnds: string | null
  hourlyCostCents: number | null
  payType?: PayType
  hourlyRateCents: number | null
  perStopRateCents: number | null
  skippedVisitExtraCents: number | null
}

type Position = { lat: number | null; lng: number | null; approximate: boolean }

/** The last US ZIP in an address written on one line ("…, Tampa, FL 33607" or "…33607-1234"). */
export function zipInAddress(address: string) {
  const matches = [...address.matchAll(/\b(\d{5})(?:-\d{4})?\b/g)]
  return matches.at(-1)?.[1] ?? null
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6

/**
 * Where an address is: the geocoder's answer (exact) when one is configured and finds it, else its ZIP code's center
 * (approximate); null when neither places it. No address: no position (routing then uses the company's).
 */
export async function placeAddress(address: string | null, geocode: Geocode | null): Promise<Position | null> {
  if (!address) return { lat: null, lng: null, approximate: false }
  if (geocode) {
    const answer = await geocode(address)
    if (answer.ok) return { lat: round6(answer.place.lat), lng: round6(answer.place.lng), approximate: false }
    logger.warn({ code: answer.code }, 'geocoder did not place a technician address; trying its ZIP center')
  }
  const center = zipCenter(zipInAddress(address))
  return center ? { lat: center.lat, lng: center.lng, approximate: true } : null
}

function defaultGeocode(): Geocode | null {
  const url = geocoderUrl()
  return url ? (query) => geocodeAddress(query, url) : null
}

/**
 * Saves Team → technician's form. A changed address is placed first (outside any transaction: the geocoder may take
 * a second); one that cannot be placed is refused at its field and nothing is saved. Pay fields that do not belong
 * to the chosen pay type are cleared, so a "Per stop" technician has no stale hourly rate.
 */
export async function updateTechnicianProfile(
  companyId: string,
  memberId: string,
  update: TechnicianUpdate,
  geocode: Geocode | null = defaultGeocode(),
): Promise<Result> {
  const stored = await getTechnicianProfile(companyId, memberId)
  if (!stored) return failure('not-found', 'No such technician.')
  const positions: Record<string, Position> = {}
  for (const end of ['start', 'end'] as const) {
    const address = update[`${end}Address`]
    if (address === stored[`${end}Address`]) continue
    const placed = await placeAddress(address, geocode)
    if (!placed) return failure('invalid', UNPLACED_ADDRESS, `${end}Address`)
    positions[end] = placed
  }
  const payType = update.payType ?? null
  const rows = await db()
    .update(profiles)
    .set({
      startAddress: update.startAddress,
      endAddress: update.endAddress,
      ...(positions.start
        ? {
            startLat: positions.start.lat,
            startLng: positions.start.lng,
            startApproximate: positions.start.approximate,
          }
        : {}),
      ...(positions.end
        ? { endLat: positions.end.lat, endLng: positions.end.lng, endApproximate: positions.end.approximate }
        : {}),
      workStarts: update.workStarts,
      workEnds: update.workEnds,
      hourlyCostCents: update.hourlyCostCents,
      payType,
      hourlyRateCents: payType === 'hourly' ? update.hourlyRateCents : null,
      perStopRateCents: payType === 'per-stop' ? update.perStopRateCents : null,
      skippedVisitExtraCents: payType === 'per-stop' ? update.skippedVisitExtraCents : null,
    })
    .where(technicianOf(companyId, memberId))
    .returning({ id: profiles.id })
  return rows.length ? success({}) : failure('not-found', 'No such technician.')
}
