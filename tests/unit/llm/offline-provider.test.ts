import { countTokens, encodeChat } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../server/llm/llm-error.ts';
import type { LlmContext, LlmFragment, LlmRequest } from '../../../server/llm/llm-provider.ts';
import { OfflineProvider } from '../../../server/llm/offline-provider.ts';

const fragments: LlmFragment[] = [
  {
    source: 'politicas.md',
    score: 0.91,
    content:
      'Política de devoluciones\nAceptamos devoluciones de productos sin usar durante 30 días desde la compra. El reembolso se hace al mismo medio de pago en un plazo de 5 días hábiles.',
  },
  { source: 'envios.md', score: 0.72, content: 'Los envíos nacionales tardan entre 2 y 4 días. El envío es gratis en compras superiores a 50 euros.' },
  { source: 'horario.md', score: 0.6, content: 'Nuestro horario de atención es de lunes a viernes, de 9:00 a 18:00. Puedes escribirnos a soporte@tienda.es.' },
];

function ask(question: string, context: Partial<LlmContext> = {}): LlmRequest {
  return {
    messages: [
      { role: 'system', content: 'Eres Tienda, un asistente de soporte.' },
      { role: 'user', content: question },
    ],
    context: { question, fragments, hasKnowledge: true, ...context },
  };
}

const offline = new OfflineProvider();

describe('OfflineProvider', () => {
  it('answers with the sentence about devoluciones, in its original wording', async () => {
    const result = await offline.complete(ask('¿Cuál es la política de devoluciones?'));
    expect(result.text).toBe('Aceptamos devoluciones de productos sin usar durante 30 días desde la compra.');
    expect(result).toMatchObject({ provider: 'offline', model: 'extractive-v1' });
  });

  it('ignores accents and plural/singular', async () => {
    const result = await offline.complete(ask('politica de devolucion'));
    expect(result.text).toContain('Aceptamos devoluciones');
  });

  it('picks sentences from the fragment that matches and at most three of them', async () => {
    const envio = await offline.complete(ask('¿Cuánto tarda el envío y cuánto cuesta el envío?'));
    expect(envio.text).toContain('Los envíos nacionales tardan entre 2 y 4 días.');
    const all = await offline.complete(
      ask('devoluciones reembolso envíos horario atención compra días', {
        fragments: [
          ...fragments,
          { source: 'extra.md', score: 0.5, content: 'Las devoluciones de compras con envío gratis no pagan el envío. El horario de devoluciones es el de atención. El reembolso tarda días.' },
        ],
      }),
    );
    const sentences = all.text.match(/[^.!?]+[.!?]/g) ?? [];
    expect(sentences.length).toBeGreaterThan(0);
    expect(sentences.length).toBeLessThanOrEqual(3);
  });

  it('answers the no-information fallback when nothing passed the threshold or nothing matches', async () => {
    expect((await offline.complete(ask('¿Cuál es la política de devoluciones?', { fragments: [] }))).text).toBe(
      'No tengo información para responder a eso.',
    );
    expect((await offline.complete(ask('¿Quién ganó el mundial de fútbol?'))).text).toBe('No tengo información para responder a eso.');
    expect((await offline.complete(ask('¿Devoluciones?', { fragments: [], fallback: 'Sin datos.' }))).text).toBe('Sin datos.');
  });

  it('answers the off-topic text when the bot has no knowledge base, or no context is given', async () => {
    expect((await offline.complete(ask('¿Cuál es la política de devoluciones?', { hasKnowledge: false }))).text).toBe('No puedo ayudarte con eso.');
    expect((await offline.complete({ messages: [{ role: 'user', content: 'hola' }] })).text).toBe('No puedo ayudarte con eso.');
  });

  it('counts tokens with the real tokenizer: input messages and output text', async () => {
    const request = ask('¿Cuál es la política de devoluciones?');
    const result = await offline.complete(request);
    expect(result.inputTokens).toBeGreaterThan(0);
    expect(result.outputTokens).toBeGreaterThan(0);
    expect(result.inputTokens).toBe(encodeChat(request.messages, 'gpt-4o').length);
    expect(result.outputTokens).toBe(countTokens(result.text));
  });

  it('streams word-sized deltas that concatenate to the complete() text, then the totals', async () => {
    const request = ask('¿Cuánto tarda el envío?');
    const complete = await offline.complete(request);
    const deltas: string[] = [];
    let done: unknown;
    for await (const event of offline.stream(request)) {
      if (event.type === 'delta') deltas.push(event.text);
      else done = event.result;
    }
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.every((d) => d.trim().split(/\s+/).length === 1)).toBe(true);
    expect(deltas.join('')).toBe(complete.text);
    expect(done).toMatchObject({ text: complete.text, inputTokens: complete.inputTokens, outputTokens: complete.outputTokens, provider: 'offline' });
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(offline.complete({ ...ask('devoluciones'), signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
    await expect(offline.complete({ ...ask('devoluciones'), signal: controller.signal })).rejects.toBeInstanceOf(LlmError);
  });

  it('cuts an unpunctuated wall of text at a word boundary', async () => {
    const wall = `devoluciones ${'palabra '.repeat(400)}`.trim();
    const result = await offline.complete(ask('devoluciones', { fragments: [{ source: 'x', score: 1, content: wall }] }));
    expect(result.text.length).toBeLessThanOrEqual(601);
    expect(result.text.endsWith('…')).toBe(true);
  });
});
