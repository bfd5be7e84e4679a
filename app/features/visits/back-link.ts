// The visit page's back link is named after where it goes (issue 38 item 1, decision 049): "Back to Today" for a
// technician who came from Today, "Back to route" from a technician's day, "Back to customer" from the customer's
// page, "Back to schedule" from the week board, "Back to work order", "Back to item" (an inventory item's history).
// Where the visit was opened from travels in `?from=`; only the staff app's own pages listed here are taken, anything
// else (another site, a script URL, a typo) falls back to the viewer's dashboard. Pure: the page works the link out in
// the browser too, so the copy of the page saved on the phone for offline use names it the same way.

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const DATE = '\\d{4}-\\d{2}-\\d{2}'

export type BackLink = { to: string; label: string }

/** What a viewer's dashboard is called: a technician's is "Today". */
export type HomeName = 'Today' | 'dashboard'

const KNOWN: Array<{ pattern: RegExp; label: (home: HomeName) => string }> = [
  { pattern: /^\/app$/, label: (home) => `Back to ${home}` },
  { pattern: /^\/app\?tab=week$/, label: () => 'Back to this week' },
  { pattern: /^\/app\?tab=overdue$/, label: () => 'Back to overdue visits' },
  { pattern: /^\/app\/dispatch$/, label: () => 'Back to dispatch' },
  { pattern: new RegExp(`^/app/schedule/(${UUID}|unassigned)/${DATE}$`), label: () => 'Back to route' },
  // The week board, its week, technician page and (on a phone) shown row as the board writes them (week-board.tsx).
  {
    pattern: new RegExp(`^/app/schedule(\\?week=${DATE}(&page=[1-9]\\d{0,3})?(&row=[1-9]\\d{0,3})?)?$`),
    label: () => 'Back to schedule',
  },
  { pattern: new RegExp(`^/app/customers/${UUID}$`), label: () => 'Back to customer' },
  { pattern: /^\/app\/visits\?show=(overdue|unassigned-week|skipped-week)$/, label: () => 'Back to the list' },
  { pattern: new RegExp(`^/app/work-orders/${UUID}$`), label: () => 'Back to work order' },
  { pattern: new RegExp(`^/app/inventory/${UUID}$`), label: () => 'Back to item' },
]

/** The back link for a visit page opened from `from` (the `from` search parameter, or null). */
export function backLinkFor(from: string | null, home: HomeName): BackLink {
  if (from) {
    const known = KNOWN.find((entry) => entry.pattern.test(from))
    if (known) return { to: from, label: known.label(home) }
  }
  return { to: '/app', label: `Back to ${home}` }
}

/** The visit page's address, remembering the page it is opened from. */
export function visitHref(visitId: string, from: string) {
  return visitHrefsFrom(from)(visitId)
}

const VISIT_PAGE = new RegExp(`^/app/visits/(${UUID})$`)

/**
 * Where a visit page's own form sends the browser (`location`, the page again after "Save checklist", "Cancel visit"
 * or a move), keeping the `from` the page was opened with (`requestUrl`'s): its back link still says where it goes.
 */
export function keepingFrom(location: string, requestUrl: string) {
  const from = new URL(requestUrl).searchParams.get('from')
  const visitId = VISIT_PAGE.exec(location)?.[1]
  return from && visitId ? visitHref(visitId, from) : location
}

/** `visitHref` for many visits opened from one page (the week board's hundreds): `from` is encoded once. */
export function visitHrefsFrom(from: string) {
  const query = new URLSearchParams({ from }).toString()
  return (visitId: string) => `/app/visits/${encodeURIComponent(visitId)}?${query}`
}
