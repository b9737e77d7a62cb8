// Issue 27 (smaller defects): "1 fragmentos", "1 conversaciones movidas". Every text that shows a
// count of things has a singular and a plural form (i18next's _one/_other), in both languages;
// the few left as one text name why (a count that is never 1, or no noun that agrees with it).
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import es from '../../../locales/es.json';
import en from '../../../locales/en.json';

/** Counts that are never 1 where they are shown, or shown with no noun that agrees. */
const SINGLE_FORM = new Set([
  'validation.refAmbiguous', // two or more records match
  'error.jobs.tooMany', // the limit, several tasks
  'error.bulkTooMany', // more than the bulk limit: always several
  'crud.selection.selectAllMatching', // offered only when more rows match than the page shows
  'chat.sources', // "Fuentes (3)": the count in parentheses
  'chat.preview.fragments', // "Fragmentos recuperados (3)": the same
]);

function countTexts(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    if (value && typeof value === 'object') return countTexts(value as Record<string, unknown>, `${prefix}${key}.`);
    return typeof value === 'string' && value.includes('{{count}}') ? [`${prefix}${key}`] : [];
  });
}

describe.each([['es', es], ['en', en]] as const)('%s texts with a count', (language, texts) => {
  const keys = countTexts(texts as Record<string, unknown>);
  it('have a singular and a plural form, or are known to need one form', () => {
    const bare = keys.filter((key) => !/_(zero|one|two|few|many|other)$/.test(key) && !SINGLE_FORM.has(key));
    expect(bare).toEqual([]);
    for (const key of keys.filter((candidate) => candidate.endsWith('_one'))) expect(keys, key).toContain(key.replace(/_one$/, '_other'));
  });

  it('say 1 in the singular and 2 in the plural', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: language, resources: { [language]: { translation: texts } }, interpolation: { escapeValue: false } });
    const plural = keys.filter((key) => key.endsWith('_one')).map((key) => key.replace(/_one$/, ''));
    expect(plural.length).toBeGreaterThan(10);
    for (const key of plural) {
      const one = i18n.t(key, { count: 1, shown: 1, time: 't' });
      const two = i18n.t(key, { count: 2, shown: 2, time: 't' });
      expect(one, key).not.toBe(two);
      expect(one, key).not.toBe(key);
    }
    expect(i18n.t('contactMerge.done', { count: 1 })).toBe(language === 'es' ? 'Contacto fusionado: 1 conversación movida' : 'Contact merged: 1 conversation moved');
    expect(i18n.t('knowledge.state.summary', { count: 1, time: 'hoy' })).toBe(language === 'es' ? 'hoy · 1 fragmento' : 'hoy · 1 fragment');
  });
});
