import { describe, expect, it } from 'vitest'
import { backLinkFor, visitHref, visitHrefsFrom } from './back-link'

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
})
