import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** Translates a message when it is a locale key, prints it as is otherwise (docs/product-rules.md#errors). */
export function useTranslateMessage(): (message: string | null | undefined) => string {
  const { t, i18n } = useTranslation();
  return useCallback((message) => (message ? (i18n.exists(message) ? t(message) : message) : ''), [t, i18n]);
}
