// The repository's import graph as it loads at run time, read with the TypeScript parser: the import-cycle test walks
// app/'s (tests/integration/import-cycles.test.ts), and the test set-up tells a test file that never reaches the
// database from one that does (tests/setup/database-free.ts).
//
// Only imports that exist at run time count (docs/decisions/063-no-import-cycles.md): `import type` and
// `export type … from` are erased, so they load nothing.
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { repositoryRoot } from '../helpers/source-text'

const appDir = path.join(repositoryRoot, 'app')
const extensions = ['.ts', '.tsx', '.js', '.jsx', '.mjs']
const TEST_FILE = /\.test\.tsx?$/

/** Every source module under `dirs` (relative to the repository), test files only when asked. */
function sourceModules(dirs: string[], { tests }: { tests: boolean }): string[] {
  const found: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(full)
      } else if (extensions.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts')) {
        if (tests || !TEST_FILE.test(entry.name)) found.push(full)
      }
    }
  }
  for (const dir of dirs) walk(path.join(repositoryRoot, dir))
  return found
}

/** The file an import names, if it is one of `modules` (`~/` is app/, as in tsconfig.json); packages are not. */
function resolve(modules: ReadonlySet<string>, from: string, specifier: string): string | undefined {
  let base: string
  if (specifier.startsWith('~/')) base = path.join(appDir, specifier.slice(2))
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier)
  else return undefined
  base = base.replace(/\?.*$/, '')
  const candidates = [
    base,
    ...extensions.map((ext) => base + ext),
    // `./x.js` may name `x.ts` (TypeScript's ESM style).
    ...extensions.map((ext) => base.replace(/\.[cm]?js$/, ext)),
    ...extensions.map((ext) => path.join(base, `index${ext}`)),
  ]
  return candidates.find((file) => modules.has(file))
}

/**
 * Whether a declaration is erased from the JavaScript: only `import type …` and `export type … from`. Under
 * tsconfig.json's verbatimModuleSyntax, `import { type A } from './a'` still loads './a' (as `import {} from './a'`),
 * so it counts.
 */
function isErased(node: ts.ImportDeclaration | ts.ExportDeclaration) {
  return ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly
}

/** The specifiers a module loads at run time: static imports and re-exports, and `import()` of a literal path. */
export function runtimeImports(file: string, source: string): string[] {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, kind)
  const specifiers: string[] = []
  for (const node of sourceFile.statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!isErased(node)) specifiers.push(node.moduleSpecifier.text)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!isErased(node)) specifiers.push(node.moduleSpecifier.text)
    }
  }
  // `import()` may sit anywhere; most modules have none, so only those that do are walked.
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  if (/\bimport\s*\(/.test(source)) visit(sourceFile)
  return specifiers
}

/**
 * The import graph of the modules under `dirs`: each module (its path from the repository's root, with `/`) to the
 * modules of the graph it loads. Packages are left out; test files are in it only when asked (nothing imports a test).
 */
export function importGraph(dirs: string[], { tests = false }: { tests?: boolean } = {}) {
  const files = sourceModules(dirs, { tests })
  const modules = new Set(files)
  const relative = (file: string) => path.relative(repositoryRoot, file).split(path.sep).join('/')
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets = runtimeImports(file, fs.readFileSync(file, 'utf8'))
      .map((specifier) => resolve(modules, file, specifier))
      .filter((target): target is string => target !== undefined)
    graph.set(relative(file), [...new Set(targets.map(relative))].sort())
  }
  return graph
}

/** Every module `start` loads, itself included, through any chain of imports in `graph`. */
export function loadedBy(graph: ReadonlyMap<string, readonly string[]>, start: string): Set<string> {
  const seen = new Set([start])
  const queue = [start]
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const target of graph.get(next) ?? []) {
      if (!seen.has(target)) {
        seen.add(target)
        queue.push(target)
      }
    }
  }
  return seen
}
