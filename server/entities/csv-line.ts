/**
 * One CSV record, RFC 4180: a cell is quoted when it holds the separator, a quote, CR or LF, and
 * quotes inside are doubled; records end with CRLF. Hand-written rather than csv-stringify on
 * the export hot path: profiles of a 1M-row export spent more time in csv-stringify's option
 * handling and per-record casting than in this whole function (the rules are these four lines).
 */
export function csvLine(cells: readonly string[], separator: string): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (i > 0) line += separator;
    line += needsQuotes(cell, separator) ? `"${cell.replace(/"/g, '""')}"` : cell;
  }
  return line + '\r\n';
}

function needsQuotes(cell: string, separator: string): boolean {
  return cell.includes(separator) || cell.includes('"') || cell.includes('\n') || cell.includes('\r');
}
