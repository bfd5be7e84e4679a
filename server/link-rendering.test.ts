// Links rendered on the server leave out what only a browser uses (our patch of React Router, decisions 076 and 077):
// the click handler's hooks and the view transition's, each of which resolved the link's path again, and prefetching's
// and the ref's (a server render runs no effect and attaches no ref); the anchor gets only the props that have a value.
// What the markup says — every href, target, "aria-current", "active", "data-discover" — must be what React Router
// renders with them, for any link on any page.
// The reference is the same build rendering with a `document` present, where the patch takes React Router's own path.
import fc from 'fast-check'
import { createElement as h } from 'react'
import { renderToString } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  Link,
  NavLink,
  Outlet,
  type RelativeRoutingType,
  StaticRouterProvider,
  type To,
} from 'react-router'
import { describe, expect, it } from 'vitest'

type LinkSpec = {
  nav: boolean
  to: To
  relative?: RelativeRoutingType
  end: boolean
  prefetch?: 'none' | 'intent' | 'render' | 'viewport'
  reloadDocument?: boolean
  discover?: 'render' | 'none'
  target?: string
  className?: string
  title?: string
  style?: { color: string }
}

const holder = () => h(Outlet)

/** The links the page below shows (set before each render). */
let shown: LinkSpec[] = []

function Page() {
  return h(
    'nav',
    null,
    shown.map(({ nav, end, ...props }, index) =>
      nav
        ? h(NavLink, { key: index, end, ...props }, `link ${index}`)
        : h(Link, { key: index, ...props }, `link ${index}`),
    ),
  )
}

const routes = [
  {
    path: '/',
    Component: holder,
    children: [
      { path: 'about', Component: Page },
      {
        path: 'app',
        Component: holder,
        children: [
          { index: true, Component: Page },
          { path: 'customers', Component: Page },
          { path: 'customers/:id', Component: Page },
          { path: 'customers/:id/visits/*', Component: Page },
        ],
      },
    ],
  },
]

async function render(pathname: string, links: LinkSpec[], withDocument: boolean) {
  shown = links
  const handler = createStaticHandler(routes)
  const context = await handler.query(new Request(`http://pool.test${pathname}`))
  if (context instanceof Response) throw new Error('no page')
  const router = createStaticRouter(handler.dataRoutes, context)
  const global = globalThis as { document?: unknown }
  if (withDocument) global.document = {}
  try {
    return renderToString(h(StaticRouterProvider, { router, context, hydrate: false }))
  } finally {
    delete global.document
  }
}

const segment = fc.constantFrom('app', 'customers', '7', 'visits', 'about', '..', '.', 'Customers', '')
const pathText = fc
  .tuple(fc.boolean(), fc.array(segment, { maxLength: 4 }), fc.boolean())
  .map(([absolute, parts, slash]) => `${absolute ? '/' : ''}${parts.join('/')}${slash ? '/' : ''}`)
const search = fc.constantFrom('', '?q=pool', '?page=2&q=a%20b')
const hash = fc.constantFrom('', '#history', '#')
const to: fc.Arbitrary<To> = fc.oneof(
  fc.tuple(pathText, search, hash).map(([path, query, fragment]) => `${path}${query}${fragment}`),
  fc.record({ pathname: pathText, search, hash }, { requiredKeys: [] }),
  // Another site's address, one without its scheme, an email address.
  fc.constantFrom('https://example.com/docs?x=1', '//example.com/y', 'mailto:office@pool.test'),
)
const link: fc.Arbitrary<LinkSpec> = fc.record(
  {
    nav: fc.boolean(),
    to,
    relative: fc.constantFrom<RelativeRoutingType>('route', 'path'),
    end: fc.boolean(),
    prefetch: fc.constantFrom('none', 'intent', 'render', 'viewport'),
    reloadDocument: fc.boolean(),
    discover: fc.constantFrom('render', 'none'),
    target: fc.constantFrom('_blank', '_self'),
    className: fc.constantFrom('text-brand-700', ''),
    // Props given as undefined render nothing (the server's anchor leaves them out).
    title: fc.constantFrom(undefined, 'Open the customer'),
    style: fc.constantFrom(undefined, { color: 'teal' }),
  },
  { requiredKeys: ['nav', 'to', 'end'] },
)
const page = fc.constantFrom('/about', '/app', '/app/customers', '/app/customers/7', '/app/customers/7/visits/3')

describe('links rendered on the server', () => {
  it('render the markup React Router renders with a document, for any link on any page (property)', async () => {
    await fc.assert(
      fc.asyncProperty(page, fc.array(link, { minLength: 1, maxLength: 6 }), async (pathname, links) => {
        expect(await render(pathname, links, false)).toBe(await render(pathname, links, true))
      }),
      { numRuns: 300 },
    )
  })

  it('resolve each link to its href, and mark the current page', async () => {
    const html = await render(
      '/app/customers/7',
      [
        { nav: true, to: '/app/customers', end: false },
        { nav: true, to: '/app/customers', end: true },
        { nav: false, to: '../8?q=pool#history', relative: 'path', end: false },
        { nav: false, to: { pathname: 'visits', search: '?page=2' }, end: false },
      ],
      false,
    )
    expect(html).toContain(
      '<a aria-current="page" class="active" href="/app/customers" data-discover="true">link 0</a>',
    )
    expect(html).toContain('<a class="" href="/app/customers" data-discover="true">link 1</a>')
    expect(html).toContain('href="/app/customers/8?q=pool#history"')
    expect(html).toContain('href="/app/customers/7/visits?page=2"')
  })
})
