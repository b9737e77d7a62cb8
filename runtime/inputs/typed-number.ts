/**
 * Numbers as people type them (issue 27 item 1): the UI language's decimal mark and the other one
 * are both read as the decimal point ("0,7" and "0.7" are 0.7 in Spanish and in English); no
 * thousands marks (is "1,500" one and a half or fifteen hundred?). A text that is no number, or
 * whose digits a JavaScript number cannot hold exactly, is kept as typed and refused by the form,
 * never turned into another number.
 */

export type DecimalMark = '.' | ',';

/** The decimal mark of a language ('es' → ',', 'en' → '.'), as Intl writes 1.5. */
export function decimalMark(language: string): DecimalMark {
  try {
    const part = new Intl.NumberFormat(language || 'en').formatToParts(1.5).find((p) => p.type === 'decimal');
    return part?.value === ',' ? ',' : '.';
  } catch {
    return '.';
  }
}

/** A number's plain digits ("0.0000001", not "1e-7"). */
function plainDigits(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/** A stored value as the input shows it: numbers with the language's mark, anything else as text. */
export function formatTypedNumber(value: unknown, mark: DecimalMark): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'number') return String(value);
  const text = plainDigits(value);
  return mark === ',' ? text.replace('.', ',') : text;
}

export type TypedNumber =
  | { kind: 'empty' }
  | { kind: 'number'; value: number }
  /** Not a number as typed (letters, two marks, 1e3, more digits than a number holds): kept as text. */
  | { kind: 'invalid'; text: string };

const NUMBER_TEXT = /^([-+]?)(\d*)(?:[.,](\d+))?$/;

/** Reads a typed text: empty, a number it means exactly, or invalid. */
export function parseTypedNumber(text: string): TypedNumber {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty' };
  const match = NUMBER_TEXT.exec(trimmed);
  if (!match || (match[2] === '' && match[3] === undefined)) return { kind: 'invalid', text };
  const [, sign, whole, fraction = ''] = match;
  const value = Number(`${sign === '-' ? '-' : ''}${whole || '0'}.${fraction || '0'}`);
  if (!Number.isFinite(value)) return { kind: 'invalid', text };
  // The digits typed, without the zeros that do not change the number, must be the number's own:
  // else the number stored would not be the one typed (0.1000000000000000055511 or 2^53 + 1).
  const canonical = `${(whole.replace(/^0+/, '') || '0')}${fraction.replace(/0+$/, '') ? `.${fraction.replace(/0+$/, '')}` : ''}`;
  if (plainDigits(Math.abs(value)) !== canonical) return { kind: 'invalid', text };
  return { kind: 'number', value: value === 0 ? 0 : value };
}
