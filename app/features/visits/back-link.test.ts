import { describe, expect, it } from 'vitest'
import { backLinkFor, keepingFrom, visitHref, visitHrefsFrom } from './back-link'

const TECH = '0b6d7a4e-1f6b-4b8e-9a53-2f1e3c4d5e6f'

describe("the visit page's back link", () => {
  it('is named after where it goes', () => {
    expect(backLinkFor(null, 'Today')).toEqual({ to: '/app', label: 'Back to Today' })
    expect(backLinkFor('/app', 'dashboard')).toEqual({ to: '/app', label: 'Back to dashboard' })
    expect(backLinkFor(`/app/schedule/${TECH}/2026-11-29`, 'dashboard')).toEqual({
      to: `/app/schedule/${TECH}/2026-11-29`,
      label: 'Back to route',
    })
    expect(backLinkFor(`/app/customers/${TECH}`, 'dashboard').label).toBe('Back to customer')
    expect(backLinkFor('/app/visits?show=overdue', 'dashboard').label).toBe('Back to the list')
    expect(backLinkFor(`/app/work-orders/${TECH}`, 'dashboard')).toEqual({
      to: `/app/work-orders/${TECH}`,
      label: 'Back to work order',
    })
    expect(backLinkFor(`/app/inventory/${TECH}`, 'dashboard')).toEqual({
      to: `/app/inventory/${TECH}`,
      label: 'Back to item',
    })
    // The week board: its week, technician page and phone row come back with it.
    for (const board of [
      '/app/schedule',
      '/app/schedule?week=2026-11-30',
      '/app/schedule?week=2026-11-30&page=2',
      '/app/schedule?week=2026-11-30&row=3',
      '/app/schedule?week=2026-11-30&page=2&row=3',
    ]) {
      expect(backLinkFor(board, 'dashboard')).toEqual({ to: board, label: 'Back to schedule' })
    }
  })

  it("takes only the staff app's own pages: anything else goes to the dashboard", () => {
    for (const from of [
      'https://evil.example/app',
      '//evil.example/app',
      'javascript:alert(1)',
      '/app/../login',
      `/app/customers/${TECH}/../../x`,
      '/app/schedule/not-a-tech/2026-11-29',
      '/app/schedule?week=2026-11-30&next=https://evil.example',
      '/app/schedule?week=2026-11-30&page=0',
      '/app/schedule?row=2',
      '/app/work-orders/not-an-id',
      `/app/inventory/${TECH}?page=2`,
      '/portal',
      '',
    ]) {
      expect(backLinkFor(from, 'Today')).toEqual({ to: '/app', label: 'Back to Today' })
    }
  })

  it('travels in the address of the visit page', () => {
    const href = visitHref('abc', `/app/customers/${TECH}`)
    const from = new URL(href, 'http://x').searchParams.get('from')
    expect(backLinkFor(from, 'dashboard').label).toBe('Back to customer')
    const fromBoard = visitHrefsFrom('/app/schedule?week=2026-11-30&page=2')
    for (const id of ['abc', 'd/e']) {
      expect(fromBoard(id)).toBe(visitHref(id, '/app/schedule?week=2026-11-30&page=2'))
    }
    expect(new URL(fromBoard('abc'), 'http://x').searchParams.get('from')).toBe('/app/schedule?week=2026-11-30&page=2')
  })

  it("survives the visit page's own forms: the page they send back to keeps its from", () => {
    const opened = `http://x${visitHref(TECH, '/app/schedule?week=2026-11-30')}`
    expect(keepingFrom(`/app/visits/${TECH}`, opened)).toBe(visitHref(TECH, '/app/schedule?week=2026-11-30'))
    // Moved as a new visit ("this and the following"): that one's page, the same from.
    const moved = '1a2b3c4d-0000-4000-8000-000000000001'
    expect(keepingFrom(`/app/visits/${moved}`, opened)).toBe(visitHref(moved, '/app/schedule?week=2026-11-30'))
    // Anything else, or a page opened without one, goes where it was going.
    expect(keepingFrom('/app', opened)).toBe('/app')
    expect(keepingFrom(`/app/visits/${TECH}?x=1`, opened)).toBe(`/app/visits/${TECH}?x=1`)
    expect(keepingFrom(`/app/visits/${TECH}`, `http://x/app/visits/${TECH}`)).toBe(`/app/visits/${TECH}`)
  })
})
