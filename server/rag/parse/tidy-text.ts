/**
 * One layout for all extracted text: no NUL characters (U+0000: PostgreSQL cannot store them, and
 * a document's text becomes knowledge and training data), Unix newlines, no trailing spaces, runs
 * of spaces and tabs collapsed, at most one blank line between paragraphs. The chunker splits on
 * blank lines, so paragraph boundaries are what matter here.
 */
export function tidyText(text: string): string {
  return tidyUntrimmed(text).trim();
}

function tidyUntrimmed(text: string): string {
  return text
    .replace(/\0/g, '')
    .replace(/\r\n?/g, '\n')
    // Runs of blanks become one space. Written to skip the lone plain spaces between words (the
    // same result): replacing each of them with itself took seconds on a 20 MB text.
    .replace(/[\t\f\v\u00a0][\t\f\v \u00a0]*| [\t\f\v \u00a0]+/g, ' ')
    // Spaces around newlines go; bare newlines (most of them) are not matched at all.
    .replace(/ +\n *|\n +/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** Slice size for tidyTextYielding: about 40 ms of work. */
const SLICE_CHARS = 1024 * 1024;

/**
 * tidyText for large texts (a 20 MB upload took seconds in one go): the same result, computed in
 * slices of about 1 M characters with the event loop running in between. Slices are cut between
 * two non-blank characters, where none of the rules can match across the cut.
 */
export async function tidyTextYielding(raw: string): Promise<string> {
  // NULs go first, so slices are cut in the text the rules see.
  const text = raw.includes('\0') ? raw.replace(/\0/g, '') : raw;
  if (text.length <= SLICE_CHARS) return tidyText(text);
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let cut = Math.min(text.length, start + SLICE_CHARS);
    while (cut < text.length && (/\s/.test(text[cut - 1]) || /\s/.test(text[cut]))) cut += 1;
    parts.push(tidyUntrimmed(text.slice(start, cut)));
    start = cut;
    if (start < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return parts.join('').trim();
}
