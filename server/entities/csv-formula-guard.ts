/**
 * CSV formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with `=`,
 * `+`, `-`, `@`, tab or CR as a formula, and exported cells hold text anyone typed (chat messages
 * arrive from anonymous visitors). Such cells are written with a leading single quote, which
 * spreadsheets read as "text" and do not show. LF is included too: some programs trim it first.
 *
 * The rule is a bijection so an import restores the exact text: the quote is added to any cell
 * that is zero or more quotes followed by a trigger character, and an import removes one quote
 * from any cell that is one or more quotes followed by one. Plain numbers ("-12.5", "-1e3") are
 * left alone so numeric columns stay numbers in a spreadsheet; they are not formulas.
 */
const NEEDS_GUARD = /^'*[=+\-@\t\r\n]/;
const GUARDED = /^'+[=+\-@\t\r\n]/;
const PLAIN_NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** First characters that may start a guarded cell (quote included); a fast path for the export's hot loop. */
const FIRST = new Set([...`'=+-@\t\r\n`].map((c) => c.charCodeAt(0)));

export function guardFormula(text: string): string {
  if (text === '' || !FIRST.has(text.charCodeAt(0)) || !NEEDS_GUARD.test(text) || PLAIN_NUMBER.test(text)) return text;
  return `'${text}`;
}

export function unguardFormula(cell: string): string {
  return GUARDED.test(cell) ? cell.slice(1) : cell;
}
