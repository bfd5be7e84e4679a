// Lighthouse over the five public pages, as a phone sees them (Lighthouse's default mobile preset with simulated
// slow 4G and CPU throttling), against the production build on an embedded database. Prints the four scores per
// page and fails when any is under the bar, or when any request of a page leaves localhost.
//   npm run audit:web
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { PUBLIC_PAGES } from '../app/components/marketing/page-meta'
import { buildIfNeeded, startServer } from './lib/app-server'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './lib/chromium'
import { freePort } from './lib/free-port'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
type Category = (typeof CATEGORIES)[number]
const MINIMUM: Record<Category, number> = { performance: 95, accessibility: 100, 'best-practices': 95, seo: 100 }

type Row = { page: string; scores: Record<Category, number>; foreignHosts: string[]; failing: string[] }

async function main() {
  buildIfNeeded(root, 'audit')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-audit-'))
  const server = await startServer(root, {
    port: String(await freePort()),
    dataDir: path.join(runDir, 'data'),
    logPath: path.join(runDir, 'server.log'),
  })
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS })
  const rows: Row[] = []
  try {
    // `npm run audit:web -- /features /about` audits only those pages.
    const only = process.argv.slice(2).filter((arg) => arg.startsWith('/'))
    for (const page of PUBLIC_PAGES.filter((candidate) => only.length === 0 || only.includes(candidate))) {
      const result = await lighthouse(`${server.origin}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      })
      if (!result) throw new Error(`Lighthouse returned nothing for ${page}`)
      const { lhr } = result
      const scores = Object.fromEntries(
        CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
      ) as Record<Category, number>
      const requests = (lhr.audits['network-requests']?.details as { items?: { url: string }[] } | undefined)?.items
      const foreignHosts = [
        ...new Set(
          (requests ?? [])
            .map((request) => new URL(request.url))
            .filter((url) => url.protocol.startsWith('http') && url.hostname !== 'localhost')
            .map((url) => url.host),
        ),
      ]
      // What cost points, so a failing run says what to fix.
      const failing = Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
        .map((audit) => `${audit.id} (${audit.displayValue ?? audit.score})`)
      rows.push({ page, scores, foreignHosts, failing })
      if (process.env.AUDIT_VERBOSE) {
        const metrics = [
          'first-contentful-paint',
          'largest-contentful-paint',
          'speed-index',
          'total-blocking-time',
          'cumulative-layout-shift',
          'server-response-time',
        ]
        console.log(metrics.map((id) => `  ${id}: ${lhr.audits[id]?.displayValue}`).join('\n'))
        fs.writeFileSync(path.join(runDir, `lhr${page.replaceAll('/', '_') || '_'}.json`), JSON.stringify(lhr))
        console.log(`  report: ${runDir}`)
      }
      console.log(`[audit] ${page}: ${CATEGORIES.map((category) => `${category} ${scores[category]}`).join(', ')}`)
    }
  } finally {
    chrome.kill()
    await server.stop()
  }

  console.log(`\n| page | ${CATEGORIES.join(' | ')} | other hosts |`)
  console.log(`|---|${CATEGORIES.map(() => '---:').join('|')}|---|`)
  for (const row of rows) {
    const cells = CATEGORIES.map((category) => String(row.scores[category]))
    console.log(`| ${row.page} | ${cells.join(' | ')} | ${row.foreignHosts.join(', ') || 'none'} |`)
  }
  const problems = rows.flatMap((row) => [
    ...CATEGORIES.filter((category) => row.scores[category] < MINIMUM[category]).map(
      (category) =>
        `${row.page}: ${category} ${row.scores[category]} < ${MINIMUM[category]} — ${row.failing.join(', ')}`,
    ),
    ...(row.foreignHosts.length ? [`${row.page}: requests left localhost for ${row.foreignHosts.join(', ')}`] : []),
  ])
  if (problems.length) {
    console.error(`\nBelow the bar:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
    process.exit(1)
  }
  console.log(`\nEvery page meets the bar (${CATEGORIES.map((c) => `${c} ≥ ${MINIMUM[c]}`).join(', ')}).`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
