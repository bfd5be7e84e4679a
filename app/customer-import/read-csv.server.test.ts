import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import {
  cellTooLong,
  MAX_CELL_CHARS,
  MAX_COLUMNS,
  MAX_FILE_BYTES,
  readCsv,
  TOO_LARGE,
  tooManyColumns,
} from './read-csv.server'

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/customer-import')
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name))
const bytes = (text: string) => new TextEncoder().encode(text)

async function table(source: Parameters<typeof readCsv>[0]) {
  const result = await readCsv(source)
  if (!result.ok) throw new Error(result.message)
  return result.table
}

async function refusal(source: Parameters<typeof readCsv>[0], options?: Parameters<typeof readCsv>[1]) {
  const result = await readCsv(source, options)
  if (result.ok) throw new Error('expected the file to be refused')
  expect(result.code).toBe('invalid')
  return result.message
}

describe('readCsv: delimiters', () => {
  it('reads a semicolon file whose names hold commas (a European Excel export)', async () => {
    const t = await table(fixture('semicolon.csv'))
    expect(t.delimiter).toBe(';')
    expect(t.headers).toHaveLength(12)
    expect(t.rows.map((row) => row.values[0])).toEqual(['Smith, John', 'Garcia, Maria', 'Nguyen, Anh'])
    expect(t.rows[1]?.values[11]).toBe('1.200,50')
    expect(t.problems).toEqual([])
  })

  it('reads tab-separated text, and a UTF-16 file with tabs (Excel’s "Unicode Text")', async () => {
    const tsv = 'Name\tAddress\r\nJosé\t1 Palm Ave\r\n'
    expect((await table(bytes(tsv))).delimiter).toBe('\t')
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tsv, 'utf16le')])
    const t = await table(utf16)
    expect(t.encoding).toBe('utf-16le')
    expect(t.rows[0]?.values).toEqual(['José', '1 Palm Ave'])
  })

  it('keeps a comma file a comma file when every note holds one semicolon', async () => {
    const t = await table(bytes('Name,Address,Notes\nAnn,1 Palm Ave,gate; side\nBob,2 Palm Ave,dog; big\n'))
    expect(t.delimiter).toBe(',')
    expect(t.rows[0]?.values).toEqual(['Ann', '1 Palm Ave', 'gate; side'])
  })

  it('passes over a title line above the header', async () => {
    const t = await table(bytes('Customer export — May 2026\nName,Address\nAnn,1 Palm Ave\n'))
    expect(t.headerRow).toBe(2)
    expect(t.headers).toEqual(['Name', 'Address'])
    expect(t.rows).toEqual([{ row: 3, values: ['Ann', '1 Palm Ave'] }])
  })

  it('refuses text with one value on every line, in plain words', async () => {
    const message = await refusal(bytes('Ann Smith\nBob Jones\nCarla Diaz\n'))
    expect(message).toContain('every line has a single value')
    expect(message).toContain('Save As')
  })
})

describe('readCsv: encodings', () => {
  it('drops a UTF-8 byte order mark so the first header is clean', async () => {
    const t = await table(fixture('utf8-bom.csv'))
    expect(t.encoding).toBe('utf-8 with BOM')
    expect(t.headers[0]).toBe('Customer Name')
    expect(t.rows.map((row) => row.values[0])).toEqual(['José Hernández', 'Renée O’Brien'])
  })

  it('reads Windows-1252 when the bytes are not UTF-8: é, ñ and the curly apostrophe (0x92)', async () => {
    const t = await table(fixture('windows-1252.csv'))
    expect(t.encoding).toBe('windows-1252')
    expect(t.rows.map((row) => row.values[0])).toEqual(['José Peña', 'Chloé O’Neil'])
  })

  it('maps every byte 0x80–0x9F as Windows-1252 does (€ … Ÿ), not as Latin-1 control characters', async () => {
    const high = Array.from({ length: 32 }, (_, i) => 0x80 + i)
    const t = await table(new Uint8Array([...bytes('a,b\nx,'), ...high, 0x0a]))
    const decoded = t.rows[0]?.values[1] ?? ''
    expect(decoded.slice(0, 3)).toBe('€\u0081‚')
    expect(decoded.charAt(0x12)).toBe('’')
    expect(decoded.charAt(0x19)).toBe('™')
    expect(decoded.at(-1)).toBe('Ÿ')
  })

  it('refuses workbooks, PDFs and binary files with words that say what to do', async () => {
    expect(await refusal(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toContain('Excel workbook (.xlsx)')
    expect(await refusal(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1]))).toContain('(.xls)')
    expect(await refusal(bytes('%PDF-1.7\n...'))).toContain('This is a PDF')
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48])
    expect(await refusal(png)).toContain('not a CSV file')
  })

  it('refuses an empty file', async () => {
    expect(await refusal(new Uint8Array())).toBe('This file is empty.')
    expect(await refusal(bytes('\r\n\r\n'))).toBe('This file is empty.')
  })
})

describe('readCsv: rows', () => {
  it('skips blank lines and emptied rows, and numbers rows as a spreadsheet shows them', async () => {
    const t = await table(fixture('blank-lines.csv'))
    expect(t.rows.map((row) => [row.row, row.values[0]])).toEqual([
      [3, 'Linda Moore'],
      [7, 'Kevin Lee'],
    ])
  })

  it('keeps quoted commas, quotes and line breaks inside values', async () => {
    const t = await table(fixture('quoted.csv'))
    expect(t.rows[0]?.values.slice(0, 3)).toEqual(['Smith, John', 'john@example.com', '12 Palm Ave, Unit 4'])
    expect(t.rows[0]?.values[6]).toBe('#1234, then #5678')
    expect(t.rows[0]?.values[7]).toBe('Side gate,\r\nthen the "blue" door')
    expect(t.rows[1]?.values[8]).toBe('Board meets monthly\nCall Jan first')
    // The quoted line break does not count as a row: the second customer is on row 3.
    expect(t.rows.map((row) => row.row)).toEqual([2, 3])
  })

  it('reports ragged rows, and lets blank trailing values go', async () => {
    const t = await table(fixture('ragged.csv'))
    expect(t.problems).toEqual([
      {
        row: 2,
        message:
          'Row 2 has 7 values but the header row has 6 columns. A value with a comma in it probably needs quotes around it.',
      },
      { row: 3, message: 'Row 3 has 5 values but the header row has 6 columns. Check that no value is missing.' },
    ])
    expect(t.rows[1]?.values).toEqual([
      'Sofia Rodriguez',
      'sofia@example.com',
      '8 Palm Ave',
      'Fort Lauderdale',
      'FL',
      '',
    ])
    expect(t.rows[2]?.values).toHaveLength(6)
  })

  it('names the row of a quote that is never closed', async () => {
    const message = await refusal(bytes('Name,Address\nAnn,1 Palm Ave\nBob,"2 Palm Ave\nCarla,3 Palm Ave\n'))
    expect(message).toBe(
      `Row 3: a value starts with a quote (") that is never closed, so the rest of the file can't be read. Add the closing quote, or remove the opening one.`,
    )
  })

  it('refuses a file with only a header', async () => {
    expect(await refusal(bytes('Name,Address\r\n'))).toBe('This file has a header row but no customers under it.')
  })

  it('stops at the row cap', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `Customer ${i},${i} Palm Ave`).join('\n')
    expect(await refusal(bytes(`Name,Address\n${rows}\n`), { maxRows: 10 })).toBe(
      'This file has more than 10 rows. Split it into files of at most 10 rows.',
    )
    expect((await readCsv(bytes(`Name,Address\n${rows}\n`), { maxRows: 12 })).ok).toBe(true)
  })
})

describe('readCsv: bounded work (N7)', () => {
  /** A file of `columns` columns and `rows` rows of short values. */
  function wide(columns: number, rows: number, name = (i: number) => `c${i}`) {
    const header = Array.from({ length: columns }, (_, i) => name(i)).join(',')
    const row = Array.from({ length: columns }, (_, i) => String(i % 10)).join(',')
    return bytes([header, ...Array<string>(rows).fill(row)].join('\n'))
  }

  it('refuses 8,000 columns with a message that says how many it reads', async () => {
    const message = await refusal(wide(8000, 600))
    expect(message).toBe(
      'This file has 8,000 columns; Pool Bud reads at most 200. Remove the columns you do not need and upload it again.',
    )
    expect(message).toBe(tooManyColumns(8000))
  })

  it('refuses a header row longer than the layout sample (thousands of long column names)', async () => {
    const message = await refusal(wide(5000, 2, (i) => `A rather long column heading ${i}`))
    expect(message).toBe(tooManyColumns(5000))
  })

  it(`reads ${MAX_COLUMNS} columns, and refuses one more`, async () => {
    expect((await table(wide(MAX_COLUMNS, 3))).headers).toHaveLength(MAX_COLUMNS)
    expect(await refusal(wide(MAX_COLUMNS + 1, 3))).toBe(tooManyColumns(MAX_COLUMNS + 1))
  })

  it(`reads a cell of ${MAX_CELL_CHARS} characters, and refuses one more with its row`, async () => {
    const fits = 'n'.repeat(MAX_CELL_CHARS)
    expect((await table(bytes(`Name,Notes\nRita,${fits}\n`))).rows[0]?.values[1]).toBe(fits)
    expect(await refusal(bytes(`Name,Notes\nRita,short\nOlu,"${fits}x"\n`))).toBe(cellTooLong(3))
  })
})

describe('readCsv: the size cap', () => {
  /** A 50 MB CSV made as it is read, 64 kB at a time, counting what the reader pulled. */
  function fiftyMegabytes() {
    const line = 'Jane Doe,jane@example.com,(954) 555-0101,12 Palm Ave,Fort Lauderdale,FL,33301\n'
    const chunk = bytes(line.repeat(Math.ceil(65_536 / line.length)))
    const total = 50 * 1024 * 1024
    const tally = { pulled: 0, finished: false }
    async function* generate() {
      try {
        yield bytes('Name,Email,Phone,Address,City,State,Zip\n')
        while (tally.pulled < total) {
          tally.pulled += chunk.byteLength
          yield chunk
        }
      } finally {
        tally.finished = true
      }
    }
    return { generate, tally, chunkSize: chunk.byteLength }
  }

  it('refuses a 50 MB upload with plain words, having read no more than the cap', async () => {
    const upload = fiftyMegabytes()
    expect(await refusal(upload.generate())).toBe(TOO_LARGE)
    expect(TOO_LARGE).toBe('This file is too large. Split it into files under 10 MB.')
    expect(upload.tally.pulled).toBeLessThanOrEqual(MAX_FILE_BYTES + upload.chunkSize)
    // The generator was told to stop (its finally ran): nothing more will be read.
    expect(upload.tally.finished).toBe(true)
  })

  it('cancels a web ReadableStream (a request body) at the cap', async () => {
    const upload = fiftyMegabytes()
    let canceled = false
    const iterator = upload.generate()
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await iterator.next()
        if (next.done) controller.close()
        else controller.enqueue(next.value)
      },
      cancel() {
        canceled = true
      },
    })
    expect(await refusal(stream)).toBe(TOO_LARGE)
    expect(canceled).toBe(true)
    expect(upload.tally.pulled).toBeLessThan(MAX_FILE_BYTES + 3 * upload.chunkSize)
  })

  it('refuses an uploaded File by its size without reading it, and a Node stream at the cap', async () => {
    const file = new File([new Uint8Array(MAX_FILE_BYTES + 1)], 'customers.csv', { type: 'text/csv' })
    const unread = () => {
      throw new Error('the file was read')
    }
    for (const method of ['stream', 'arrayBuffer', 'bytes', 'text'])
      Object.defineProperty(file, method, { value: unread })
    expect(await refusal(file)).toBe(TOO_LARGE)
    const upload = fiftyMegabytes()
    const nodeStream = Readable.from(upload.generate())
    expect(await refusal(nodeStream)).toBe(TOO_LARGE)
    expect(upload.tally.pulled).toBeLessThan(MAX_FILE_BYTES + 3 * upload.chunkSize)
    expect(nodeStream.destroyed).toBe(true)
  })

  it('reads a file of exactly the cap, and refuses one byte more', async () => {
    const header = 'Name,Address\n'
    const line = 'Ann Smith,12 Palm Ave\n'
    const lines = Math.floor((MAX_FILE_BYTES - header.length) / line.length)
    const padding = MAX_FILE_BYTES - header.length - lines * line.length
    const text = `${header}${line.repeat(lines - 1)}Ann Smith,12 Palm Ave${' '.repeat(padding)}\n`
    expect(bytes(text).byteLength).toBe(MAX_FILE_BYTES)
    const result = await readCsv(new Blob([text]), { maxRows: lines })
    expect(result.ok && result.table.rows.length).toBe(lines)
    expect(await refusal(new Blob([text, ' ']), { maxRows: lines })).toBe(TOO_LARGE)
  })
})
