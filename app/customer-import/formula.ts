// Spreadsheet formulas in CSV cells (OWASP "CSV Injection"). A spreadsheet runs a cell that starts with `=`, `+`,
// `-` or `@` (or a tab or carriage return, or — in Apple Numbers — their full-width forms) as a formula:
// `=HYPERLINK(…)` can leak data or phish, `=cmd|…` could run a program. Every file we produce puts an apostrophe
// before every such text cell, which spreadsheets show as text: the CSV files through csv-stringify's
// `escape_formulas` (numbers passed as numbers, so a negative amount stays one), the rest — the QuickBooks IIF file,
// whose text an accountant opens in Excel, and the data export, whose cells arrive as text — through
// `escapeFormula` below, which does the same. The import takes that apostrophe off again, so export → import gives
// the same text back.

const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r', '\uff1d', '\uff0b', '\uff0d', '\uff20'])

/** A plain decimal number ("-93.00", "+1.5"): a spreadsheet reads it as that number, never as a formula. */
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/

/**
 * A text cell made inert: an apostrophe before a trigger (as csv-stringify's `escape_formulas` writes it). A plain
 * number is left alone, so a negative amount stays a number; amount columns should not be passed here at all.
 */
export function escapeFormula(cell: string): string {
  return TRIGGERS.has(cell.charAt(0)) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell
}

/** A cell as it was before the export escaped it (an apostrophe before a trigger is ours); others are unchanged. */
export function unescapeFormula(cell: string): string {
  return cell.startsWith("'") && TRIGGERS.has(cell.charAt(1)) ? cell.slice(1) : cell
}

/**
 * Text that is a formula rather than data: a trigger then a function call (`=HYPERLINK(`, `@SUM(`, `+cmd(`), a
 * DDE link (`=cmd|…`) or `=` before a name or reference (`=A1`). Phone numbers (`+1 813…`), negative amounts and
 * notes like "-- call first" are not.
 */
export function looksLikeFormula(text: string): boolean {
  const cell = text.normalize('NFKC').replace(/^[\t\r\n ]+/, '')
  return (
    /^[=+\-@]\s*[A-Za-z_][\w.]*\s*\(/.test(cell) ||
    /^[=+\-@]\s*[A-Za-z]\w*\s*\|/.test(cell) ||
    /^=\s*[A-Za-z]/.test(cell)
  )
}
