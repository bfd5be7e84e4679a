// A technician's visits as an RFC 5545 calendar for phone calendars to subscribe to (docs/product.md "Schedule"
// "Calendar feed"). `ical-generator` writes the text (escaping, 75-octet folding, CRLF); this module decides what an
// event says. Times are written in UTC ('…Z'): a phone shows them on its own clock, and UTC needs no VTIMEZONE, which
// would otherwise have to be generated from the zone rules (decision 013).
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import { instantAt, type LocalDate } from './local-date'
import { SERVICE_WINDOW_HOURS, type ServiceWindow } from './service-window'

export type FeedVisitStatus = 'open' | 'completed' | 'skipped' | 'canceled'

export type FeedVisit = {
  id: string
  customerName: string
  /** The service location's address on one line. */
  address: string
  date: LocalDate
  serviceWindow: ServiceWindow
  minutesOnSite: number
  status: FeedVisitStatus
  /** The visit's page, absolute. */
  url: string
  /** Access notes or the office's note for the technician. */
  notes?: string | null
}

export type CalendarFeed = {
  /** The calendar's name in the phone's list, e.g. "Pool Bud: Sam's visits". */
  name: string
  /** The company's IANA zone: visit dates are its local dates. */
  timeZone: string
  /** The app's host name, which makes UIDs globally unique (RFC 5545 §3.8.4.7). */
  host: string
  /** When the feed is served: each event's DTSTAMP (with METHOD:PUBLISH, the time the calendar was made). */
  generatedAt: Date
  visits: readonly FeedVisit[]
}

/** How often subscribed calendars should fetch the feed again (REFRESH-INTERVAL / X-PUBLISHED-TTL). */
export const FEED_REFRESH_SECONDS = 60 * 60

const STATUS_TEXT: Record<FeedVisitStatus, string | null> = {
  open: null,
  completed: 'Completed.',
  skipped: 'Skipped.',
  canceled: 'Canceled.',
}

/**
 * The UID of a visit's event: the visit's id, stable for the visit's life, so a moved visit updates the event on
 * the phone instead of adding a second one.
 */
export function visitUid(visitId: string, host: string) {
  return `visit-${visitId}@${host}`
}

/** The `.ics` text of a technician's visits; each visit spans its service window on its date in the company's zone. */
export function calendarFeed(feed: CalendarFeed): string {
  const calendar = ical({
    name: feed.name,
    prodId: { company: 'Pool Bud', product: 'Schedule', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: FEED_REFRESH_SECONDS,
  })
  calendar.x('X-WR-TIMEZONE', feed.timeZone)
  for (const visit of feed.visits) {
    const window = SERVICE_WINDOW_HOURS[visit.serviceWindow]
    const description = [
      `${window.label} window (${window.start}–${window.end}), about ${visit.minutesOnSite} minutes on site.`,
      STATUS_TEXT[visit.status],
      visit.notes?.trim() || null,
      visit.url,
    ].filter((line) => line !== null)
    calendar.createEvent({
      id: visitUid(visit.id, feed.host),
      stamp: feed.generatedAt,
      start: instantAt(visit.date, window.start, feed.timeZone),
      end: instantAt(visit.date, window.end, feed.timeZone),
      summary: `Pool service: ${visit.customerName}`,
      location: visit.address,
      description: description.join('\n'),
      url: visit.url,
      status:
        visit.status === 'skipped' || visit.status === 'canceled'
          ? ICalEventStatus.CANCELLED
          : ICalEventStatus.CONFIRMED,
    })
  }
  // RFC 5545 §3.1 ends every content line with CRLF, the last one too; ical-generator leaves END:VCALENDAR bare.
  const text = calendar.toString()
  return text.endsWith('\r\n') ? text : `${text}\r\n`
}
