// The position pin's map on the location form ("Adjust position", docs/subsystems.md "Positions"): a square of a few
// kilometers around the pin, drawn with the same equirectangular projection as the route page's schematic map
// (routing/schematic.ts), plus its inverse so a dragged pixel becomes a latitude and longitude again.
import { isLatLng, type LatLng } from './distance'

export type SvgPoint = { x: number; y: number }
/** A `size` × `size` viewbox showing `metersAcross` meters around `center`, north up. */
export type PinView = { center: LatLng; size: number; metersAcross: number }

/** Meters in a degree of latitude (the Earth's mean radius, as distance.ts). */
export const METERS_PER_DEGREE = (6_371_008.8 * Math.PI) / 180

const shrink = (view: PinView) => Math.cos((view.center.lat * Math.PI) / 180)
/** Viewbox units per degree of latitude. */
const scale = (view: PinView) => (view.size * METERS_PER_DEGREE) / view.metersAcross
/** A longitude difference as the shortest way round, so a view across the 180th meridian stays together. */
const lngOffset = (lng: number, from: number) => ((((lng - from) % 360) + 540) % 360) - 180
/** A longitude back into −180…180. */
const wrapLng = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180

/** Where a point sits in the view (outside the viewbox when it is off the map). */
export function toSvg(view: PinView, point: LatLng): SvgPoint {
  const k = scale(view)
  return {
    x: view.size / 2 + lngOffset(point.lng, view.center.lng) * shrink(view) * k,
    y: view.size / 2 - (point.lat - view.center.lat) * k,
  }
}

/** The latitude and longitude under a point of the view: the inverse of `toSvg`. */
export function fromSvg(view: PinView, point: SvgPoint): LatLng {
  const k = scale(view)
  const lat = view.center.lat + (view.size / 2 - point.y) / k
  return { lat, lng: wrapLng(view.center.lng + (point.x - view.size / 2) / (shrink(view) * k)) }
}

/** Whether a point falls inside the view, `margin` units in from its edges. */
export function inView(view: PinView, point: LatLng, margin = 0) {
  const { x, y } = toSvg(view, point)
  return x >= margin && y >= margin && x <= view.size - margin && y <= view.size - margin
}

/** The point `north` and `east` meters away (a street-level step, so the flat approximation holds). */
export function moveBy(point: LatLng, north: number, east: number): LatLng {
  const lat = Math.max(-90, Math.min(90, point.lat + north / METERS_PER_DEGREE))
  const lng = wrapLng(point.lng + east / (METERS_PER_DEGREE * Math.cos((point.lat * Math.PI) / 180)))
  return { lat, lng }
}

/** A typed latitude and longitude, or null when either box is blank or not a place on Earth. */
export function parseLatLng(lat: string, lng: string): LatLng | null {
  if (lat.trim() === '' || lng.trim() === '') return null
  const point = { lat: Number(lat), lng: Number(lng) }
  return isLatLng(point) ? point : null
}
