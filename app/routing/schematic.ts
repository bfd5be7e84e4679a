// The route page's schematic map: stops (lat/lng) as points of an SVG viewbox. An equirectangular projection around
// the stops' center is exact enough for a town-sized route and needs no map data; north is up and distances keep
// their proportions in both directions.
import { isLatLng, type LatLng } from './distance'

export type Viewbox = { width: number; height: number; padding: number }
export type SvgPoint = { x: number; y: number }

/** Each stop's position in a `width` × `height` viewbox, the route scaled to fit inside the padding and centered. */
export function schematicPoints(stops: readonly LatLng[], { width, height, padding }: Viewbox): SvgPoint[] {
  if (!(width > 0 && height > 0 && padding >= 0 && 2 * padding < Math.min(width, height))) {
    throw new RangeError(`A ${width} × ${height} viewbox has no room inside a padding of ${padding}`)
  }
  const invalid = stops.findIndex((stop) => !isLatLng(stop))
  if (invalid !== -1) throw new RangeError(`Stop ${invalid + 1} has no valid latitude and longitude`)
  const [first] = stops
  if (!first) return []
  // Longitudes as the shortest way round from the first stop, so a route across the 180th meridian stays together.
  const longitudes = stops.map((stop) => first.lng + ((((stop.lng - first.lng) % 360) + 540) % 360) - 180)
  const latitudes = stops.map((stop) => stop.lat)
  const centerLat = (Math.min(...latitudes) + Math.max(...latitudes)) / 2
  const centerLng = (Math.min(...longitudes) + Math.max(...longitudes)) / 2
  // A degree of longitude is cos(latitude) of a degree of latitude.
  const shrink = Math.cos((centerLat * Math.PI) / 180)
  const spanX = (Math.max(...longitudes) - Math.min(...longitudes)) * shrink
  const spanY = Math.max(...latitudes) - Math.min(...latitudes)
  const scales = [
    spanX > 0 ? (width - 2 * padding) / spanX : Infinity,
    spanY > 0 ? (height - 2 * padding) / spanY : Infinity,
  ]
  // One place (or every stop at the same place) sits in the middle.
  const scale = Math.min(...scales)
  const fit = Number.isFinite(scale) ? scale : 0
  const round = (value: number) => Math.round(value * 100) / 100
  return stops.map((stop, index) => ({
    x: round(width / 2 + ((longitudes[index] as number) - centerLng) * shrink * fit),
    y: round(height / 2 - (stop.lat - centerLat) * fit),
  }))
}
