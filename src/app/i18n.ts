import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import es from '../../locales/es.json';
import en from '../../locales/en.json';
import { runtimeLocales } from '../../runtime/i18n/runtime-locales.ts';
import { initialLanguage } from './language-preference.ts';

type Tree = Record<string, unknown>;

/** Deep merge: runtime texts fill in keys the app locales do not have yet, never override them. */
function merge(base: Tree, extra: Tree): Tree {
  const out: Tree = { ...extra };
  for (const [key, value] of Object.entries(base)) {
    out[key] = value && typeof value === 'object' && out[key] && typeof out[key] === 'object' ? merge(value as Tree, out[key] as Tree) : value;
  }
  return out;
}

/** Spanish by default, English as fallback (spec §1), one namespace for app + runtime keys. */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: initialLanguage(),
  fallbackLng: 'en',
  resources: {
    es: { translation: merge(es as Tree, runtimeLocales.es as unknown as Tree) },
    en: { translation: merge(en as Tree, runtimeLocales.en as unknown as Tree) },
  },
  interpolation: { escapeValue: false },
  initAsync: false,
});
