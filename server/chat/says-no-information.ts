/**
 * Whether a model's answer is the "no information" phrase of the bot's prompt (or the bot's own
 * fallback) rather than an answer. Compared without case, accents, punctuation or surrounding
 * words, because models quote the phrase loosely ("Lo siento, no tengo información para
 * responder a eso."). A long answer that merely contains the phrase among real content is an
 * answer: only a reply at most a few words longer than the phrase counts.
 */
export function saysNoInformation(answer: string, phrases: readonly string[]): boolean {
  const text = normalise(answer);
  if (text === '') return true;
  return phrases.some((phrase) => {
    const wanted = normalise(phrase);
    return wanted !== '' && text.includes(wanted) && text.length <= wanted.length + EXTRA_CHARS;
  });
}

/** Room for "Lo siento," / "Disculpa, pero" around the phrase. */
const EXTRA_CHARS = 40;

function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Whether a reply that begins with `text` could still end up judged by saysNoInformation: only
 * while it is no longer than the longest phrase plus the room around it. Past that, it is an answer.
 */
export function mayYetSayNoInformation(text: string, phrases: readonly string[]): boolean {
  const longest = Math.max(0, ...phrases.map((phrase) => normalise(phrase).length));
  return normalise(text).length <= longest + EXTRA_CHARS;
}
