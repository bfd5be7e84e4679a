// Files share their worker's modules (`isolate: false` in vitest.config.ts, decision 025): a `vi.mock` in one file
// reaches only the modules that file loads first, so whether it applies depends on which file the worker ran before —
// the week board's weight test once rendered `<link href="">` and hung because another file had loaded the root with
// the real stylesheet. A stand-in every file needs is an alias in vitest.config.ts (tests/setup/stylesheet-url.ts); a
// service is a local server that speaks its API. This fails naming a file that mocks a module.
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { repositoryRoot, sourceFiles } from '../helpers/source-text'

const MOCKS = /^vi\.(mock|doMock|unmock|doUnmock|importMock)$/

function moduleMocks(file: string) {
  const text = fs.readFileSync(path.join(repositoryRoot, file), 'utf8')
  if (!/\bvi\.\w*[mM]ock\b/.test(text)) return []
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && MOCKS.test(node.expression.getText(source))) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('Module mocks', () => {
  it('no Vitest file mocks a module', () => {
    const files = sourceFiles(['app', 'scripts', 'server', 'tests']).filter((file) => !file.startsWith('tests/e2e/'))
    expect(files.length).toBeGreaterThan(200)
    expect(files.flatMap(moduleMocks)).toEqual([])
  })

  it('finds one', () => {
    const planted = 'tests/integration/planted-module-mock.tmp.ts'
    fs.writeFileSync(
      path.join(repositoryRoot, planted),
      "import { vi } from 'vitest'\n// vi.mock('in a comment')\nvi.mock('~/utils/stylesheet', () => ({}))\n",
    )
    try {
      expect(moduleMocks(planted)).toEqual([`${planted}:3`])
    } finally {
      fs.rmSync(path.join(repositoryRoot, planted))
    }
  })
})
