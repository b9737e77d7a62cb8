import type { LlmFragment } from '../../llm/llm-provider.ts';

/** Shown in place of {{documents}} when retrieval found nothing above the threshold. */
export const NO_DOCUMENTS_TEXT = '(No se recuperaron fragmentos.)';

/**
 * The retrieved fragments as a numbered list, each with its source, for {{documents}}:
 *
 *   1. Fuente: politicas.md
 *      Aceptamos devoluciones durante 30 días.
 *
 * Continuation lines are indented so a fragment's own numbered lists cannot pass for ours.
 */
export function formatDocuments(fragments: readonly LlmFragment[]): string {
  if (fragments.length === 0) return NO_DOCUMENTS_TEXT;
  return fragments
    .map((fragment, index) => {
      const body = fragment.content.trim().split(/\r?\n/).map((line) => `   ${line}`.trimEnd()).join('\n');
      return `${index + 1}. Fuente: ${fragment.source || 'desconocida'}\n${body}`;
    })
    .join('\n\n');
}
