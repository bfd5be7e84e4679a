// The one pager, as the dispatcher dashboard's unassigned list draws it: its own parameter, words and summary line.
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { Pager } from './pager'

function draw(Component: () => ReturnType<typeof Pager>, url: string) {
  const Stub = createRoutesStub([{ path: '/app', Component }])
  return renderToString(createElement(Stub, { initialEntries: [url] })).replaceAll('<!-- -->', '')
}

describe('Pager', () => {
  it('says "Page 2 of 3" by default', () => {
    const html = draw(() => createElement(Pager, { page: 2, pageCount: 3, label: 'Customer pages' }), '/app?page=2')
    expect(html).toContain('>Page 2 of 3</span>')
    expect(html).toMatch(/href="\/app"[^>]*>Previous</)
    expect(html).toMatch(/href="\/app\?page=3"[^>]*>Next</)
  })

  it('with a summary, its param and words, keeping the other parameters', () => {
    const html = draw(
      () =>
        createElement(Pager, {
          page: 2,
          pageCount: 3,
          label: 'Unassigned visits pages',
          param: 'unassigned',
          previousLabel: '← Earlier',
          nextLabel: 'Later →',
          summary: 'Showing 11–20 of 22 unassigned visits.',
        }),
      '/app?tab=x&unassigned=2',
    )
    expect(html).toContain('aria-label="Unassigned visits pages"')
    expect(html).toContain('>Showing 11–20 of 22 unassigned visits.</span>')
    expect(html).not.toContain('Page 2 of 3')
    expect(html).toMatch(/href="\/app\?tab=x"[^>]*>← Earlier</)
    expect(html).toMatch(/href="\/app\?tab=x&amp;unassigned=3"[^>]*>Later →</)
  })
})
