// Reads the repository's sources with the TypeScript compiler's parser, so the house tests (decision 064) tell a
// comment from a string and a string from JSX text without guessing from regular expressions over whole files.
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

export const repositoryRoot = path.resolve(import.meta.dirname, '../..')

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/

/** The source files under `dirs` (relative to the repository), test files included only when asked. */
export function sourceFiles(dirs: string[], { tests = true }: { tests?: boolean } = {}): string[] {
  const found: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(repositoryRoot, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(relative)
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        if (tests || !/\.(test|spec)\.[cm]?[jt]sx?$/.test(entry.name)) found.push(relative)
      }
    }
  }
  for (const dir of dirs) walk(dir)
  return found.sort()
}

function parse(file: string): ts.SourceFile {
  const text = fs.readFileSync(path.resolve(repositoryRoot, file), 'utf8')
  const kind = /\.[jt]sx$/.test(file)
    ? ts.ScriptKind.TSX
    : /\.[cm]?js$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
}

export type Found = { file: string; line: number; text: string }

function at(source: ts.SourceFile, file: string, pos: number, text: string): Found {
  return { file, line: source.getLineAndCharacterOfPosition(pos).line + 1, text }
}

/**
 * Every comment of a file, once each: the trivia before each token (and after the last), never inside a string, a
 * template or JSX text.
 */
export function comments(file: string): Found[] {
  const source = parse(file)
  const text = source.getFullText()
  const seen = new Set<number>()
  const found: Found[] = []
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue
      seen.add(range.pos)
      found.push(at(source, file, range.pos, text.slice(range.pos, range.end)))
    }
  }
  const visit = (node: ts.Node) => {
    // JSX text is not trivia: a "//" in a sentence on the page is no comment.
    if (node.kind !== ts.SyntaxKind.JsxText) {
      collect(ts.getLeadingCommentRanges(text, node.pos))
      collect(ts.getTrailingCommentRanges(text, node.end))
    }
    for (const child of node.getChildren(source)) visit(child)
  }
  visit(source)
  // A run of `//` lines is one comment: a citation broken over two lines is still read whole.
  const merged: Found[] = []
  for (const comment of found.sort((a, b) => a.line - b.line)) {
    const last = merged[merged.length - 1]
    const lastLine = last ? last.line + last.text.split('\n').length - 1 : -1
    if (last && comment.text.startsWith('//') && last.text.startsWith('//') && comment.line === lastLine + 1) {
      last.text = `${last.text}\n${comment.text}`
    } else merged.push({ ...comment })
  }
  return merged
}

/** A string that is a code value (a status, a key, a class list, a path), not words someone reads. */
function isCodeValue(value: string): boolean {
  return !/\s/.test(value.trim()) && /^[a-z0-9_.:/#@$-]*$/.test(value.trim())
}

function isModuleSpecifier(node: ts.Node): boolean {
  const parent = node.parent
  return (
    ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) ||
    (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword)
  )
}

/** Whether a template belongs to a `sql` tag (drizzle's): SQL names stored values, it is not shown. */
function inSqlTemplate(node: ts.Node): boolean {
  for (let current: ts.Node | undefined = node; current; current = current.parent) {
    if (ts.isTaggedTemplateExpression(current)) return /(^|\.)sql$/.test(current.tag.getText())
    if (ts.isBlock(current) || ts.isSourceFile(current)) return false
  }
  return false
}

/**
 * The text a file may show someone: JSX text and string and template literals, but not comments, module paths,
 * `sql` templates, or single-word lowercase values (statuses, keys, class names) that are stored or matched, never
 * read.
 */
export function visibleStrings(file: string): Found[] {
  const source = parse(file)
  const found: Found[] = []
  const visit = (node: ts.Node) => {
    let value: string | undefined
    if (ts.isJsxText(node)) value = node.text
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (!isModuleSpecifier(node) && !inSqlTemplate(node)) value = node.text
    } else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (!inSqlTemplate(node)) value = node.text
    }
    if (value !== undefined && value.trim() !== '' && !isCodeValue(value)) {
      found.push(at(source, file, node.getStart(source), value))
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}
