// Whether a JSON value is a value of a field type, before any rule of the field applies (the
// generator checks a manifest's `default` with it). `allowed`: the values of an enum field.

export type IsValue = (value: unknown, allowed: readonly string[] | null) => boolean;

const isText = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
const isAllowed = (value: unknown, allowed: readonly string[] | null) => isText(value) && (!allowed || allowed.includes(value));

export const isTextValue: IsValue = (value) => isText(value);
export const isEnumValue: IsValue = (value, allowed) => isAllowed(value, allowed);
export const isNumberValue: IsValue = (value) => typeof value === 'number' && Number.isFinite(value);
export const isBooleanValue: IsValue = (value) => typeof value === 'boolean';
export const isObjectValue: IsValue = (value) => isObject(value);
export const isTextList: IsValue = (value) => Array.isArray(value) && value.every(isText);
export const isEnumList: IsValue = (value, allowed) => Array.isArray(value) && value.every((item) => isAllowed(item, allowed));
export const isNumberList: IsValue = (value) => Array.isArray(value) && value.every((item) => typeof item === 'number');
export const isObjectList: IsValue = (value) => Array.isArray(value) && value.every((item) => item !== null && typeof item === 'object');
