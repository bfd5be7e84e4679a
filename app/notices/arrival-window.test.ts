// The arrival window customers are told: two hours around the ETA, inside the stop's own window.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { arrivalSentence, arrivalWindow, arrivingText } from './arrival-window'
import { DEFAULT_TEMPLATES, renderTemplate } from './templates'

const at = (clock: string) => {
  const [h, m] = clock.split(':').map(Number)
  return (h ?? 0) * 60 + (m ?? 0)
}

describe('arrivalWindow', () => {
  it('is two hours around the ETA, on the quarter hour', () => {
    expect(arrivalSentence(arrivalWindow(at('11:00')))).toBe(
      'Your technician should arrive between 10:00 AM and 12:00 PM.',
    )
    expect(arrivalSentence(arrivalWindow(at('10:38')))).toBe(
      'Your technician should arrive between 9:45 AM and 11:45 AM.',
    )
    expect(arrivingText(arrivalWindow(at('13:07')))).toBe('Arriving between 12:00 PM and 2:00 PM')
  })

  it('stays inside the location’s “Arrive between”', () => {
    const window = arrivalWindow(at('10:15'), { open: at('10:00'), close: at('14:00') })
    expect(arrivalSentence(window)).toBe('Your technician should arrive between 10:00 AM and 11:15 AM.')
    expect(arrivalSentence(arrivalWindow(at('13:30'), { open: at('10:00'), close: at('14:00') }))).toBe(
      'Your technician should arrive between 12:30 PM and 2:00 PM.',
    )
  })

  it('is the appointment’s own time for a fixed appointment', () => {
    expect(arrivalSentence(arrivalWindow(at('09:00'), { open: at('09:00'), close: at('09:00') }))).toBe(
      'Your technician should arrive at 9:00 AM.',
    )
  })

  it('keeps the two hours around a late ETA rather than a window the route misses', () => {
    expect(arrivalSentence(arrivalWindow(at('15:00'), { open: at('08:00'), close: at('12:00') }))).toBe(
      'Your technician should arrive between 2:00 PM and 4:00 PM.',
    )
  })

  it('always holds the rounded ETA, lasts at most two hours and stays in the stop’s window when it can', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 60, max: 1365 }),
        fc.option(fc.tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 600 }))),
        (eta, stop) => {
          const open = stop ? stop[0] : undefined
          const close = stop ? Math.min(1439, stop[0] + stop[1]) : undefined
          const window = arrivalWindow(eta, { open, close })
          expect(window.from).toBeLessThanOrEqual(window.until)
          expect(window.until - window.from).toBeLessThanOrEqual(120)
          const center = Math.round(eta / 15) * 15
          const overlaps = open === undefined || close === undefined || (open <= center + 60 && close >= center - 60)
          if (overlaps && open !== undefined && close !== undefined) {
            expect(window.from).toBeGreaterThanOrEqual(open)
            expect(window.until).toBeLessThanOrEqual(close)
          }
          if (open === undefined) expect([window.from, window.until]).toEqual([center - 60, center + 60])
        },
      ),
    )
  })
})

describe('the reminder’s wording', () => {
  it('gives the window when there is an ETA, and today’s wording without', () => {
    const values = { company: 'Blue Lagoon', technician: 'Tyler' }
    expect(renderTemplate(DEFAULT_TEMPLATES['visit-reminder'], values)).toBe(
      'Blue Lagoon: Tyler will service your pool tomorrow. Please leave the gate unlocked.',
    )
    expect(
      renderTemplate(DEFAULT_TEMPLATES['visit-reminder'], {
        ...values,
        arrival: arrivalSentence(arrivalWindow(at('11:00'))),
      }),
    ).toBe(
      'Blue Lagoon: Tyler will service your pool tomorrow. Your technician should arrive between 10:00 AM and 12:00 PM. Please leave the gate unlocked.',
    )
  })
})
