// How a stored value of one field type becomes a value of another, used by the schema
// evolution plan (server/db/plan-migrations.ts) to accept a type change only when every
// stored value converts. Pure functions: safe in the server, the generator and the browser.

/** Returned by a conversion when the value has no faithful form in the target type. */
export const UNCONVERTIBLE: unique symbol = Symbol('unconvertible');
export type Converted = unknown | typeof UNCONVERTIBLE;

/** What a conversion needs to know about the field it converts into. */
export interface ConversionTarget {
  /** Allowed values of an enum / array.enum target. */
  values: readonly string[] | null;
  /** A number target stored as an integer column. */
  integer: boolean;
}

export type Convert = (value: unknown, to: ConversionTarget) => Converted;

export const toText: Convert = (value) =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : UNCONVERTIBLE;

/** Text that parses as a finite number in full ("12", " 3.5 "), never a prefix ("12 apples"). */
export const toNumber: Convert = (value, to) => {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'boolean') number = value ? 1 : 0;
  else if (typeof value === 'string' && value.trim() !== '') number = Number(value.trim());
  else return UNCONVERTIBLE;
  if (!Number.isFinite(number)) return UNCONVERTIBLE;
  return to.integer && !Number.isInteger(number) ? UNCONVERTIBLE : number;
};

export const toEnum: Convert = (value, to) => {
  const text = toText(value, to);
  if (text === UNCONVERTIBLE) return UNCONVERTIBLE;
  return to.values === null || to.values.includes(text as string) ? text : UNCONVERTIBLE;
};

export const toBoolean: Convert = (value) => {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (value === 'true' || value === 'false') return value === 'true';
  return UNCONVERTIBLE;
};

/** Text a date field shows and sorts: it must parse as a date. */
export const toDate: Convert = (value) =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : UNCONVERTIBLE;

/** One value becomes a list of one (none for an empty value). */
export function wrapped(convert: Convert): Convert {
  return (value, to) => {
    const item = convert(value, to);
    return item === UNCONVERTIBLE ? UNCONVERTIBLE : [item];
  };
}

/** Every item of a list converts, or the list does not. */
export function eachItem(convert: Convert): Convert {
  return (value, to) => {
    if (!Array.isArray(value)) return UNCONVERTIBLE;
    const items = value.map((item) => convert(item, to));
    return items.includes(UNCONVERTIBLE) ? UNCONVERTIBLE : items;
  };
}

export const unchanged: Convert = (value) => value;
