/** A locale file: nested objects of texts (locales/es.json). */
export type LocaleTree = { [key: string]: string | LocaleTree };
/** Texts of locale keys a draft names, by key: { "field.faq.question": { es: "Pregunta", en: "Question" } }. */
export type StudioTexts = Record<string, { es: string; en: string }>;

export const MAX_TEXTS = 500;
export const MAX_TEXT_CHARS = 2_000;
export const LOCALE_KEY = /^[A-Za-z0-9_-]{1,80}(\.[A-Za-z0-9_-]{1,80}){1,6}$/;
/** Segments that name an object's machinery, not a text: `__proto__.x` would write into every object of the process. */
const RESERVED_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether `key` is a locale key the studio may write (dotted words, none of them reserved). */
export function isLocaleKey(key: string): boolean {
  return LOCALE_KEY.test(key) && !key.split('.').some((part) => RESERVED_SEGMENTS.has(part));
}

/** What is wrong with a draft's texts (key shape, both languages present, lengths); null when fine. */
export function textsProblem(texts: unknown): string | null {
  if (texts === undefined) return null;
  if (typeof texts !== 'object' || texts === null || Array.isArray(texts)) return 'texts must be an object of { "<locale key>": { "es": "...", "en": "..." } }';
  const entries = Object.entries(texts);
  if (entries.length > MAX_TEXTS) return `texts holds ${entries.length} keys; at most ${MAX_TEXTS} per save`;
  for (const [key, value] of entries) {
    if (!isLocaleKey(key)) return `texts: "${key}" is not a locale key (dotted words of letters, digits, _ and -, e.g. field.faq.question)`;
    const pair = value as { es?: unknown; en?: unknown } | null;
    for (const locale of ['es', 'en'] as const) {
      const text = pair?.[locale];
      if (typeof text !== 'string' || text.trim() === '') return `texts["${key}"].${locale}: write the ${locale === 'es' ? 'Spanish' : 'English'} text`;
      if (text.length > MAX_TEXT_CHARS) return `texts["${key}"].${locale}: ${text.length} characters; at most ${MAX_TEXT_CHARS}`;
    }
  }
  return null;
}

/** `tree` with each key of `texts` set to its text in `locale` (a copy; the input is not changed). */
export function applyTexts(tree: LocaleTree, texts: StudioTexts, locale: 'es' | 'en'): LocaleTree {
  const copy = structuredClone(tree);
  for (const [key, pair] of Object.entries(texts)) {
    if (!isLocaleKey(key)) throw new Error(`texts: "${key}" is not a locale key`);
    const parts = key.split('.');
    let node = copy;
    for (const part of parts.slice(0, -1)) {
      const next = Object.hasOwn(node, part) ? node[part] : undefined;
      if (typeof next === 'string') throw new TextConflictError(key, part);
      if (next === undefined) node[part] = {};
      node = node[part] as LocaleTree;
    }
    const last = parts.at(-1)!;
    if (Object.hasOwn(node, last) && typeof node[last] === 'object') throw new TextConflictError(key, last);
    node[last] = pair[locale];
  }
  return copy;
}

/** A key that would nest under a text, or replace a group of texts. */
export class TextConflictError extends Error {
  constructor(readonly key: string, part: string) {
    super(`texts: "${key}" cannot be written: "${part}" already holds ${part === key.split('.').at(-1) ? 'a group of texts' : 'a text'} in the locale files; choose another key`);
    this.name = 'TextConflictError';
  }
}

/** The text of `key` in `tree`, or null. */
export function textOf(tree: LocaleTree, key: string): string | null {
  let node: string | LocaleTree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return null;
    node = node[part];
  }
  return typeof node === 'string' ? node : null;
}

/** Locale keys a draft adds or changes, with both texts and what each was. */
export function changedTexts(trees: Record<'es' | 'en', LocaleTree>, texts: StudioTexts): Array<{ key: string; es: string; en: string; change: 'add' | 'change'; before: { es: string | null; en: string | null } }> {
  const out = [];
  for (const [key, pair] of Object.entries(texts)) {
    const before = { es: textOf(trees.es, key), en: textOf(trees.en, key) };
    if (before.es === pair.es && before.en === pair.en) continue;
    out.push({ key, es: pair.es, en: pair.en, change: before.es === null && before.en === null ? 'add' as const : 'change' as const, before });
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

/** Every string of a manifest that names a locale key the trees hold (what GET sends to edit labels in both languages). */
export function textsOfManifest(manifest: unknown, trees: Record<'es' | 'en', LocaleTree>): StudioTexts {
  const out: StudioTexts = {};
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      if (!isLocaleKey(value) || Object.hasOwn(out, value)) return;
      const es = textOf(trees.es, value);
      const en = textOf(trees.en, value);
      if (es !== null || en !== null) out[value] = { es: es ?? '', en: en ?? '' };
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(manifest);
  return out;
}
