// A self-contained repository (issue 37 item 7; decision 064): every path a comment names exists here, a comment
// that cites a docs page's section names a heading that page has, and no comment cites a document that is not in
// the repository. Comments are read with the TypeScript parser, so strings and JSX text are left alone.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { comments, repositoryRoot, sourceFiles } from '../helpers/source-text'

/** Documents outside the repository, by the names and section marks earlier comments used for them. */
const OUTSIDE = [
  /\.\.\/shared\b/,
  /(?<!docs\/)\b(SPEC|OPERATIONS|ARCHITECTURE|DOMAIN|STYLE)\.md\b/,
  /\b(SPEC|OPERATIONS|ARCHITECTURE|DOMAIN|STYLE)\s*(\/\/|\*)?\s*§/,
]

/** A path from the repository's root: `docs/…`, `app/…`, `tests/…`, `scripts/…`, `server/…`…, or `~/…` (app/). */
const PATH = /(?<![\w./~@-])(~\/|(?:docs|app|tests|scripts|server|bench|drizzle|public|patches)\/)[\w@.()[\]/-]*/g

/**
 * What a path may stand for: a file, a folder, a module named without its extension, or a numbered file by its number
 * (`docs/decisions/054`, `drizzle/0012`).
 */
function exists(named: string): boolean {
  const full = path.join(repositoryRoot, named)
  const endings = ['', '.ts', '.tsx', '.server.ts', '.client.ts', '.mjs', '.js', '.md', '/index.ts']
  if (endings.some((ending) => fs.existsSync(`${full}${ending}`))) return true
  const folder = path.dirname(full)
  const number = path.basename(full)
  return (
    /^\d+-?$/.test(number) && fs.existsSync(folder) && fs.readdirSync(folder).some((entry) => entry.startsWith(number))
  )
}

const headings = new Map<string, string[]>()
function headingsOf(page: string): string[] {
  let found = headings.get(page)
  if (!found) {
    const text = fs.readFileSync(path.join(repositoryRoot, page), 'utf8')
    found = [...text.matchAll(/^#+\s+(.*)$/gm)].map((match) => (match[1] ?? '').toLowerCase())
    headings.set(page, found)
  }
  return found
}

/** What is wrong with one comment's citations, each in words; none when it is right. */
function problemsOf(text: string): string[] {
  const problems: string[] = []
  for (const outside of OUTSIDE) {
    const match = outside.exec(text)
    if (match) problems.push(`cites "${match[0]}", which is not in the repository (cite docs/ instead)`)
  }
  for (const match of text.matchAll(PATH)) {
    // Sentence punctuation and a closing bracket end a path; a placeholder or a pattern is not one path.
    const named = match[0].replace(/^~\//, 'app/').replace(/[.,:;)\]]+$/, '')
    if (/[*…<>{}]/.test(named) || named.endsWith('/.')) continue
    if (!exists(named)) {
      problems.push(`names ${named}, which does not exist`)
      continue
    }
    // `docs/<page>.md "Section"`: the page has a heading with those words.
    const after = text.slice((match.index ?? 0) + match[0].length)
    // A section's name may run onto the comment's next line.
    const section = /^\s*(?:\/\/|\*)?\s*"([^"]+)"/.exec(after)?.[1]?.replace(/\s*\n\s*(?:\/\/|\*)?\s*/g, ' ')
    if (named.startsWith('docs/') && named.endsWith('.md') && section) {
      if (!headingsOf(named).some((heading) => heading.includes(section.toLowerCase()))) {
        problems.push(`cites ${named} "${section}", a heading that page does not have`)
      }
    }
  }
  return problems
}

/** The Markdown pages under `folder`, from the repository's root. */
function sourceMarkdown(folder: string): string[] {
  return fs
    .readdirSync(path.join(repositoryRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith('.md'))
    .map((entry) => path.join(folder, entry))
}

describe('comments cite only the repository', () => {
  it('in app/, server/, scripts/ and tests/', () => {
    const files = sourceFiles(['app', 'server', 'scripts', 'tests'])
    expect(files.length).toBeGreaterThan(500)
    const found: string[] = []
    for (const file of files) {
      for (const comment of comments(file)) {
        for (const problem of problemsOf(comment.text)) found.push(`${file}:${comment.line}: ${problem}`)
      }
    }
    expect(found).toEqual([])
  })

  it('in README.md, SECURITY.md and docs/: every path in backticks exists', () => {
    const pages = ['README.md', 'SECURITY.md', ...sourceMarkdown('docs')]
    const found: string[] = []
    for (const page of pages) {
      const text = fs.readFileSync(path.join(repositoryRoot, page), 'utf8')
      for (const [, quoted] of text.matchAll(/`([^`\n]+)`/g)) {
        // Only a path from the repository's root, as written: a file or folder, not a command or a pattern.
        const named = /^(?:app|tests|scripts|server|bench|drizzle|public|patches|docs)\/[\w@.()[\]/-]*$/.exec(
          quoted ?? '',
        )?.[0]
        // A benchmark's results are written by each run and not kept (.gitignore): the page names the run it quotes.
        if (!named || /[*{}]/.test(named) || /\[[^\]]*$/.test(named) || named.startsWith('bench/results/')) continue
        if (!exists(named.replace(/:\d+$/, ''))) found.push(`${page}: ${named} does not exist`)
      }
    }
    expect(found).toEqual([])
  })

  it('finds what is wrong, and only in comments', () => {
    expect(problemsOf('// See OPERATIONS §7 and ../shared/DOMAIN.md.')).toHaveLength(3)
    expect(problemsOf('// As SPEC.md says')).toHaveLength(1)
    expect(problemsOf('// As OPERATIONS\n// §5 says, and docs/routing.md "Suggesting a\n// day" too.')).toHaveLength(1)
    expect(problemsOf('// The rules (docs/billing.md "Tax"; app/billing/tax.ts; ~/billing/tax).')).toEqual([])
    expect(problemsOf('// See docs/billing.md "No such section" and app/no-such-file.ts.')).toEqual([
      'cites docs/billing.md "No such section", a heading that page does not have',
      'names app/no-such-file.ts, which does not exist',
    ])
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-comment-paths-'))
    try {
      const file = path.join(dir, 'sample.tsx')
      fs.writeFileSync(
        file,
        [
          "const cite = 'OPERATIONS §7 in a string is text, not a comment'",
          'export const Page = () => <p>See SPEC.md // not a comment either</p>',
          '/** A JSDoc cite of OPERATIONS §5. */',
          'export const x = 1 // and a trailing one of docs/nowhere.md',
        ].join('\n'),
      )
      const found = comments(file).flatMap((comment) => problemsOf(comment.text))
      expect(found).toEqual([
        'cites "OPERATIONS §", which is not in the repository (cite docs/ instead)',
        'names docs/nowhere.md, which does not exist',
      ])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
