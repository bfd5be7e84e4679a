// Straight-line distances between stops: the default when no road-distance server is configured
// (docs/product.md "Schedule"). The great-circle distance times 1.3, a common detour factor for suburban roads, is
// close enough to order a day's stops and to show the day's miles; OSRM gives real road distances when OSRM_URL is set.

export type LatLng = { lat: number; lng: number }

/** The Earth's mean radius (IUGG). */
const EARTH_RADIUS_METERS = 6_371_008.8
/** Roads are longer than the straight line between their ends. */
export const ROAD_FACTOR = 1.3
const METERS_PER_MILE = 1609.344

/** A latitude and longitude that exist. */
export function isLatLng(point: LatLng) {
  return (
    Number.isFinite(point.lat) && Number.isFinite(point.lng) && Math.abs(point.lat) <= 90 && Math.abs(point.lng) <= 180
  )
}

const radians = (degrees: number) => (degrees * Math.PI) / 180

/** The great-circle (haversine) distance in meters. */
export function haversineMeters(a: LatLng, b: LatLng) {
  const sinLat = Math.sin(radians(b.lat - a.lat) / 2)
  const sinLng = Math.sin(radians(b.lng - a.lng) / 2)
  const h = sinLat * sinLat + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * sinLng * sinLng
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** The estimated driving distance in meters: the straight line × ROAD_FACTOR. */
export function straightLineDriveMeters(a: LatLng, b: LatLng) {
  return haversineMeters(a, b) * ROAD_FACTOR
}

/** Every stop's estimated driving distance to every other, in meters (row: from, column: to). */
export function straightLineMatrix(points: readonly LatLng[]) {
  return points.map((from) => points.map((to) => straightLineDriveMeters(from, to)))
}

/** Meters in miles, for display. */
export function metersToMiles(meters: number) {
  return meters / METERS_PER_MILE
}
