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

  it('answers from ONE fragment, in its order, and says which (never sentences of different sources run together)', async () => {
    for (const question of ['¿Cuánto tarda el envío y cuál es el horario de atención?', '¿Cuánto tardan los envíos nacionales?', '¿Cuál es vuestro horario de atención?']) {
      const result = await offline.complete(ask(question));
      expect(result.usedFragments, question).toHaveLength(1);
      const used = fragments[result.usedFragments![0]];
      const others = fragments.filter((f) => f !== used);
      for (const sentence of result.text.split(/(?<=\.)\s+/)) {
        expect(used.content, question).toContain(sentence);
        for (const other of others) expect(other.content).not.toContain(sentence);
      }
    }
  });

  it('keeps abbreviations, decimals and PDF line breaks inside the quoted sentence', async () => {
    const pdf: LlmFragment[] = [
      { source: 'tienda.pdf', score: 0.8, content: 'Nuestra tienda está en la Avda. de la Constitución 5, en el centro. El\naparcamiento cuesta 1.5 euros la hora y es gratis para\nclientes con ticket.' },
      { source: 'store.pdf', score: 0.7, content: 'Our store is at 5 St. Mark Street, next to the station. Parking costs 2.5 euros per hour.' },
    ];
    expect((await offline.complete(ask('¿Cuánto cuesta el aparcamiento?', { fragments: pdf }))).text).toBe(
      'El aparcamiento cuesta 1.5 euros la hora y es gratis para clientes con ticket.',
    );
    expect((await offline.complete(ask('¿Dónde está la tienda?', { fragments: pdf }))).text).toBe('Nuestra tienda está en la Avda. de la Constitución 5, en el centro.');
    expect((await offline.complete(ask('Where is your store?', { fragments: pdf.slice(1) }))).text).toBe('Our store is at 5 St. Mark Street, next to the station.');
  });

  it('answers in the fragment language: English, German, Chinese, Thai', async () => {
    const cases: Array<[string, string, string]> = [
      ['How long is the warranty?', 'All devices have a two-year warranty. Shipping is free over 50 euros.', 'All devices have a two-year warranty.'],
      ['Wie lange gilt die Garantie?', 'Alle Geräte haben zwei Jahre Garantie. Der Versand ist ab 50 Euro kostenlos.', 'Alle Geräte haben zwei Jahre Garantie.'],
      ['保修期是多久？', '所有设备都有两年保修期。订单满50欧元免运费。', '所有设备都有两年保修期。'],
      ['รับประกันกี่ปี', 'อุปกรณ์ทุกชิ้นมีการรับประกันสองปี จัดส่งฟรีเมื่อสั่งซื้อเกิน 50 ยูโร', 'อุปกรณ์ทุกชิ้นมีการรับประกันสองปี'],
    ];
    for (const [question, content, want] of cases) {
      const result = await offline.complete(ask(question, { fragments: [{ source: 'x', score: 0.9, content }] }));
      expect(result.text, question).toBe(want);
      expect(result.usedFragments).toEqual([0]);
    }
  });

  it('gives the fallback when the best fragment covers too little of the question, whatever its retrieval score', async () => {
    const cases: Array<[string, string]> = [
      ['¿Cuántos minutos hay que hervir un huevo para que quede duro?', 'Los envíos nacionales tardan entre 2 y 4 días. El huevo de pascua es un regalo.'],
      ['Who won the 2010 football World Cup?', 'We won an award in 2019 for our customer service.'],
      ['Wer hat die Mona Lisa gemalt?', 'Wir haben die Filiale 2020 neu gemalt und eröffnet.'],
      ['シーフードパエリアの作り方を教えてください。', 'パスワードをお忘れの場合は、メールアドレスを入力してください。'],
      ['내일 서울에 비가 올까요?', '50유로 이상 주문은 배송비가 무료입니다.'],
    ];
    for (const [question, content] of cases) {
      const result = await offline.complete(ask(question, { fragments: [{ source: 'x', score: 1, content }], fallback: 'Sin datos.' }));
      expect(result.text, question).toBe('Sin datos.');
      expect(result.usedFragments).toEqual([]);
    }
  });

  it('cuts an unpunctuated wall of text at a word boundary', async () => {
    const wall = `devoluciones ${'palabra '.repeat(400)}`.trim();
    const result = await offline.complete(ask('devoluciones', { fragments: [{ source: 'x', score: 1, content: wall }] }));
    expect(result.text.length).toBeLessThanOrEqual(601);
    expect(result.text.endsWith('…')).toBe(true);
  });
});
