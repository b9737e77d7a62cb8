export const SUPPORTED_LANGUAGES = ['es', 'en'] as const;
const STORAGE_KEY = 'forja.language';

/** The remembered language, Spanish by default (docs/product-rules.md#product). */
export function initialLanguage(): string {
  try {
    const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
    return saved && (SUPPORTED_LANGUAGES as readonly string[]).includes(saved) ? saved : 'es';
  } catch {
    return 'es';
  }
}

export function saveLanguage(language: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // storage disabled: the choice lasts for this tab
  }
}
