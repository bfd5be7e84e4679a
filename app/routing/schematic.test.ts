import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { haversineMeters, type LatLng } from './distance'
import { schematicPoints } from './schematic'

const BOX = { width: 400, height: 300, padding: 20 }

describe('the schematic map', () => {
  it('fits stops east and west of each other to the width, north and south to the height, north up', () => {
    expect(
      schematicPoints(
        [
          { lat: 26.1, lng: -80.2 },
          { lat: 26.1, lng: -80.1 },
        ],
        BOX,
      ),
    ).toEqual([
      { x: 20, y: 150 },
      { x: 380, y: 150 },
    ])
    expect(
      schematicPoints(
        [
          { lat: 26.0, lng: -80.1 },
          { lat: 26.2, lng: -80.1 },
        ],
        BOX,
      ),
    ).toEqual([
      { x: 200, y: 280 },
      { x: 200, y: 20 },
    ])
  })

  it('keeps the proportions: a degree of longitude is cos(latitude) of a degree of latitude', () => {
    // At 60° N a degree of longitude is half a degree of latitude: this "square" of degrees is twice as tall as wide.
    const [a, b, c] = schematicPoints(
      [
        { lat: 59.9, lng: 10 },
        { lat: 60.1, lng: 10 },
        { lat: 60.1, lng: 10.2 },
      ],
      BOX,
    )
    const height = Math.abs((b?.y ?? 0) - (a?.y ?? 0))
    const width = Math.abs((c?.x ?? 0) - (b?.x ?? 0))
    expect(height).toBe(260)
    expect(width / height).toBeCloseTo(0.5, 2)
  })

  it('puts one stop, or stops all at one place, in the middle', () => {
    expect(schematicPoints([], BOX)).toEqual([])
    expect(schematicPoints([{ lat: 26.1, lng: -80.1 }], BOX)).toEqual([{ x: 200, y: 150 }])
    const same = { lat: -33.87, lng: 151.21 }
    expect(schematicPoints([same, same, same], BOX)).toEqual(Array(3).fill({ x: 200, y: 150 }))
  })

  it('keeps a route across the 180th meridian together', () => {
    expect(
      schematicPoints(
        [
          { lat: -17.7, lng: 179.9 },
          { lat: -17.7, lng: -179.9 },
        ],
        BOX,
      ),
    ).toEqual([
      { x: 20, y: 150 },
      { x: 380, y: 150 },
    ])
  })

  it('random town-sized routes: inside the padding, touching it, centered, distances in proportion', () => {
    const town = fc.record({
      lat: fc.double({ min: -60, max: 60, noNaN: true }),
      lng: fc.double({ min: -179, max: 179, noNaN: true }),
    })
    // Offsets in millionths of a degree (≈ 0.1 m): what a geocoder or a phone gives.
    const micro = fc.integer({ min: -100_000, max: 100_000 }).map((value) => value / 1e6)
    const offset = fc.record({ lat: micro, lng: micro })
    fc.assert(
      fc.property(town, fc.array(offset, { minLength: 2, maxLength: 30 }), (center, offsets) => {
        const stops: LatLng[] = offsets.map((o) => ({ lat: center.lat + o.lat, lng: center.lng + o.lng }))
        const points = schematicPoints(stops, BOX)
        const xs = points.map((p) => p.x)
        const ys = points.map((p) => p.y)
        const spread = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys))
        fc.pre(spread > 0)
        for (const p of points) {
          expect(p.x).toBeGreaterThanOrEqual(20)
          expect(p.x).toBeLessThanOrEqual(380)
          expect(p.y).toBeGreaterThanOrEqual(20)
          expect(p.y).toBeLessThanOrEqual(280)
        }
        // Fitted: the route spans the inner width or the inner height, and sits in the middle.
        expect(Math.max(Math.max(...xs) - Math.min(...xs) - 360, Math.max(...ys) - Math.min(...ys) - 260)).toBeCloseTo(
          0,
          1,
        )
        expect((Math.max(...xs) + Math.min(...xs)) / 2).toBeCloseTo(200, 1)
        expect((Math.max(...ys) + Math.min(...ys)) / 2).toBeCloseTo(150, 1)
        // Map distance per meter is the same for every pair that is far enough apart to measure.
        const ratios: number[] = []
        for (let i = 1; i < stops.length; i++) {
          const meters = haversineMeters(stops[0] as LatLng, stops[i] as LatLng)
          const svg = Math.hypot((xs[i] ?? 0) - (xs[0] ?? 0), (ys[i] ?? 0) - (ys[0] ?? 0))
          if (svg > 20 && meters > 0) ratios.push(svg / meters)
        }
        if (ratios.length > 1) expect(Math.max(...ratios) / Math.min(...ratios)).toBeLessThan(1.02)
      }),
    )
  })

  it('refuses a viewbox without room and stops without coordinates', () => {
    expect(() => schematicPoints([], { width: 100, height: 40, padding: 20 })).toThrow(RangeError)
    expect(() => schematicPoints([], { width: 0, height: 40, padding: 0 })).toThrow(RangeError)
    expect(() =>
      schematicPoints(
        [
          { lat: 26, lng: -80 },
          { lat: Number.NaN, lng: 0 },
        ],
        BOX,
      ),
    ).toThrow(/Stop 2/)
  })
})
