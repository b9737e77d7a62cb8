import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import bootTexts from 'virtual:forja/texts-es-boot';
import { initialLanguage } from './language-preference.ts';

type Tree = Record<string, unknown>;

/**
 * Languages besides Spanish, loaded when chosen: the default language is in the entry chunk, the
 * others (about 10 KB compressed each) are not downloaded by visitors who never pick them.
 */
const loaders: Record<string, () => Promise<Tree>> = {
  en: () => import('../../locales/en.json').then((module) => module.default as Tree),
};

/** Spanish by default, English as fallback once loaded (docs/product-rules.md#product), one namespace for the console's and the runtime's texts. */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'es',
  fallbackLng: 'en',
  resources: { es: { translation: bootTexts } },
  interpolation: { escapeValue: false },
  // Components drawn before a chunk of texts arrived draw again once it has.
  react: { bindI18nStore: 'added' },
  initAsync: false,
});

let allSpanish: Promise<void> | null = null;

/**
 * Adds the Spanish texts beyond the sign-in page's (src/app/boot-texts.ts), downloading them once;
 * every screen but the sign-in page waits for it (src/app/all-texts.tsx).
 */
export function loadAllTexts(): Promise<void> {
  allSpanish ??= import('virtual:forja/texts-es-rest').then((module) => {
    i18n.addResourceBundle('es', 'translation', module.default, true, false);
  });
  return allSpanish;
}

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
