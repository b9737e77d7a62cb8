import type { LlmProvider } from '../../llm/llm-provider.ts';

/** Longest text sent for rewriting; beyond it the model's context (and the user's wait) explode. */
export const MAX_IMPROVE_LENGTH = 60_000;

const SYSTEM_PROMPT = [
  'Eres un editor de documentación para una base de conocimiento de un chatbot de soporte.',
  'Reescribe el texto del usuario para que sea claro, correcto y bien organizado, en el mismo idioma que el original.',
  'Conserva todos los hechos, cifras, nombres, enlaces y pasos; no inventes información ni añadas opiniones.',
  'Corrige ortografía y gramática, elimina repeticiones y restos de maquetación (menús, pies de página, numeración suelta).',
  'Usa párrafos cortos separados por una línea en blanco, un tema por párrafo, para que se pueda dividir en fragmentos.',
  'Responde solo con el texto reescrito, sin comentarios ni preámbulos.',
].join(' ');

/** The edited text rewritten by the configured model (POST /api/rag/improve). */
export async function improveText(provider: LlmProvider, text: string, signal?: AbortSignal): Promise<string> {
  const result = await provider.complete({
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: text },
    ],
    temperature: 0.2,
    ...(signal ? { signal } : {}),
  });
  return result.text.trim();
}
