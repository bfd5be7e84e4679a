import { describe, expect, it } from 'vitest'
import { zip5, zipCenter } from './zip-center'

describe('zipCenter', () => {
  it('places a US ZIP at its center, without any network', () => {
    const point = zipCenter('85254')
    expect(point?.lat).toBeCloseTo(33.6165, 3)
    expect(point?.lng).toBeCloseTo(-111.9554, 3)
  })

  it('accepts ZIP+4 with or without the dash, and spaces around it', () => {
    expect(zipCenter(' 85254-1234 ')).toEqual(zipCenter('85254'))
    expect(zipCenter('852541234')).toEqual(zipCenter('85254'))
    expect(zip5('85254-1234')).toBe('85254')
  })

  it('gives null for no ZIP, a malformed one, or one that does not exist', () => {
    expect(zipCenter(null)).toBeNull()
    expect(zipCenter('')).toBeNull()
    expect(zipCenter('8525')).toBeNull()
    expect(zipCenter('85254-12')).toBeNull()
    expect(zipCenter('SW1A 1AA')).toBeNull()
    expect(zipCenter('00000')).toBeNull()
  })
})
