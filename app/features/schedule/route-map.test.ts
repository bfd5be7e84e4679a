import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { type MapStop, RouteMap } from './route-map'

const START = { address: '2502 N Rocky Point Dr, Tampa, FL 33607', point: { lat: 27.96611, lng: -82.56222 } }
const stop = (number: number, lat: number, lng: number, open = true): MapStop => ({
  number,
  customerName: `Customer ${number}`,
  point: { lat, lng },
  open,
})

const render = (props: Parameters<typeof RouteMap>[0]) => renderToStaticMarkup(createElement(RouteMap, props))

describe('RouteMap', () => {
  it('draws the start as a square and each stop as a numbered circle, the drive as one line', () => {
    const html = render({
      start: START,
      stops: [stop(1, 27.95, -82.46), stop(2, 27.9, -82.5, false), stop(3, 28.0, -82.7)],
    })
    expect(html).toContain('role="img"')
    expect(html).toContain('aria-label="Map of 3 stops and the start"')
    expect(html.match(/<rect /g)).toHaveLength(1)
    expect(html.match(/<circle /g)).toHaveLength(3)
    expect(html.match(/<text [^>]*>(\d+)<\/text>/g)?.map((text) => text.replace(/<[^>]+>/g, ''))).toEqual([
      '1',
      '2',
      '3',
    ])
    // The line joins the start and the open stops only (stop 2 is finished): three points.
    const line = html.match(/<polyline points="([^"]+)"/)?.[1] ?? ''
    expect(line.split(' ')).toHaveLength(3)
    // Nothing is fetched: no image, no external URL.
    expect(html).not.toMatch(/<image|href=|https?:/)
  })

  it('draws the end as an open square and closes the line there: back at the yard by default', () => {
    const html = render({ start: START, end: START, stops: [stop(1, 27.95, -82.46), stop(2, 28.0, -82.7)] })
    expect(html).toContain('aria-label="Map of 2 stops and the start and the end"')
    expect(html.match(/<rect /g)).toHaveLength(2)
    expect(html).toContain(`<title>End: ${START.address}</title>`)
    // Start, the two stops, and back to the start's place.
    const line = (html.match(/<polyline points="([^"]+)"/)?.[1] ?? '').split(' ')
    expect(line).toHaveLength(4)
    expect(line[3]).toBe(line[0])
  })

  it('leaves out stops without a place, and says so when none has one', () => {
    const html = render({ start: null, stops: [stop(1, 27.95, -82.46), { ...stop(2, 0, 0), point: null }] })
    expect(html).toContain('aria-label="Map of 1 stop"')
    expect(html).not.toContain('<polyline')
    expect(render({ start: START, stops: [{ ...stop(1, 0, 0), point: null }] })).toContain('there is no map')
  })
})
