// The position pin's map (docs/subsystems.md "Positions"): a dragged pixel gives back the latitude and longitude it
// was drawn from, anywhere a pool can be, and the map is street-level (a few kilometres across).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { haversineMetres } from './distance'
import { fromSvg, inView, moveBy, type PinView, parseLatLng, toSvg } from './pin-view'

// Pools are not at the poles: the flat projection is for latitudes people live at.
const centre = fc.record({
  lat: fc.double({ min: -70, max: 70, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
})
const view = fc.record({
  centre,
  size: fc.integer({ min: 100, max: 1000 }),
  metresAcross: fc.integer({ min: 500, max: 10_000 }),
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
          const point = moveBy(v.centre, (dn * v.metresAcross) / 2, (de * v.metresAcross) / 2)
          const back = fromSvg(v, toSvg(v, point))
          expect(Math.abs(back.lat - point.lat)).toBeLessThan(1e-6)
          // Across the 180th meridian −180 and 180 are the same place.
          expect(Math.abs(((back.lng - point.lng + 540) % 360) - 180)).toBeLessThan(1e-6)
        },
      ),
    )
  })

  it('shows the metres it says, north up, the centre in the middle', () => {
    const v: PinView = { centre: { lat: 27.929, lng: -82.4801 }, size: 300, metresAcross: 3000 }
    expect(toSvg(v, v.centre)).toEqual({ x: 150, y: 150 })
    const west = fromSvg(v, { x: 0, y: 150 })
    const east = fromSvg(v, { x: 300, y: 150 })
    expect(haversineMetres(west, east)).toBeCloseTo(3000, -1)
    expect(fromSvg(v, { x: 150, y: 0 }).lat).toBeGreaterThan(v.centre.lat)
    expect(inView(v, moveBy(v.centre, 1400, 0))).toBe(true)
    expect(inView(v, moveBy(v.centre, 1600, 0))).toBe(false)
  })

  it('moves by street-level steps', () => {
    fc.assert(
      fc.property(centre, fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 }), (c, n, e) => {
        expect(haversineMetres(c, moveBy(c, n, e))).toBeCloseTo(Math.hypot(n, e), -1)
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
