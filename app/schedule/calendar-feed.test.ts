import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { type CalendarFeed, calendarFeed, type FeedVisit, visitUid } from './calendar-feed'
import { instantAt } from './local-date'
import { SERVICE_WINDOW_HOURS } from './service-window'

const base: FeedVisit = {
  id: '0b7e6a1c-2f4d-4f8e-9a51-3c2d1e0f9a8b',
  customerName: 'Alvarez, Maria; Jr.',
  address: '12 Palm Way, Fort Lauderdale, FL 33301',
  date: '2026-03-07',
  serviceWindow: 'morning',
  minutesOnSite: 30,
  status: 'open',
  url: 'https://pool.example.com/app/visits/0b7e6a1c-2f4d-4f8e-9a51-3c2d1e0f9a8b',
  notes: 'Gate code 4411; side gate, by the shed.\nDog: Rex, friendly.\r\nBackslash \\ too',
}

const visits: FeedVisit[] = [
  base,
  // The day New York's clocks go forward: noon is then 16:00 UTC, not 17:00.
  {
    ...base,
    id: 'b2',
    customerName: 'Ng',
    date: '2026-03-08',
    serviceWindow: 'afternoon',
    status: 'completed',
    notes: null,
  },
  { ...base, id: 'b3', customerName: 'Okafor', date: '2026-03-09', serviceWindow: 'flexible', status: 'skipped' },
  { ...base, id: 'b4', customerName: 'Østergård Ærø', date: '2026-11-01', status: 'canceled', notes: 'ø'.repeat(120) },
]

const feed: CalendarFeed = {
  name: 'Pool Bud: Sam Rivera’s visits',
  timeZone: 'America/New_York',
  host: 'pool.example.com',
  generatedAt: new Date('2026-03-06T14:15:16.789Z'),
  visits,
}

describe('the technician’s calendar feed', () => {
  const text = calendarFeed(feed)

  it('is CRLF-terminated lines of at most 75 octets, folded without splitting a character', () => {
    const bytes = Buffer.from(text, 'utf8')
    expect(text.endsWith('\r\n')).toBe(true)
    const lines = text.slice(0, -2).split('\r\n')
    for (const line of lines) {
      expect(line).not.toMatch(/[\r\n]/)
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75)
    }
    // Decoding each line's bytes strictly proves no fold fell inside a multi-byte character.
    let offset = 0
    const decoder = new TextDecoder('utf-8', { fatal: true })
    for (const line of lines) {
      const length = Buffer.byteLength(line, 'utf8')
      expect(() => decoder.decode(bytes.subarray(offset, offset + length))).not.toThrow()
      offset += length + 2
    }
    // The long notes really were folded.
    expect(lines.some((line) => line.startsWith(' '))).toBe(true)
  })

  it('parses with an independent parser into one event per visit, with the escaped text intact', () => {
    const calendar = new ICAL.Component(ICAL.parse(text))
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0')
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Pool Bud//Schedule//EN')
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH')
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Pool Bud: Sam Rivera’s visits')
    expect(calendar.getAllSubcomponents('vtimezone')).toEqual([])
    const events = calendar.getAllSubcomponents('vevent')
    expect(events).toHaveLength(visits.length)

    visits.forEach((visit, i) => {
      const event = events[i] as ICAL.Component
      for (const required of ['uid', 'dtstamp', 'dtstart', 'dtend']) {
        expect(event.getAllProperties(required)).toHaveLength(1)
      }
      expect(event.getFirstPropertyValue('uid')).toBe(`visit-${visit.id}@pool.example.com`)
      expect((event.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate()).toEqual(new Date('2026-03-06T14:15:16Z'))
      const hours = SERVICE_WINDOW_HOURS[visit.serviceWindow]
      const start = event.getFirstPropertyValue('dtstart') as ICAL.Time
      expect(start.zone).toBe(ICAL.Timezone.utcTimezone)
      expect(start.toJSDate()).toEqual(instantAt(visit.date, hours.start, feed.timeZone))
      expect((event.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate()).toEqual(
        instantAt(visit.date, hours.end, feed.timeZone),
      )
      expect(event.getFirstPropertyValue('summary')).toBe(`Pool service: ${visit.customerName}`)
      expect(event.getFirstPropertyValue('location')).toBe(visit.address)
      expect(event.getFirstPropertyValue('url')).toBe(visit.url)
      const description = String(event.getFirstPropertyValue('description'))
      expect(description).toContain(`about ${visit.minutesOnSite} minutes on site`)
      expect(description).toContain(visit.url)
      if (visit.notes) expect(description).toContain(visit.notes.replace(/\r\n/g, '\n'))
      const canceled = visit.status === 'skipped' || visit.status === 'canceled'
      expect(event.getFirstPropertyValue('status')).toBe(canceled ? 'CANCELLED' : 'CONFIRMED')
    })
  })

  it('writes times in UTC on the company’s wall clock across the DST change', () => {
    expect(text).toContain('DTSTART:20260307T130000Z\r\n')
    expect(text).toContain('DTSTART:20260308T160000Z\r\n')
    expect(text).toContain('DTEND:20260308T210000Z\r\n')
    // 1 November 2026, clocks back in New York: 08:00 EST.
    expect(text).toContain('DTSTART:20261101T130000Z\r\n')
    expect(text).toContain('DTSTAMP:20260306T141516Z\r\n')
  })

  it('escapes commas, semicolons, backslashes and newlines in text', () => {
    expect(text).toContain('SUMMARY:Pool service: Alvarez\\, Maria\\; Jr.\r\n')
    expect(text).toContain('LOCATION:12 Palm Way\\, Fort Lauderdale\\, FL 33301\r\n')
    const unfolded = text.replace(/\r\n /g, '')
    expect(unfolded).toContain(
      'Gate code 4411\\; side gate\\, by the shed.\\nDog: Rex\\, friendly.\\nBackslash \\\\ too',
    )
  })

  it('keeps each visit’s UID when the visit moves or the feed is made again, so phones update the event', () => {
    const moved = calendarFeed({
      ...feed,
      generatedAt: new Date('2026-03-07T09:00:00Z'),
      visits: [{ ...base, date: '2026-03-10', serviceWindow: 'afternoon' }],
    })
    const event = new ICAL.Component(ICAL.parse(moved)).getFirstSubcomponent('vevent') as ICAL.Component
    expect(event.getFirstPropertyValue('uid')).toBe(visitUid(base.id, feed.host))
    expect(event.getFirstPropertyValue('uid')).toBe(
      (new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent') as ICAL.Component).getFirstPropertyValue(
        'uid',
      ),
    )
    expect(calendarFeed(feed)).toBe(text)
  })

  it('is a valid empty calendar for a technician with no visits', () => {
    const empty = new ICAL.Component(ICAL.parse(calendarFeed({ ...feed, visits: [] })))
    expect(empty.name).toBe('vcalendar')
    expect(empty.getAllSubcomponents('vevent')).toEqual([])
  })
})
