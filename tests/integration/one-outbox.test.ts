// One outbox (issue 37 item 4, docs/decisions/067-one-outbox.md): every email, text and task is queued by
// `enqueue` (app/outbox/enqueue.server.ts), so the notice key, the due time and the worker's kick are the same for
// all. A module of app/ that wrote an outbox row itself would get them subtly different; this fails naming it. Tests
// may still write rows in any state as fixtures.
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { repositoryRoot, sourceFiles } from '../helpers/source-text'

const ENQUEUE = 'app/outbox/enqueue.server.ts'

/** `….insert(emailOutbox)` (or `schema.emailOutbox`), and SQL text that inserts into email_outbox. */
function outboxWrites(file: string) {
  const text = fs.readFileSync(path.join(repositoryRoot, file), 'utf8')
  if (!/emailOutbox|email_outbox/.test(text)) return []
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'insert' &&
      node.arguments.some((argument) => /(^|\.)emailOutbox$/.test(argument.getText(source)))
    ) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`)
    }
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteral(node)) &&
      /insert\s+into\s+"?email_outbox\b/i.test(node.getText(source))
    ) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} (SQL)`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('one outbox', () => {
  it('has no module of app/ but the outbox write an outbox row', () => {
    const writes = sourceFiles(['app'], { tests: false }).flatMap(outboxWrites)
    // The scan sees the one write there is, so a silent scan means no other.
    expect(writes.some((write) => write.startsWith(`${ENQUEUE}:`))).toBe(true)
    expect(writes.filter((write) => !write.startsWith(`${ENQUEUE}:`))).toEqual([])
  })
})
