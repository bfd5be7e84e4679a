// "Arrive between" on the location form (docs/routing.md): two times, both or neither, "From" not after "Until".
import { describe, expect, it } from 'vitest'
import { ServiceLocationSchema } from './customer-schemas'

const parse = (arriveFrom: string, arriveUntil: string) =>
  ServiceLocationSchema.safeParse({ street: '1 Pool Ln', arriveFrom, arriveUntil })

describe('ServiceLocationSchema "Arrive between"', () => {
  it('keeps a window as wall-clock times, and blank as none', () => {
    expect(parse('10:00', '12:00').data).toMatchObject({ arriveFrom: '10:00', arriveUntil: '12:00' })
    // A stored `time` reads with seconds.
    expect(parse('09:30:00', '09:30:00').data).toMatchObject({ arriveFrom: '09:30', arriveUntil: '09:30' })
    expect(parse('', '').data).toMatchObject({ arriveFrom: null, arriveUntil: null })
  })

  it('says at the field when one is missing, reversed or not a time', () => {
    const issue = (from: string, until: string) => {
      const result = parse(from, until)
      return result.success ? null : { path: result.error.issues[0]?.path, message: result.error.issues[0]?.message }
    }
    expect(issue('10:00', '')).toEqual({
      path: ['arriveUntil'],
      message: 'Fill in both “From” and “Until”, or neither.',
    })
    expect(issue('', '12:00')).toEqual({
      path: ['arriveUntil'],
      message: 'Fill in both “From” and “Until”, or neither.',
    })
    expect(issue('12:00', '10:00')).toEqual({ path: ['arriveUntil'], message: '“Until” must not be before “From”.' })
    expect(issue('25:00', '26:00')?.message).toBe('Enter a time such as 10:00 AM.')
  })
})
