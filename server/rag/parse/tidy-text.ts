/**
 * One layout for all extracted text: Unix newlines, no trailing spaces, runs of spaces and tabs
 * collapsed, at most one blank line between paragraphs. The chunker splits on blank lines, so
 * paragraph boundaries are what matter here.
 */
export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\t\f\v \u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
