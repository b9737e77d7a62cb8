import { i18n, loadLanguage } from './i18n.ts';
import { saveLanguage } from './language-preference.ts';

export { SUPPORTED_LANGUAGES } from './language-preference.ts';

/** Switches the UI language (its texts load first) and remembers it on this device. */
export function setLanguage(language: string): void {
  saveLanguage(language);
  loadLanguage(language).then(() => i18n.changeLanguage(language), (error: unknown) => console.error(error));
}
