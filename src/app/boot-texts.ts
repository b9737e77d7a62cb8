/**
 * The Spanish texts the sign-in page and the app's frame need (layouts, header, not-found, error
 * and validation messages, the dialogs' close label): the entry chunk carries these, the rest of
 * locales/es.json is a chunk of its own (scripts/texts-chunks.ts) loaded before any other screen
 * renders (src/app/all-texts.tsx). Keys are top-level sections or dotted paths to one entry.
 */
export const BOOT_TEXT_KEYS = ['app', 'login', 'error', 'validation', 'common', 'crud.dismissDialog'] as const;
