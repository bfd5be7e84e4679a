// Where a service location is on the map (docs/subsystems.md, "Positions"). Every location with a US ZIP gets a
// position at once and without any network: its ZIP code's center (approximate). Coordinates a person types (or
// drags) are 'manual' and are never replaced; coordinates from an imported file are 'import'. When GEOCODER_URL is
// set, a background pass (`placeZipPositions`) looks 'zip' positions up by street address, one a second, outside
// any transaction, and keeps the answer only if nobody changed the location meanwhile.
import { and, eq, isNull, type SQLWrapper, sql } from 'drizzle-orm'
import { serviceLocations } from '~/db/schema'
import { geocoderUrl } from '~/routing/config.server'
import { geocodeAddress, type Place } from '~/routing/geocoder.server'
import { zipCenter } from '~/routing/zip-center'
import { formatAddress } from '~/utils/address'
import type { PositionSource } from '~/utils/customer-fields'
import { type Database, db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import type { Result } from '~/utils/result'
import { addressColumns } from './customer-columns.server'

/** The position columns of a location, as written together. */
export type PositionColumns = {
  lat: number | null
  lng: number | null
  positionSource: PositionSource | null
  geocodeTriedAt: null
}

/**
 * The position of a location with this ZIP and no coordinates of its own: the ZIP code's center ('zip', waiting for
 * the geocoder if there is one), or none when the ZIP is missing or unknown.
 */
export function zipPosition(postalCode: string | null | undefined): PositionColumns {
  const center = zipCenter(postalCode)
  return center
    ? { lat: center.lat, lng: center.lng, positionSource: 'zip', geocodeTriedAt: null }
    : { lat: null, lng: null, positionSource: null, geocodeTriedAt: null }
}

/** A new location's position: its own coordinates when given (from `source`), else its ZIP center. */
export function newLocationPosition(
  location: { postalCode?: string | null; lat?: number | null; lng?: number | null },
  source: 'manual' | 'import',
): PositionColumns {
  if (location.lat != null && location.lng != null) {
    return { lat: location.lat, lng: location.lng, positionSource: source, geocodeTriedAt: null }
  }
  return zipPosition(location.postalCode)
}

type Stored = {
  lat: number | null
  lng: number | null
  positionSource: PositionSource | null
  street: string
  city: string | null
  state: string | null
  postalCode: string | null
}
type Posted = {
  lat?: number | null
  lng?: number | null
  street?: string
  city?: string | null
  state?: string | null
  postalCode?: string | null
}

/**
 * What an edit does to a stored location's position (undefined: leave it). New coordinates are 'manual'; cleared
 * ones (blank latitude and longitude) hand the location back to its address. A changed address moves a position
 * nobody set by hand to the new ZIP's center (and the geocoder's queue); a manual position stays where it was put.
 */
export function editedPosition(stored: Stored, posted: Posted): PositionColumns | undefined {
  // The form shows a ZIP center as blank ("placed by address"): blank posted back for one is no change.
  const coordinatesPosted =
    posted.lat !== undefined &&
    posted.lng !== undefined &&
    !(posted.lat === null && posted.lng === null && stored.positionSource === 'zip')
  const coordinatesChanged = coordinatesPosted && (posted.lat !== stored.lat || posted.lng !== stored.lng)
  const next = { ...stored, ...definedOnly(posted) }
  if (coordinatesChanged && posted.lat != null && posted.lng != null) {
    return { lat: posted.lat, lng: posted.lng, positionSource: 'manual', geocodeTriedAt: null }
  }
  if (coordinatesChanged) return zipPosition(next.postalCode)
  const addressChanged = (['street', 'city', 'state', 'postalCode'] as const).some(
    (part) => (next[part] ?? null) !== (stored[part] ?? null),
  )
  if (addressChanged && stored.positionSource !== 'manual') return zipPosition(next.postalCode)
  return undefined
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

/** How many of a company's locations still wait at their ZIP center for the geocoder (the import page's progress). */
export async function countWaitingForGeocoder(companyId: string, executor: Pick<Database, 'select'> = db()) {
  const [row] = await executor
    .select({ n: sql<number>`count(*)::int` })
    .from(serviceLocations)
    .where(
      and(
        eq(serviceLocations.companyId, companyId),
        eq(serviceLocations.positionSource, 'zip'),
        isNull(serviceLocations.geocodeTriedAt),
      ),
    )
  return row?.n ?? 0
}

type Geocode = (query: string) => Promise<Result<{ place: Place }>>

/**
 * The background pass (when GEOCODER_URL is set): claims 'zip' positions one at a time (FOR UPDATE SKIP LOCKED, so
 * several instances share the work), looks each street address up outside any transaction (the geocoder spaces
 * requests a second apart), and writes the answer only if the location still has that address and a 'zip' position.
 * A place the geocoder cannot find stays at its ZIP center, marked approximate, for a person to fix; an unreachable
 * geocoder ends the pass and the location is tried again next time. Returns how many it placed.
 */
export async function placeZipPositions({
  limit = 120,
  now = () => new Date(),
  geocode = defaultGeocode(),
}: {
  limit?: number
  now?: () => Date
  geocode?: Geocode | null
} = {}) {
  if (!geocode) return 0
  let placed = 0
  for (let i = 0; i < limit; i++) {
    const claimed = await claimOne(now())
    if (!claimed) break
    const address = formatAddress(claimed)
    const answer = await geocode(address)
    if (!answer.ok) {
      if (answer.code === 'unavailable' || answer.code === 'rate-limited') {
        // Back in the queue for the next pass, unless the location changed meanwhile.
        await db()
          .update(serviceLocations)
          .set({ geocodeTriedAt: null })
          .where(and(stillAsClaimed(claimed), eq(serviceLocations.geocodeTriedAt, claimed.triedAt)))
        logger.warn({ code: answer.code }, 'geocoder unavailable; positions stay at ZIP centers for now')
        break
      }
      continue
    }
    const rows = await db()
      .update(serviceLocations)
      .set({ lat: round6(answer.place.lat), lng: round6(answer.place.lng), positionSource: 'geocoder' })
      .where(stillAsClaimed(claimed))
      .returning({ id: serviceLocations.id })
    placed += rows.length
  }
  return placed
}

function defaultGeocode(): Geocode | null {
  const url = geocoderUrl()
  return url ? (query) => geocodeAddress(query, url) : null
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6

type Claimed = {
  id: string
  companyId: string
  street: string
  city: string | null
  state: string | null
  postalCode: string | null
  triedAt: Date
}

/** Marks one waiting 'zip' position as tried (a short transaction of its own) and returns its address. */
async function claimOne(at: Date): Promise<Claimed | null> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: serviceLocations.id,
        companyId: serviceLocations.companyId,
        ...addressColumns,
      })
      .from(serviceLocations)
      .where(and(eq(serviceLocations.positionSource, 'zip'), isNull(serviceLocations.geocodeTriedAt)))
      .orderBy(serviceLocations.createdAt, serviceLocations.id)
      .limit(1)
      .for('update', { skipLocked: true })
    if (!row) return null
    await tx.update(serviceLocations).set({ geocodeTriedAt: at }).where(eq(serviceLocations.id, row.id))
    return { ...row, triedAt: at }
  })
}

/** The claimed location, still with the same address and still at a 'zip' position (no edit since the claim). */
function stillAsClaimed(claimed: Claimed) {
  const same = (column: SQLWrapper, value: string | null) => sql`${column} is not distinct from ${value}`
  return and(
    eq(serviceLocations.companyId, claimed.companyId),
    eq(serviceLocations.id, claimed.id),
    eq(serviceLocations.positionSource, 'zip'),
    eq(serviceLocations.street, claimed.street),
    same(serviceLocations.city, claimed.city),
    same(serviceLocations.state, claimed.state),
    same(serviceLocations.postalCode, claimed.postalCode),
  )
}
