// Bytes of an uploaded customer spreadsheet in, rows out (docs/product.md "Import", decision 014). Reading stops at the
// size cap, so a 50 MB upload costs 10 MB of memory at most. The whole (capped) file is then decoded at once: a
// Windows-1252 file can be plain ASCII for megabytes before its first "é", so the encoding is only known at the
// end. The delimiter is the one of comma, semicolon, tab or bar that gives the sample steady columns, and the rows
// come from csv-parse's streaming parser (quotes, quoted commas and newlines, CRLF), stopped at the row cap.
// Problems come back in plain words: the whole file's as a failed Result, a row's in `problems`.
import { Readable } from 'node:stream'
import { CsvError, parse } from 'csv-parse'
import { parse as parseSample } from 'csv-parse/sync'
import { failure, type Result, success } from '~/utils/result'

export const MAX_FILE_BYTES = 10 * 1024 * 1024
export const MAX_ROWS = 10_000
/**
 * Bounded work for a file (N7): at most this many columns — a customer sheet has a few dozen; 8,000 columns made
 * a 21 MB page — and at most this many characters a cell (the longest field, notes, holds 2,000).
 */
export const MAX_COLUMNS = 200
export const MAX_CELL_CHARS = 2_000
export const TOO_LARGE = 'This file is too large. Split it into files under 10 MB.'

/** What a file with too many columns is told. */
export function tooManyColumns(columns: number) {
  return (
    `This file has ${columns.toLocaleString('en-US')} columns; Pool Bud reads at most ${MAX_COLUMNS}. ` +
    'Remove the columns you do not need and upload it again.'
  )
}

/** What a file with a value too long for any field is told. */
export function cellTooLong(row: number) {
  return (
    `Row ${row}: a value has more than ${MAX_CELL_CHARS.toLocaleString('en-US')} characters; Pool Bud reads at ` +
    `most ${MAX_CELL_CHARS.toLocaleString('en-US')} in a cell. Shorten it and upload the file again.`
  )
}

export type CsvSource = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>
export type CsvEncoding = 'utf-8' | 'utf-8 with BOM' | 'utf-16le' | 'utf-16be' | 'windows-1252'
export type CsvDelimiter = ',' | ';' | '\t' | '|'

/** A problem with one row; `row` is the row number a spreadsheet shows (the header is usually row 1). */
export type RowProblem = { row: number; column?: string; message: string }

/** A data row: its spreadsheet row number and one value per header column. */
export type CsvRow = { row: number; values: string[] }

export type CsvTable = {
  encoding: CsvEncoding
  delimiter: CsvDelimiter
  headerRow: number
  headers: string[]
  rows: CsvRow[]
  problems: RowProblem[]
}

export type ReadCsvOptions = { maxBytes?: number; maxRows?: number }

const DELIMITERS: CsvDelimiter[] = [',', ';', '\t', '|']
const SAMPLE_CHARS = 64 * 1024
const PARSE_SLICE_CHARS = 64 * 1024
const SAVE_AS_CSV = 'In your spreadsheet choose File → Save As (or Download) → CSV, then upload that file.'

export async function readCsv(source: CsvSource, options: ReadCsvOptions = {}): Promise<Result<{ table: CsvTable }>> {
  const maxBytes = options.maxBytes ?? MAX_FILE_BYTES
  const bytes = await readCapped(source, maxBytes)
  if (!bytes) return failure('invalid', TOO_LARGE)
  const refusal = refuseNonText(bytes)
  if (refusal) return failure('invalid', refusal)
  const { text, encoding } = decode(bytes)
  if (!text.trim()) return failure('invalid', 'This file is empty.')
  if (hasControlCharacters(text.slice(0, SAMPLE_CHARS))) {
    return failure('invalid', `This file is not a CSV file: it has characters a text file never has. ${SAVE_AS_CSV}`)
  }
  const wide = firstLineColumns(text)
  if (wide > MAX_COLUMNS) return failure('invalid', tooManyColumns(wide))
  const layout = detectLayout(text)
  if (layout && layout.columns > MAX_COLUMNS) return failure('invalid', tooManyColumns(layout.columns))
  if (!layout) {
    return failure(
      'invalid',
      'This file does not look like a spreadsheet saved as CSV: every line has a single value, with no commas, ' +
        `semicolons or tabs between values. ${SAVE_AS_CSV}`,
    )
  }
  const parsed = await parseRows(text, layout, options.maxRows ?? MAX_ROWS)
  if (!parsed.ok) return parsed
  return success({ table: { encoding, ...parsed.table } })
}

/** The source's bytes, or null as soon as they pass `maxBytes` (the rest is never read). */
async function readCapped(source: CsvSource, maxBytes: number): Promise<Uint8Array | null> {
  if (source instanceof ArrayBuffer) source = new Uint8Array(source)
  if (source instanceof Uint8Array) return source.byteLength > maxBytes ? null : source
  if (source instanceof Blob) {
    if (source.size > maxBytes) return null
    source = source.stream()
  }
  const chunks: Uint8Array[] = []
  let total = 0
  if (source instanceof ReadableStream) {
    const reader = source.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > maxBytes) {
        await reader.cancel()
        return null
      }
      chunks.push(value)
    }
  } else {
    // Leaving the loop early calls the iterator's return(): a Node stream is destroyed, a generator finished.
    for await (const chunk of source) {
      total += chunk.byteLength
      if (total > maxBytes) return null
      chunks.push(chunk)
    }
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

function startsWith(bytes: Uint8Array, signature: number[]) {
  return signature.every((byte, i) => bytes[i] === byte)
}

const UTF8_BOM = [0xef, 0xbb, 0xbf]
const UTF16LE_BOM = [0xff, 0xfe]
const UTF16BE_BOM = [0xfe, 0xff]

/** Plain words for the files people upload by mistake: a workbook, a PDF, an image, anything with NUL bytes. */
function refuseNonText(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    return `This is an Excel workbook (.xlsx) or another zipped file, not a CSV file. ${SAVE_AS_CSV}`
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    return `This is an older Excel workbook (.xls), not a CSV file. ${SAVE_AS_CSV}`
  }
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return `This is a PDF, not a CSV file. ${SAVE_AS_CSV}`
  if (startsWith(bytes, UTF16LE_BOM) || startsWith(bytes, UTF16BE_BOM)) return null
  if (bytes.subarray(0, SAMPLE_CHARS).includes(0)) {
    return `This file is not a CSV file (it looks like a picture, a workbook or another binary file). ${SAVE_AS_CSV}`
  }
  return null
}

/**
 * What WHATWG's windows-1252 decodes 0x80–0x9F to (€, ‚, ƒ, „, …, ’, “, ”, –, —, ™, …). Node 20's TextDecoder
 * decodes that range as Latin-1 control characters instead, which would turn every curly apostrophe of a Windows
 * spreadsheet into an invisible U+0092, so the range is mapped here.
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'.split('')

function decode(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  if (startsWith(bytes, UTF8_BOM)) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8 with BOM' }
  }
  // Excel's "Unicode Text" is UTF-16 with a byte order mark (and tabs).
  if (startsWith(bytes, UTF16LE_BOM)) return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16le' }
  if (startsWith(bytes, UTF16BE_BOM)) return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16be' }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' }
  } catch {
    // Not UTF-8: what a Windows spreadsheet saves by default in the Americas and western Europe.
    const latin = new TextDecoder('latin1').decode(bytes)
    const text = latin.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] ?? c)
    return { text, encoding: 'windows-1252' }
  }
}

function hasControlCharacters(sample: string) {
  // Tab, line feed and carriage return belong in a CSV file; other C0 controls are a sign of a binary file.
  let controls = 0
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i)
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) controls++
  }
  return controls > Math.max(2, sample.length / 1000)
}

type Layout = { delimiter: CsvDelimiter; headerIndex: number; columns: number }

function isBlank(record: string[]) {
  return record.every((value) => value.trim() === '')
}

/**
 * The delimiter that gives the file's first 64 kB the steadiest columns (the largest share of lines with the usual
 * number of values, which must be at least two), and the header: the
 * first record with the usual number of values, so a title line above the header ("Customer export, May") is
 * passed over. Null when no candidate splits the lines into columns.
 */
function detectLayout(text: string): Layout | null {
  let sample = text.slice(0, SAMPLE_CHARS)
  if (text.length > SAMPLE_CHARS) sample = sample.slice(0, Math.max(sample.lastIndexOf('\n'), 1))
  let best: (Layout & { steadiness: number }) | null = null
  for (const delimiter of DELIMITERS) {
    const records: string[][] = []
    try {
      parseSample(sample, {
        delimiter,
        relax_column_count: true,
        relax_quotes: true,
        to: 500,
        on_record: (record: string[]) => {
          records.push(record)
          return record
        },
      })
    } catch {
      // The sample may end inside a quoted value; the records before it are enough.
    }
    const counts = records.map((record, index) => ({ index, count: record.length, blank: isBlank(record) }))
    const filled = counts.filter((record) => !record.blank)
    const tally = new Map<number, number>()
    for (const { count } of filled) tally.set(count, (tally.get(count) ?? 0) + 1)
    let columns = 0
    let most = 0
    // The most common number of values; on a tie the one seen first (a short file's header decides).
    for (const [count, times] of tally) {
      if (times > most) [columns, most] = [count, times]
    }
    if (columns < 2) continue
    const header = filled.find((record) => record.count === columns)
    if (!header) continue
    const steadiness = most / filled.length
    // Then more columns, then the earlier candidate: a comma file whose notes all hold one semicolon stays comma.
    if (!best || steadiness > best.steadiness || (steadiness === best.steadiness && columns > best.columns)) {
      best = { delimiter, headerIndex: header.index, columns, steadiness }
    }
  }
  return best && { delimiter: best.delimiter, headerIndex: best.headerIndex, columns: best.columns }
}

/**
 * The columns of a first line too long for the layout's sample (a header of thousands of columns): its values by
 * the delimiter that splits it most. Quotes are not read — it only has to tell "far too many" from "fine".
 */
function firstLineColumns(text: string): number {
  const end = text.indexOf('\n')
  if (end !== -1 && end < SAMPLE_CHARS) return 0
  const line = end === -1 ? text : text.slice(0, end)
  return Math.max(...DELIMITERS.map((delimiter) => line.split(delimiter).length))
}

function* slices(text: string) {
  for (let start = 0; start < text.length; start += PARSE_SLICE_CHARS) {
    yield text.slice(start, start + PARSE_SLICE_CHARS)
  }
}

function plural(count: number, word: string) {
  return `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`
}

async function parseRows(
  text: string,
  layout: Layout,
  maxRows: number,
): Promise<Result<{ table: Omit<CsvTable, 'encoding'> }>> {
  const parser = parse({ delimiter: layout.delimiter, relax_column_count: true, relax_quotes: true })
  const source = Readable.from(slices(text))
  source.pipe(parser)
  let headers: string[] = []
  let headerRow = 0
  const rows: CsvRow[] = []
  const problems: RowProblem[] = []
  // Blank lines are records too, so a record's position is the row number a spreadsheet shows for it.
  let row = 0
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++
      if (row - 1 < layout.headerIndex) continue
      if (record.some((value) => value.length > MAX_CELL_CHARS)) {
        source.destroy()
        return failure('invalid', cellTooLong(row))
      }
      if (row - 1 === layout.headerIndex) {
        if (record.length > MAX_COLUMNS) {
          source.destroy()
          return failure('invalid', tooManyColumns(record.length))
        }
        headerRow = row
        headers = record.map((header, i) => header.trim() || `Column ${i + 1}`)
        continue
      }
      if (isBlank(record)) continue
      if (rows.length === maxRows) {
        source.destroy()
        return failure(
          'invalid',
          `This file has more than ${plural(maxRows, 'row')}. Split it into files of at most ${plural(maxRows, 'row')}.`,
        )
      }
      rows.push({ row, values: fitToHeader(record, headers.length, row, problems) })
    }
  } catch (error) {
    source.destroy()
    if (!(error instanceof CsvError)) throw error
    const at = typeof error.records === 'number' ? error.records + 1 : row + 1
    if (error.code === 'CSV_MAX_RECORD_SIZE') {
      return failure(
        'invalid',
        `Row ${at}: a value runs on for more than 128,000 characters, usually because a quote (") is never ` +
          'closed. Check the quotes on this row.',
      )
    }
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
      return failure(
        'invalid',
        `Row ${at}: a value starts with a quote (") that is never closed, so the rest of the file can't be read. ` +
          'Add the closing quote, or remove the opening one.',
      )
    }
    return failure('invalid', `Row ${at} can't be read as CSV. Check its quotes and commas.`)
  }
  if (rows.length === 0) return failure('invalid', 'This file has a header row but no customers under it.')
  return success({ table: { delimiter: layout.delimiter, headerRow, headers, rows, problems } })
}

/**
 * One value per header column. Extra values that are blank (trailing commas, common in spreadsheet exports) are
 * dropped; other extras, or missing values, shift values into the wrong columns, so the row gets a problem.
 */
function fitToHeader(record: string[], columns: number, row: number, problems: RowProblem[]): string[] {
  if (record.length > columns) {
    if (record.slice(columns).some((value) => value.trim() !== '')) {
      problems.push({
        row,
        message:
          `Row ${row} has ${plural(record.length, 'value')} but the header row has ${plural(columns, 'column')}. ` +
          'A value with a comma in it probably needs quotes around it.',
      })
    }
    return record.slice(0, columns)
  }
  if (record.length < columns) {
    problems.push({
      row,
      message:
        `Row ${row} has ${plural(record.length, 'value')} but the header row has ${plural(columns, 'column')}. ` +
        'Check that no value is missing.',
    })
    return [...record, ...Array<string>(columns - record.length).fill('')]
  }
  return record
}
