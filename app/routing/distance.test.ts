import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  haversineMeters,
  isLatLng,
  type LatLng,
  metersToMiles,
  ROAD_FACTOR,
  straightLineDriveMeters,
  straightLineMatrix,
} from './distance'

const latLng = fc.record({
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
})

describe('straight-line distances', () => {
  it('measure the great circle on the mean Earth (6,371,008.8 m)', () => {
    // One degree along a meridian, and along the equator.
    expect(haversineMeters({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111_195.08, 1)
    expect(haversineMeters({ lat: 0, lng: 10 }, { lat: 0, lng: 11 })).toBeCloseTo(111_195.08, 1)
    // Equator to pole, and to the antipode.
    expect(haversineMeters({ lat: 0, lng: 0 }, { lat: 90, lng: 0 })).toBeCloseTo(10_007_557.2, 0)
    expect(haversineMeters({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(20_015_114.4, 0)
    // Across the 180th meridian, the short way.
    expect(haversineMeters({ lat: 0, lng: 179.5 }, { lat: 0, lng: -179.5 })).toBeCloseTo(111_195.08, 1)
  })

  it('estimate driving as the straight line × 1.3, in meters and in miles', () => {
    expect(ROAD_FACTOR).toBe(1.3)
    const a = { lat: 26.1224, lng: -80.1373 }
    const b = { lat: 26.1901, lng: -80.0965 }
    expect(straightLineDriveMeters(a, b)).toBeCloseTo(haversineMeters(a, b) * 1.3, 6)
    expect(metersToMiles(1609.344)).toBe(1)
    expect(metersToMiles(10_000)).toBeCloseTo(6.2137, 4)
  })

  it('are zero to the same place, the same both ways, and never shorter than a detour is long', () => {
    fc.assert(
      fc.property(latLng, latLng, latLng, (a, b, c) => {
        expect(haversineMeters(a, a)).toBe(0)
        expect(haversineMeters(a, b)).toBeCloseTo(haversineMeters(b, a), 6)
        // Near the antipode asin(√h) loses ≈ 0.1 m to rounding: a meter is far inside what a route cares about.
        expect(haversineMeters(a, c)).toBeLessThanOrEqual(haversineMeters(a, b) + haversineMeters(b, c) + 1)
        expect(haversineMeters(a, b)).toBeLessThanOrEqual(Math.PI * 6_371_008.8 + 1e-6)
      }),
    )
  })

  it('make a matrix from every stop to every other', () => {
    const stops: LatLng[] = [
      { lat: 26.1224, lng: -80.1373 },
      { lat: 26.1901, lng: -80.0965 },
      { lat: 26.0112, lng: -80.1495 },
    ]
    const matrix = straightLineMatrix(stops)
    expect(matrix).toHaveLength(3)
    expect(matrix[0]?.[0]).toBe(0)
    expect(matrix[2]?.[1]).toBe(straightLineDriveMeters(stops[2] as LatLng, stops[1] as LatLng))
    expect(straightLineMatrix([])).toEqual([])
  })

  it('know which coordinates exist', () => {
    expect(isLatLng({ lat: 90, lng: -180 })).toBe(true)
    expect(isLatLng({ lat: -90, lng: 180 })).toBe(true)
    expect(isLatLng({ lat: 90.0001, lng: 0 })).toBe(false)
    expect(isLatLng({ lat: 0, lng: 180.5 })).toBe(false)
    expect(isLatLng({ lat: Number.NaN, lng: 0 })).toBe(false)
    expect(isLatLng({ lat: 0, lng: Number.POSITIVE_INFINITY })).toBe(false)
  })
})
