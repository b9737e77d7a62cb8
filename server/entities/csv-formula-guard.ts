/**
 * CSV formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with `=`,
 * `+`, `-`, `@`, tab or CR as a formula, and exported cells hold text anyone typed (chat messages
 * arrive from anonymous visitors). Such cells are written with a leading single quote, which
 * spreadsheets read as "text" and do not show. LF is included too: some programs trim it first;
 * and quotes (single or double) and spaces before the trigger, which a reader that trims cells or
 * strips CSV quotes would drop.
 *
 * A reader may split the file on another separator than the one it was written with, or ignore
 * quotes: `Acme,=2+5+cmd|'/c calc'!A1` is one cell of a `;` file but two for a reader splitting
 * on `,`. So the rule applies at every place a cell may start for any reader: the start of the
 * text and right after each `,`, `;`, tab, CR or LF in it (`Acme,'=2+5+...`). Inside a cell an
 * LF alone is not a trigger, so the line breaks of ordinary text (CR LF, `;` then LF) stay as
 * they are; what follows the LF is still checked.
 *
 * The rule is a bijection so an import restores the exact text: at each of those places, a quote
 * is added before any run of quotes, double quotes and spaces followed by a trigger character,
 * and an import removes one quote before such a run. The places are found by
 * characters the rule never adds or removes, so guarding each place is undone exactly. Plain
 * numbers ("-12.5", "-1e3") are left alone when they are the whole cell, so numeric columns stay
 * numbers in a spreadsheet; they are not formulas.
 */
const NEEDS_GUARD = /^['" ]*[=+\-@\t\r\n]/;
const GUARDED = /^'['" ]*[=+\-@\t\r\n]/;
const PLAIN_NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Where a reader with another separator (or one that ignores quotes) starts a new cell. */
const CELL_BREAK = /[,;\t\r\n]/;
const INNER_NEEDS_GUARD = /([,;\t\r\n])(?=['" ]*[=+\-@\t\r])/g;
const INNER_GUARDED = /([,;\t\r\n])'(?=['" ]*[=+\-@\t\r])/g;

/** First characters that may start a guarded cell (quote and space included); a fast path for the export's hot loop. */
const FIRST = new Set([...`'" =+-@\t\r\n`].map((c) => c.charCodeAt(0)));

export function guardFormula(text: string): string {
  const start = guardCellStart(text);
  return CELL_BREAK.test(text) ? start.replace(INNER_NEEDS_GUARD, "$1'") : start;
}

/**
 * The guard at the start of the text only: all of guardFormula for a text without `,`, `;`, tab,
 * CR or LF (the export's writer checks that with the regex that decides its quoting, one scan
 * instead of two per cell).
 */
export function guardCellStart(text: string): string {
  return text !== '' && FIRST.has(text.charCodeAt(0)) && NEEDS_GUARD.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export function unguardFormula(cell: string): string {
  const start = GUARDED.test(cell) ? cell.slice(1) : cell;
  return CELL_BREAK.test(start) ? start.replace(INNER_GUARDED, '$1') : start;
}
