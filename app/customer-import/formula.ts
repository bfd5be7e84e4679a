// Spreadsheet formulas in CSV cells (OWASP "CSV Injection"). A spreadsheet runs a cell that starts with `=`, `+`,
// `-` or `@` (and, in some, a tab or carriage return before them) as a formula: `=HYPERLINK(…)` can leak data or
// phish, `=cmd|…` could run a program. Every cell we export that starts with one of those characters gets a leading
// apostrophe, which spreadsheets show as text; the import takes that apostrophe off again, so export → import gives
// the same text back.

const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r'])

/** The cell as text a spreadsheet shows rather than runs. */
export function escapeFormula(cell: string): string {
  return TRIGGERS.has(cell.charAt(0)) ? `'${cell}` : cell
}

/** A cell as it was before `escapeFormula` (an apostrophe before a trigger is ours); anything else is unchanged. */
export function unescapeFormula(cell: string): string {
  return cell.startsWith("'") && TRIGGERS.has(cell.charAt(1)) ? cell.slice(1) : cell
}

/**
 * Text that is a formula rather than data: a trigger then a function call (`=HYPERLINK(`, `@SUM(`, `+cmd(`) or a
 * DDE link (`=cmd|…`). Phone numbers (`+1 813…`), negative amounts and notes like "-- call first" are not.
 */
export function looksLikeFormula(text: string): boolean {
  const cell = text.replace(/^[\t\r\n ]+/, '')
  return (
    /^[=+\-@]\s*[A-Za-z_][\w.]*\s*\(/.test(cell) ||
    /^[=+\-@]\s*[A-Za-z]\w*\s*\|/.test(cell) ||
    /^=\s*[A-Za-z]/.test(cell)
  )
}
