// The "bare React" anchor of the floor (issue 36 item 1): a plain `node:http` server that renders the floor page's
// own component tree — the marketing layout and /about, as a signed-out visitor sees them — with
// `renderToPipeableStream` and gzips it. No Express, no React Router data router (a MemoryRouter gives the links
// their context), no session, no loaders, no hydration data. What React and gzip alone cost for the floor's HTML on
// this machine, measured in the same run as the floor (bench/run.ts); docs/performance.md reads the two together.
// Env: PORT, APP_URL. Run with NODE_ENV=production (React's production build, as the app's server).
import http from 'node:http'
import { PassThrough } from 'node:stream'
import zlib from 'node:zlib'
import { renderToPipeableStream } from 'react-dom/server'
import { MemoryRouter, Route, Routes } from 'react-router'
import About from '../app/routes/marketing/about'
import MarketingLayout from '../app/routes/marketing/layout'

const { PORT = '3323', APP_URL = 'http://localhost:3323' } = process.env
const layoutProps = { loaderData: { signedIn: false, origin: APP_URL } } as Parameters<typeof MarketingLayout>[0]

function Document() {
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0e7490" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/app.css" />
        <title>About · Pool Bud</title>
      </head>
      <body className="min-h-full bg-slate-50 font-sans text-slate-900 antialiased">
        <MemoryRouter initialEntries={['/about']}>
          <Routes>
            <Route element={<MarketingLayout {...layoutProps} />}>
              <Route path="/about" element={<About />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </body>
    </html>
  )
}

const server = http.createServer((req, res) => {
  // Like the app's entry.server.tsx: the document goes out as one buffer once everything is rendered.
  const { pipe } = renderToPipeableStream(<Document />, {
    onAllReady() {
      const chunks: Buffer[] = []
      const body = new PassThrough()
      body.on('data', (chunk: Buffer) => chunks.push(chunk))
      body.on('end', () => {
        const html = Buffer.concat(chunks)
        const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))
        res.setHeader('Content-Type', 'text/html; charset=utf-8')
        if (!gzip) return res.end(html)
        res.setHeader('Content-Encoding', 'gzip')
        zlib.gzip(html, (error, zipped) => (error ? res.destroy(error) : res.end(zipped)))
      })
      pipe(body)
    },
    onShellError(error) {
      res.statusCode = 500
      res.end(String(error))
    },
  })
})
server.listen(Number(PORT), () => console.log(`bare React floor on :${PORT}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
