// Imports flow one way (docs/architecture.md), and the build fails on a wrong arrow: `npm run lint` (Biome) rejects a
// module that imports from a layer above it (utils/, db/, outbox/, billing/, field/ and the pure cores; models; auth; emails;
// components; features; dashboards). This proves the rule bites, by linting
// deliberately bad files in a scratch copy of the layout with the project's own biome.json.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const biome = path.join(root, 'node_modules/.bin/biome')
let scratch: string

/** Imports each layer must not make: [file, source]. */
const WRONG: Array<[string, string]> = [
  ['app/utils/bad.ts', "import { getProfile } from '~/models/profile.server'\nexport const x = getProfile\n"],
  ['app/db/schema/bad.ts', "import { CONST } from '../../models/customer-fields'\nexport const x = CONST\n"],
  ['app/utils/bad-route.ts', "import { loader } from '~/routes/app/dashboard'\nexport const x = loader\n"],
  ['app/utils/bad-email.ts', "import { inviteEmail } from '~/emails/invite-email'\nexport const x = inviteEmail\n"],
  ['app/schedule/bad.ts', "import { requireUser } from '~/auth/guards.server'\nexport const x = requireUser\n"],
  ['app/mail/bad.ts', "import { getProfile } from '~/models/profile.server'\nexport const x = getProfile\n"],
  // The outbox sends what models queue; it knows no model (a task's email comes from a registered preparer).
  ['app/outbox/bad.server.ts', "import { getProfile } from '~/models/profile.server'\nexport const x = getProfile\n"],
  // Models name a template (app/mail/templates.ts); they never import one.
  [
    'app/models/bad-email.server.ts',
    "import { inviteEmail } from '~/emails/invite-email'\nexport const x = inviteEmail\n",
  ],
  ['app/models/bad-route.server.ts', "import { loader } from '~/routes/app/dashboard'\nexport const x = loader\n"],
  // A model takes what it needs as plain values and types; it never reaches up to a feature or the guards.
  [
    'app/models/bad-feature.server.ts',
    "import { readProfitParams } from '~/features/reports/profit-params'\nexport const x = readProfitParams\n",
  ],
  [
    'app/models/bad-auth.server.ts',
    "import type { SessionUser } from '~/auth/guards.server'\nexport type X = SessionUser\n",
  ],
  ['app/models/bad-relative.server.ts', "import { x as y } from '../features/visits/x'\nexport const x = y\n"],
  // billing/ and field/ sit beside utils/: models import them, never the other way.
  ['app/billing/bad.ts', "import { getInvoice } from '~/models/invoice.server'\nexport const x = getInvoice\n"],
  ['app/field/bad.ts', "import { getProfile } from '~/models/profile.server'\nexport const x = getProfile\n"],
  ['app/service-worker/bad.ts', "import { Pager } from '~/components/pager'\nexport const x = Pager\n"],
  ['app/emails/bad.ts', "import { getProfile } from '~/models/profile.server'\nexport const x = getProfile\n"],
  ['app/auth/bad.server.ts', "import { loader } from '~/routes/app/dashboard'\nexport const x = loader\n"],
  [
    'app/components/bad.tsx',
    "import { ProfitTable } from '~/features/reports/profit-table'\nexport const x = ProfitTable\n",
  ],
  ['app/features/visits/bad.ts', "import { loader } from '~/routes/app/visit'\nexport const x = loader\n"],
  ['app/dashboards/bad.ts', "import { loader } from '~/routes/app/dashboard'\nexport const x = loader\n"],
]

/** The same kinds of imports, in the layers allowed to make them. */
const ALLOWED: Array<[string, string]> = [
  ['app/models/fine.ts', "import { db } from '~/utils/db.server'\nexport const x = db\n"],
  ['app/models/fine-mail.ts', "import type { EmailContent } from '~/mail/templates'\nexport type X = EmailContent\n"],
  ['app/emails/fine.ts', "import type { InviteMetadata } from '~/mail/templates'\nexport type X = InviteMetadata\n"],
  ['app/routes/fine.ts', "import { getProfile } from '~/models/profile.server'\nexport const x = getProfile\n"],
  [
    'app/models/fine-billing.ts',
    "import { outstandingCents } from '~/billing/invoice-status'\nexport const x = outstandingCents\n",
  ],
  ['app/billing/fine.ts', "import { monthOf } from '~/schedule/local-date'\nexport const x = monthOf\n"],
  ['app/models/fine-outbox.ts', "import { enqueue } from '~/outbox/enqueue.server'\nexport const x = enqueue\n"],
  ['app/service-worker/fine.ts', "import { x as y } from '../field/offline-cache'\nexport const x = y\n"],
  ['app/features/fine.ts', "import { requireUser } from '~/auth/guards.server'\nexport const x = requireUser\n"],
  ['app/auth/fine.server.ts', "import { getProfile } from '~/models/profile.server'\nexport const x = getProfile\n"],
  ['app/utils/fine.ts', "import { env } from './env.server'\nexport const x = env\n"],
  ['app/utils/fine.test.ts', "import { loader } from '~/routes/app/dashboard'\nexport const x = loader\n"],
]

type Diagnostic = { severity: string; message: string; category: string; location: { path: string } }
/** Biome's diagnostics for each file written: every case is linted in one run (a run per file cost a second each). */
let diagnostics: Map<string, Diagnostic[]>

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-import-rules-'))
  const config = JSON.parse(fs.readFileSync(path.join(root, 'biome.json'), 'utf8'))
  // The scratch folder is no git checkout and has no node_modules of its own.
  config.vcs = { enabled: false }
  delete config.$schema
  fs.writeFileSync(path.join(scratch, 'biome.json'), JSON.stringify(config))
  const files = [...WRONG, ...ALLOWED]
  for (const [file, source] of files) {
    const target = path.join(scratch, file)
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.writeFileSync(target, source)
  }
  const result = spawnSync(
    biome,
    ['lint', '--reporter=json', '--max-diagnostics=none', ...files.map(([file]) => file)],
    { cwd: scratch, encoding: 'utf8' },
  )
  const report = JSON.parse(result.stdout) as { diagnostics: Diagnostic[] }
  diagnostics = new Map(files.map(([file]) => [file, []]))
  for (const diagnostic of report.diagnostics) diagnostics.get(diagnostic.location.path)?.push(diagnostic)
})

afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true })
})

describe('the one-way import rule', () => {
  it.each(WRONG)('fails the lint for %s', (file) => {
    const found = diagnostics.get(file) ?? []
    expect(found).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        category: 'lint/style/noRestrictedImports',
        message: expect.stringContaining('Imports flow one way'),
      }),
    )
  })

  it('passes the same imports in the layers allowed to make them, and a utils module importing utils', () => {
    for (const [file] of ALLOWED) {
      expect(
        (diagnostics.get(file) ?? []).map((diagnostic) => diagnostic.category),
        file,
      ).toEqual([])
    }
  })
})

describe('the models load without React', () => {
  // A script that uses the models (the bench's workloads, the migrations) must not load React or React Router with
  // them: React picks its development or production build when first loaded, and the bench then renders pages with a
  // production React DOM ("dispatcher.getOwner is not a function" when the two disagree).
  it('importing every model module loads neither React nor React Router', () => {
    const models = fs
      .readdirSync(path.join(root, 'app/models'))
      .filter((file) => file.endsWith('.server.ts') && !file.includes('.test.'))
    const script = [
      "import { createRequire } from 'node:module'",
      ...models.map((file) => `await import(${JSON.stringify(path.join(root, 'app/models', file))})`),
      'const loaded = Object.keys(createRequire(import.meta.url).cache)',
      'console.log(JSON.stringify(loaded.filter((id) => /node_modules\\/(react|react-dom|react-router)\\//.test(id))))',
    ].join('\n')
    const file = path.join(scratch, 'load-models.mts')
    fs.writeFileSync(file, script)
    const result = spawnSync(
      path.join(root, 'node_modules/.bin/tsx'),
      ['--tsconfig', path.join(root, 'tsconfig.json'), file],
      {
        cwd: root,
        encoding: 'utf8',
      },
    )
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1) ?? 'null')).toEqual([])
  })
})
