// Notice templates (issue #20): placeholders replaced once and only the known ones, customer and technician text
// kept to one plain line (never re-expanded, never markup), and Settings told in words what is wrong.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countSegments } from './sms-segments'
import { DEFAULT_TEMPLATES, NOTICE_EVENTS, PLACEHOLDERS, renderTemplate, templateProblem } from './templates'

describe('renderTemplate', () => {
  it('fills every placeholder of the "On my way" default', () => {
    expect(
      renderTemplate(DEFAULT_TEMPLATES['on-my-way'], {
        company: 'Blue Lagoon Pool Co.',
        technician: 'Tyler Brooks',
        eta: '10:40 AM',
      }),
    ).toBe('Blue Lagoon Pool Co.: Tyler Brooks is on the way to service your pool, arriving about 10:40 AM.')
  })

  it('never expands a placeholder that arrives inside a value, and keeps a value to one line', () => {
    const text = renderTemplate('Hi {customer}, {technician} here.', {
      customer: '{technician}\nline two\u0007',
      technician: 'Maya',
    })
    expect(text).toBe('Hi {technician} line two, Maya here.')
  })

  it('leaves markup as the literal text it is (the email layer escapes it)', () => {
    expect(renderTemplate('{reason}', { reason: '<img src=x onerror=alert(1)>' })).toBe('<img src=x onerror=alert(1)>')
  })

  it('property: the output holds every value’s words, no control characters, and no known placeholder', () => {
    const value = fc.string({ maxLength: 40 })
    fc.assert(
      fc.property(
        fc.record(
          Object.fromEntries(PLACEHOLDERS.map((name) => [name, value])) as Record<string, fc.Arbitrary<string>>,
        ),
        fc.constantFrom(...NOTICE_EVENTS),
        (values, event) => {
          const text = renderTemplate(DEFAULT_TEMPLATES[event], values)
          expect(text).not.toMatch(/\p{Cc}/u)
          for (const name of PLACEHOLDERS) {
            if (!Object.values(values).some((v) => v.includes(`{${name}}`))) expect(text).not.toContain(`{${name}}`)
          }
        },
      ),
    )
  })

  it('each default text fits in two segments with typical values', () => {
    for (const event of NOTICE_EVENTS) {
      const text = renderTemplate(DEFAULT_TEMPLATES[event], {
        company: 'Blue Lagoon Pool Co.',
        technician: 'Tyler Brooks',
        customer: 'Dana Whitfield',
        eta: '10:40 AM',
        reason: 'Locked gate',
        link: 'https://poolbud.example/customer/6f1c2d7e-1b2a-4c3d-9e8f-0a1b2c3d4e5f',
      })
      expect(countSegments(text).segments).toBeLessThanOrEqual(2)
    }
  })
})

describe('templateProblem', () => {
  it('names an unknown placeholder and the ones there are', () => {
    expect(templateProblem('Hi {name}')).toBe(
      '{name} is not a placeholder. Use {customer}, {technician}, {eta}, {reason}, {company}, {link}, {arrival}.',
    )
    expect(templateProblem('   ')).toBe('Write the message, or turn this notice off.')
    expect(templateProblem('x'.repeat(1531))).toBe('Use at most 1530 characters.')
    for (const event of NOTICE_EVENTS) expect(templateProblem(DEFAULT_TEMPLATES[event])).toBeNull()
  })
})
