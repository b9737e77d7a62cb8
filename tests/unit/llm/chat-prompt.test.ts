import { describe, expect, it } from 'vitest';
import { buildChatMessages, type PromptChat } from '../../../server/chat/prompt/build-chat-messages.ts';
import { formatDocuments } from '../../../server/chat/prompt/format-documents.ts';
import { renderPromptTemplate } from '../../../server/chat/prompt/render-prompt-template.ts';
import {
  DEFAULT_SYSTEM_PROMPT,
  DEFAULT_SYSTEM_PROMPT_WITH_KNOWLEDGE,
  renderSystemPrompt,
} from '../../../server/chat/prompt/render-system-prompt.ts';
import { countMessageTokens } from '../../../server/llm/count-tokens.ts';
import type { LlmFragment } from '../../../server/llm/llm-provider.ts';
import { OfflineProvider } from '../../../server/llm/offline-provider.ts';

const bot = {
  name: 'Tienda',
  description: 'Ayudas a los clientes de la tienda online.',
  systemPrompt: DEFAULT_SYSTEM_PROMPT,
  systemPromptWithKnowledge: DEFAULT_SYSTEM_PROMPT_WITH_KNOWLEDGE,
};
const fragments: LlmFragment[] = [
  { source: 'politicas.md', score: 0.9, content: 'Aceptamos devoluciones durante 30 días.\nEl reembolso tarda 5 días hábiles.' },
  { source: 'envios.md', score: 0.7, content: 'Los envíos tardan entre 2 y 4 días.' },
];

describe('renderPromptTemplate', () => {
  it('replaces known placeholders, leaves unknown ones and never evaluates anything', () => {
    const out = renderPromptTemplate('Hola {{ botName }}, {{unknown}} {{botName}} ${process.exit()} {{constructor}} {{ toString }}', {
      botName: 'Tienda',
    });
    expect(out).toBe('Hola Tienda, {{unknown}} Tienda ${process.exit()} {{constructor}} {{ toString }}');
  });

  it('inserts values literally: no re-expansion and no $-pattern surprises', () => {
    expect(renderPromptTemplate('{{documents}} / {{botName}}', { documents: 'texto con {{botName}} y $& y $1', botName: 'Tienda' })).toBe(
      'texto con {{botName}} y $& y $1 / Tienda',
    );
  });
});

describe('formatDocuments', () => {
  it('numbers the fragments with their source, indenting continuation lines', () => {
    expect(formatDocuments(fragments)).toBe(
      '1. Fuente: politicas.md\n   Aceptamos devoluciones durante 30 días.\n   El reembolso tarda 5 días hábiles.\n\n2. Fuente: envios.md\n   Los envíos tardan entre 2 y 4 días.',
    );
    expect(formatDocuments([])).toBe('(No se recuperaron fragmentos.)');
  });
});

describe('renderSystemPrompt', () => {
  it('uses the knowledge-aware template, with documents, when the bot has a knowledge base', () => {
    const prompt = renderSystemPrompt(bot, true, fragments);
    expect(prompt.startsWith('Eres Tienda, un asistente de soporte. Ayudas a los clientes de la tienda online.')).toBe(true);
    expect(prompt).toContain('No tengo información para responder a eso.');
    expect(prompt).toContain('Fragmentos recuperados:\n1. Fuente: politicas.md');
    expect(prompt).not.toMatch(/\{\{/);
  });

  it('uses the general template otherwise', () => {
    const prompt = renderSystemPrompt(bot, false, fragments);
    expect(prompt).toContain('Responde solo preguntas relacionadas con el uso de Tienda');
    expect(prompt).toContain('No puedo ayudarte con eso.');
    expect(prompt).not.toContain('politicas.md');
  });

  it("falls back to the manifest's defaults for a blank stored template", () => {
    expect(renderSystemPrompt({ name: 'Tienda', description: bot.description, systemPrompt: '  ' }, false, [])).toBe(renderSystemPrompt(bot, false, []));
  });
});

describe('buildChatMessages', () => {
  const history: PromptChat[] = Array.from({ length: 14 }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    message: `mensaje ${i + 1}`,
  }));

  it('orders system prompt (with memory), the last 10 chats, then the new message', () => {
    const prompt = buildChatMessages({
      bot,
      hasKnowledge: true,
      fragments,
      memory: [
        { attribute: 'pedido', content: 'A-1234' },
        { attribute: 'idioma', content: 'español' },
        { attribute: 'vacío', content: '  ' },
      ],
      history,
      userMessage: '  ¿Puedo devolver un producto?  ',
    });
    const [system, ...rest] = prompt.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Fragmentos recuperados:');
    expect(system.content.endsWith('Datos conocidos del contacto:\n- pedido: A-1234\n- idioma: español')).toBe(true);
    expect(rest.map((m) => m.content)).toEqual([...history.slice(4).map((c) => c.message), '¿Puedo devolver un producto?']);
    expect(rest.slice(0, -1).map((m) => m.role)).toEqual(history.slice(4).map((c) => c.role));
    expect(rest.at(-1)).toEqual({ role: 'user', content: '¿Puedo devolver un producto?' });
    expect(prompt.dropped).toEqual({ historyChats: 4, memoryLines: 0, fragments: 0 });
    expect(prompt.promptTokens).toBe(countMessageTokens(prompt.messages));
    expect(prompt.withinBudget).toBe(true);
    expect(prompt.context).toMatchObject({ question: '¿Puedo devolver un producto?', hasKnowledge: true, fragments });
  });

  it('honours maxHistoryChats and skips empty or unknown-role chats', () => {
    const prompt = buildChatMessages({
      bot,
      hasKnowledge: false,
      fragments: [],
      history: [{ role: 'user', message: 'hola' }, { role: 'system', message: 'ignorar' }, { role: 'assistant', message: '' }, { role: 'assistant', message: '¡Hola!' }],
      userMessage: 'gracias',
      maxHistoryChats: 1,
    });
    expect(prompt.messages.map((m) => m.content).slice(1)).toEqual(['¡Hola!', 'gracias']);
  });

  it('drops the oldest chats first, then memory, then the lowest-ranked fragments to fit the budget', () => {
    const long = (n: number) => `palabra${n} `.repeat(150);
    const base = { bot, hasKnowledge: true, fragments, userMessage: '¿Y los envíos?' };
    const bigHistory: PromptChat[] = Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', message: long(i) }));
    const minimal = buildChatMessages({ ...base, maxPromptTokens: 100_000 });
    const withHistory = buildChatMessages({ ...base, history: bigHistory, maxPromptTokens: 100_000 });

    // Room for the system prompt, the question and about two of the six long chats.
    const budget = minimal.promptTokens + Math.floor((withHistory.promptTokens - minimal.promptTokens) / 3);
    const capped = buildChatMessages({ ...base, history: bigHistory, maxPromptTokens: budget });
    expect(capped.withinBudget).toBe(true);
    expect(capped.promptTokens).toBeLessThanOrEqual(budget);
    expect(capped.dropped.historyChats).toBeGreaterThanOrEqual(4);
    const kept = capped.messages.slice(1, -1).map((m) => m.content);
    expect(kept).toEqual(bigHistory.slice(bigHistory.length - kept.length).map((c) => c.message?.trim()));

    // A budget below the bare prompt: history and memory go, then fragments (last first); never the question.
    const tight = buildChatMessages({ ...base, history: bigHistory, memory: [{ attribute: 'a', content: 'b' }], maxPromptTokens: 50 });
    expect(tight.dropped).toEqual({ historyChats: 6, memoryLines: 1, fragments: 2 });
    expect(tight.fragments).toEqual([]);
    expect(tight.withinBudget).toBe(false);
    expect(tight.messages.at(-1)).toEqual({ role: 'user', content: '¿Y los envíos?' });

    const oneFragment = buildChatMessages({ ...base, maxPromptTokens: minimal.promptTokens - 5 });
    expect(oneFragment.fragments).toEqual([fragments[0]]);
    expect(oneFragment.context.fragments).toEqual([fragments[0]]);
  });

  it('gives the offline provider what it needs to answer', async () => {
    const prompt = buildChatMessages({ bot, hasKnowledge: true, fragments, userMessage: '¿Cuánto tardan los envíos?' });
    const result = await new OfflineProvider().complete({ messages: prompt.messages, context: prompt.context });
    expect(result.text).toBe('Los envíos tardan entre 2 y 4 días.');
    expect(result.inputTokens).toBe(prompt.promptTokens);
  });
});

describe('renderSystemPrompt without a description', () => {
  it('leaves no trailing blanks', () => {
    expect(renderSystemPrompt({ name: 'Tienda' }, false, [])).toMatch(/^Eres Tienda, un asistente de soporte\.\n\n/);
  });
});
