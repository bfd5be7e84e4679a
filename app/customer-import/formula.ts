// Spreadsheet formulas in CSV cells (OWASP "CSV Injection"). A spreadsheet runs a cell that starts with `=`, `+`,
// `-` or `@` (or a tab or carriage return, or — in Apple Numbers — their full-width forms) as a formula:
// `=HYPERLINK(…)` can leak data or phish, `=cmd|…` could run a program. The export has csv-stringify put an
// apostrophe before every such cell (`escape_formulas`), which spreadsheets show as text; the import takes that
// apostrophe off again, so export → import gives the same text back.

const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r', '\uff1d', '\uff0b', '\uff0d', '\uff20'])

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
