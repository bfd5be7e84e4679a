// A platform administrator on a company page (issue 16 item 9): the 403 the guards throw with 'company-staff-only'
// is drawn as "This page is for company staff" with the way to the staff area, never as a dispatcher's card.
import { createElement, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, UNSAFE_ErrorResponseImpl as ErrorResponse } from 'react-router'
import { describe, expect, it } from 'vitest'
import { GuardCard } from './guard-card'
import { RouteError } from './route-error'

function draw(Component: () => ReactElement | null, error?: unknown) {
  const Stub = createRoutesStub([{ id: 'page', path: '/', Component, ErrorBoundary: RouteError }])
  const hydrationData = error ? { errors: { page: error } } : undefined
  return renderToString(createElement(Stub, { initialEntries: ['/'], hydrationData })).replaceAll('<!-- -->', '')
}

const NOT_A_DISPATCHER_CARD = ['No access', 'dispatcher dashboard']

describe('the guard card for company staff only', () => {
  it('says the page is for company staff and leads to the staff area', () => {
    const html = draw(() => createElement(GuardCard, { reason: 'company-staff-only' }))
    expect(html).toContain('<h1 class="text-xl font-bold">This page is for company staff</h1>')
    expect(html).toContain('It belongs to a pool company&#x27;s own team.')
    expect(html).toMatch(/<a[^>]*href="\/staff"[^>]*>Go to the staff area<\/a>/)
    for (const text of NOT_A_DISPATCHER_CARD) expect(html).not.toContain(text)
  })

  it('is what the error boundary draws for the guards’ 403', () => {
    const html = draw(() => null, new ErrorResponse(403, 'Forbidden', { reason: 'company-staff-only' }))
    expect(html).toContain('This page is for company staff')
    expect(html).toContain('Go to the staff area')
    for (const text of NOT_A_DISPATCHER_CARD) expect(html).not.toContain(text)
  })
})
