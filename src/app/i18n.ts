import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import es from '../../locales/es.json';
import { initialLanguage } from './language-preference.ts';

type Tree = Record<string, unknown>;

/**
 * Languages besides Spanish, loaded when chosen: the default language is in the entry chunk, the
 * others (about 10 KB compressed each) are not downloaded by visitors who never pick them.
 */
const loaders: Record<string, () => Promise<Tree>> = {
  en: () => import('../../locales/en.json').then((module) => module.default as Tree),
};

/** Spanish by default, English as fallback once loaded (spec §1), one namespace for the console's and the runtime's texts. */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'es',
  fallbackLng: 'en',
  resources: { es: { translation: es as Tree } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** Makes `language`'s texts available (a no-op once loaded); an unknown language is an error. */
export async function loadLanguage(language: string): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  const load = loaders[language];
  if (!load) throw new Error(`No texts for language "${language}": add locales/${language}.json and a loader in src/app/i18n.ts`);
  i18n.addResourceBundle(language, 'translation', await load(), true, false);
}

/** Resolves once the remembered language's texts are loaded and active; the app renders after it. */
export const i18nReady: Promise<void> = (async () => {
  const language = initialLanguage();
  if (language === 'es') return;
  try {
    await loadLanguage(language);
    await i18n.changeLanguage(language);
  } catch (error) {
    // Offline or a chunk gone after a release: Spanish rather than no console.
    console.error(error);
  }
})();
