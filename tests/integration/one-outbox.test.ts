// One outbox (issue 37 item 4, docs/decisions/067-one-outbox.md, docs/decisions/070-webhooks-in-the-outbox.md): every
// email, text, task and webhook is queued by `enqueue` (app/outbox/enqueue.server.ts), so the notice key, the due time,
// the caller's transaction and the worker's kick are the same for all. A module of app/ that wrote an outbox row, a
// webhook event or a webhook delivery itself would get them subtly different; this fails naming it. Tests may still
// write rows in any state as fixtures.
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { repositoryRoot, sourceFiles } from '../helpers/source-text'

const ENQUEUE = 'app/outbox/enqueue.server.ts'

/** The tables only `enqueue` writes, as the schema names them and as SQL does. */
const QUEUES = [
  { table: 'emailOutbox', sql: 'email_outbox' },
  { table: 'webhookEvents', sql: 'webhook_events' },
  { table: 'webhookDeliveries', sql: 'webhook_deliveries' },
]
const MENTIONED = new RegExp(QUEUES.flatMap((queue) => [queue.table, queue.sql]).join('|'))
const INSERTED = new RegExp(`(^|\\.)(${QUEUES.map((queue) => queue.table).join('|')})$`)
const INSERTED_BY_SQL = new RegExp(`insert\\s+into\\s+"?(${QUEUES.map((queue) => queue.sql).join('|')})\\b`, 'gi')

/** `….insert(emailOutbox)` (or `schema.webhookEvents`, …), and SQL text that inserts into one of those tables. */
function queueWrites(file: string) {
  const text = fs.readFileSync(path.join(repositoryRoot, file), 'utf8')
  if (!MENTIONED.test(text)) return []
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'insert'
    ) {
      const table = node.arguments.map((argument) => INSERTED.exec(argument.getText(source))?.[2]).find(Boolean)
      if (table) found.push(`${file}:${line(node)} ${table}`)
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteral(node)) {
      for (const [, table] of node.getText(source).matchAll(INSERTED_BY_SQL)) {
        found.push(`${file}:${line(node)} ${table} (SQL)`)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('one outbox', () => {
  it('has no module of app/ but the outbox write an outbox row, a webhook event or a webhook delivery', () => {
    const writes = sourceFiles(['app'], { tests: false }).flatMap(queueWrites)
    const ours = writes.filter((write) => write.startsWith(`${ENQUEUE}:`))
    // The scan sees the writes there are, so a silent scan means no other.
    expect(ours.some((write) => write.endsWith(' emailOutbox'))).toBe(true)
    expect(ours.some((write) => write.endsWith(' webhook_events (SQL)'))).toBe(true)
    expect(ours.some((write) => write.endsWith(' webhook_deliveries (SQL)'))).toBe(true)
    expect(writes.filter((write) => !write.startsWith(`${ENQUEUE}:`))).toEqual([])
  })
})
