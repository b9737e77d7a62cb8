/**
 * The chat page inside the widget's iframe (/chat/:botId?embed=1): whether it is embedded and
 * which page embeds it. The browser's ancestorOrigins (Chromium, Safari) cannot be forged by
 * that page; elsewhere the referrer, then the widget's `parent` parameter.
 */
export interface EmbedContext {
  embedded: boolean;
  parentOrigin: string | null;
}

export function readEmbedContext(win: Window = window): EmbedContext {
  const embedded = win.self !== win.top || new URLSearchParams(win.location.search).get('embed') === '1';
  if (!embedded) return { embedded: false, parentOrigin: null };
  const ancestors = win.location.ancestorOrigins;
  const candidate = (ancestors && ancestors.length > 0 ? ancestors[0] : null) ?? originOf(win.document.referrer) ?? originOf(new URLSearchParams(win.location.search).get('parent') ?? '');
  return { embedded: true, parentOrigin: candidate };
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

export const embedContext: EmbedContext = typeof window === 'undefined' ? { embedded: false, parentOrigin: null } : readEmbedContext();
