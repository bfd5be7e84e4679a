// One word for one thing, in US English (issue 37 item 6; docs/decisions/069-…): a trip to a pool is a "visit" in
// code, tables, URLs and screens, never a "job"; and identifiers, comments, SQL names and docs are spelled as our
// American companies spell ("optimize", "sanitizer", "canceled"). The screens' own text has its own test
// (us-spelling.test.ts); this one reads everything else a developer reads.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { britishSpellings } from '../helpers/british-spellings'
import { repositoryRoot, sourceFiles } from '../helpers/source-text'

/**
 * Where the old word or a British one is the point: the scanners themselves, the old URLs, the decision, and the
 * test of a migration from before 0041 and its fixture's helper, which read the tables by the names they had then.
 */
const ABOUT_THE_WORDS = new Set([
  'tests/integration/customer-locations-migration.test.ts',
  'tests/helpers/demo-0006.ts',
  'tests/integration/one-word.test.ts',
  'tests/integration/us-spelling.test.ts',
  'tests/helpers/british-spellings.ts',
  'app/routes/old-visit-urls.ts',
  'app/routes/old-visit-urls.test.ts',
  'docs/decisions/064-house-tests-spelling-comment-paths-bundles.md',
  'docs/decisions/069-one-word-visit-and-us-spelling.md',
])

/**
 * Lines that must keep another's spelling: an HTML attribute, a past migration's name, iCalendar's own word (RFC 5545
 * spells STATUS:CANCELLED), the old URLs, and a page test's list of the British words the page must not show.
 */
const OTHERS_WORDS = [
  /\.not\.toContainText\(\//,
  /aria-labelledby/,
  /'\d{4}_drop_job_photo_columns'/,
  /ICalEventStatus\.CANCELLED|'CANCELLED'/,
  /route\('(app\/)?jobs\/\*'/,
  /`\/app\/jobs\//,
]

/** The importer reads other products' files, which say "postcode", "fortnightly" or "cheque": those are its input. */
const READS_OTHERS_FILES = /^app\/customer-import\/|^app\/features\/billing\/payment-form\.test\.ts:/

function filesToRead() {
  const docs = (dir: string): string[] =>
    fs
      .readdirSync(path.join(repositoryRoot, dir), { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory()
          ? docs(path.posix.join(dir, entry.name))
          : entry.name.endsWith('.md')
            ? [path.posix.join(dir, entry.name)]
            : [],
      )
  return [
    ...sourceFiles(['app', 'server', 'tests', 'scripts', 'bench']),
    ...docs('docs'),
    'README.md',
    'SECURITY.md',
  ].filter((file) => !ABOUT_THE_WORDS.has(file))
}

/** `optimiseTimedRoute` → "optimise Timed Route", `job_id` → "job id": the words inside identifiers. */
function words(line: string) {
  return line.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]/g, ' ')
}

function scan(find: (line: string) => string[]) {
  const found: string[] = []
  for (const file of filesToRead()) {
    const lines = fs.readFileSync(path.join(repositoryRoot, file), 'utf8').split('\n')
    lines.forEach((line, index) => {
      if (OTHERS_WORDS.some((pattern) => pattern.test(line))) return
      for (const word of find(line)) found.push(`${file}:${index + 1}: ${word}`)
    })
  }
  return found
}

describe('one word for one thing', () => {
  it('reads the whole repository', () => {
    expect(filesToRead().length).toBeGreaterThan(900)
  })

  it('a visit is a visit: no "job" in code, comments, SQL or docs (Jobber, the competitor, is a name)', () => {
    expect(scan((line) => [...words(line).matchAll(/\bjobs?\b/gi)].map((match) => match[0]))).toEqual([])
  })

  it('US spelling in identifiers, comments, SQL names and docs', () => {
    const found = scan((line) => britishSpellings(words(line)).map(({ word, us }) => `"${word}" (US: ${us})`))
    expect(found.filter((entry) => !READS_OTHERS_FILES.test(entry))).toEqual([])
  })

  it('splits identifiers into the words a reader sees', () => {
    expect(britishSpellings(words('optimiseTimedRoute(job_id, sanitiser-valid)')).map((f) => f.word)).toEqual([
      'optimise',
      'sanitiser',
    ])
    expect(words('createJob(job_id)')).toMatch(/\bJob\b.*\bjob\b/)
  })
})
