// npx tsx tests/bench/llm.bench.ts — the offline provider's answer time (p50/p99) as the retrieved
// context grows, up to 10,000 fragments. Real chats pass maxResults fragments (default 5); the large
// sizes show the extractive scoring stays usable if a caller passes far more.
import { performance } from 'node:perf_hooks';
import type { LlmFragment, LlmRequest } from '../../server/llm/llm-provider.ts';
import { OfflineProvider } from '../../server/llm/offline-provider.ts';

const TOPICS = [
  'Aceptamos devoluciones de productos sin usar durante 30 días desde la compra.',
  'Los envíos nacionales tardan entre 2 y 4 días hábiles.',
  'El horario de atención es de lunes a viernes, de 9:00 a 18:00.',
  'Puedes pagar con tarjeta, transferencia o contra reembolso.',
  'La garantía cubre defectos de fabricación durante dos años.',
  'Las facturas se descargan desde la sección Mis pedidos.',
];
const FILLER = 'Nuestro equipo revisa cada caso con atención para ofrecer la mejor solución posible al cliente.';

/** Deterministic fragments: three sentences each, with a numbered product so texts differ. */
function fragments(count: number): LlmFragment[] {
  return Array.from({ length: count }, (_, i) => ({
    source: `doc-${i}.md`,
    score: 1 - i / (count + 1),
    content: `${TOPICS[i % TOPICS.length]} Referencia del producto ${i}. ${FILLER}`,
  }));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const offline = new OfflineProvider();
const question = '¿Cuál es la política de devoluciones de un producto?';
console.log('fragments   runs      p50 ms      p99 ms   answer');
for (const [count, runs] of [
  [5, 2000],
  [100, 300],
  [1000, 60],
  [10_000, 20],
] as const) {
  const request: LlmRequest = {
    messages: [
      { role: 'system', content: 'Eres Tienda, un asistente de soporte.' },
      { role: 'user', content: question },
    ],
    context: { question, fragments: fragments(count), hasKnowledge: true },
  };
  await offline.complete(request); // warm-up: JIT, tokenizer tables
  const times: number[] = [];
  let answer = '';
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    answer = (await offline.complete(request)).text;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${String(count).padStart(9)} ${String(runs).padStart(6)} ${percentile(times, 50).toFixed(2).padStart(11)} ${percentile(times, 99).toFixed(2).padStart(11)}   ${answer.slice(0, 60)}…`,
  );
}
