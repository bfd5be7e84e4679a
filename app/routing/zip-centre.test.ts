import { describe, expect, it } from 'vitest'
import { zip5, zipCentre } from './zip-centre'

describe('zipCentre', () => {
  it('places a US ZIP at its centre, without any network', () => {
    const point = zipCentre('85254')
    expect(point?.lat).toBeCloseTo(33.6165, 3)
    expect(point?.lng).toBeCloseTo(-111.9554, 3)
  })

  it('accepts ZIP+4 with or without the dash, and spaces around it', () => {
    expect(zipCentre(' 85254-1234 ')).toEqual(zipCentre('85254'))
    expect(zipCentre('852541234')).toEqual(zipCentre('85254'))
    expect(zip5('85254-1234')).toBe('85254')
  })

  it('gives null for no ZIP, a malformed one, or one that does not exist', () => {
    expect(zipCentre(null)).toBeNull()
    expect(zipCentre('')).toBeNull()
    expect(zipCentre('8525')).toBeNull()
    expect(zipCentre('85254-12')).toBeNull()
    expect(zipCentre('SW1A 1AA')).toBeNull()
    expect(zipCentre('00000')).toBeNull()
  })
})
