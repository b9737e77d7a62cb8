import { i18n } from './i18n.ts';
import { saveLanguage } from './language-preference.ts';

export { SUPPORTED_LANGUAGES } from './language-preference.ts';

/** Switches the UI language and remembers it on this device. */
export function setLanguage(language: string): void {
  void i18n.changeLanguage(language);
  saveLanguage(language);
}
