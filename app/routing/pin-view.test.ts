// The position pin's map (docs/subsystems.md "Positions"): a dragged pixel gives back the latitude and longitude it
// was drawn from, anywhere a pool can be, and the map is street-level (a few kilometers across).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { haversineMeters } from './distance'
import { fromSvg, inView, moveBy, type PinView, parseLatLng, toSvg } from './pin-view'

// Pools are not at the poles: the flat projection is for latitudes people live at.
const center = fc.record({
  lat: fc.double({ min: -70, max: 70, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
})
const view = fc.record({
  center,
  size: fc.integer({ min: 100, max: 1000 }),
  metersAcross: fc.integer({ min: 500, max: 10_000 }),
})

describe('the pin map projection', () => {
  it('pixel → lat/lng → pixel is a round trip within 1e-6', () => {
    fc.assert(
      fc.property(
        view,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (v, fx, fy) => {
          const pixel = { x: fx * v.size, y: fy * v.size }
          const back = toSvg(v, fromSvg(v, pixel))
          expect(Math.abs(back.x - pixel.x)).toBeLessThan(1e-6)
          expect(Math.abs(back.y - pixel.y)).toBeLessThan(1e-6)
        },
      ),
    )
  })

  it('lat/lng → pixel → lat/lng is a round trip within 1e-6 degrees', () => {
    fc.assert(
      fc.property(
        view,
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        (v, dn, de) => {
          const point = moveBy(v.center, (dn * v.metersAcross) / 2, (de * v.metersAcross) / 2)
          const back = fromSvg(v, toSvg(v, point))
          expect(Math.abs(back.lat - point.lat)).toBeLessThan(1e-6)
          // Across the 180th meridian −180 and 180 are the same place.
          expect(Math.abs(((back.lng - point.lng + 540) % 360) - 180)).toBeLessThan(1e-6)
        },
      ),
    )
  })

  it('shows the meters it says, north up, the center in the middle', () => {
    const v: PinView = { center: { lat: 27.929, lng: -82.4801 }, size: 300, metersAcross: 3000 }
    expect(toSvg(v, v.center)).toEqual({ x: 150, y: 150 })
    const west = fromSvg(v, { x: 0, y: 150 })
    const east = fromSvg(v, { x: 300, y: 150 })
    expect(haversineMeters(west, east)).toBeCloseTo(3000, -1)
    expect(fromSvg(v, { x: 150, y: 0 }).lat).toBeGreaterThan(v.center.lat)
    expect(inView(v, moveBy(v.center, 1400, 0))).toBe(true)
    expect(inView(v, moveBy(v.center, 1600, 0))).toBe(false)
  })

  it('moves by street-level steps', () => {
    fc.assert(
      fc.property(center, fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 }), (c, n, e) => {
        expect(haversineMeters(c, moveBy(c, n, e))).toBeCloseTo(Math.hypot(n, e), -1)
      }),
    )
  })

  it('reads typed boxes: blank or off the Earth is no position', () => {
    expect(parseLatLng('27.929', '-82.4801')).toEqual({ lat: 27.929, lng: -82.4801 })
    expect(parseLatLng('', '-82.48')).toBeNull()
    expect(parseLatLng('91', '0')).toBeNull()
    expect(parseLatLng('north', '0')).toBeNull()
  })
})
