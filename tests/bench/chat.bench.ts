// npm run bench:chat — server-side cost of one public chat message with a 10,000-chunk knowledge
// base and the offline provider (no network), then sustained messages/s with 50 conversations
// chatting at once. The server runs in this process (createForjaServer) so the per-message
// breakdown can time the offline provider on its own.
//
//   1. overhead: N sequential messages through app.inject (HTTP parsing without sockets):
//      p50/p95/p99 of the whole request, the offline provider's own time on the same inputs,
//      and the difference = what the chat adds (validation, reads, retrieval, prompt, writes, trace).
//   2. throughput: 50 workers over real HTTP, each with its own conversation, sending one message
//      after the other for BENCH_SECONDS; messages/s and latency percentiles.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../server/config.ts';
import { sqliteHandleOf } from '../../server/db/sqlite-database.ts';
import { createForjaServer } from '../../server/http/create-server.ts';
import { system } from '../../server/entities/system-context.ts';
import { OfflineProvider } from '../../server/llm/offline-provider.ts';
import { buildChatMessages } from '../../server/chat/prompt/build-chat-messages.ts';
import { sha256Hex } from '../../server/rag/chunk/sha256-hex.ts';
import { SqliteFtsIndex } from '../../server/db/retrieval/sqlite-fts-index.ts';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Chats kept per conversation before a worker starts a new one (history stays realistic). */
const TURNS_PER_CONVERSATION = 20;

Object.assign(process.env, {
  CHAT_RATE_START_PER_MINUTE: '1000000',
  CHAT_RATE_MESSAGE_PER_MINUTE: '1000000',
  CHAT_RATE_CONVERSATION_PER_MINUTE: '1000000',
  CHAT_RATE_READ_PER_MINUTE: '1000000',
  ADMIN_PASSWORD: 'Bench-admin-123',
});
for (const name of ['LLM_PROVIDER', 'LLM_BASE_URL', 'EMBEDDING_MODEL']) delete process.env[name];

const TOPICS = [
  ['contraseña', 'restablecer', 'correo', 'código', 'cuenta', 'acceso', 'sesión'],
  ['envío', 'pedido', 'entrega', 'transportista', 'seguimiento', 'plazo', 'dirección'],
  ['factura', 'pago', 'tarjeta', 'reembolso', 'importe', 'cargo', 'suscripción'],
  ['horario', 'atención', 'teléfono', 'soporte', 'chat', 'festivos', 'oficina'],
  ['garantía', 'devolución', 'producto', 'defecto', 'reparación', 'cambio', 'tienda'],
  ['aplicación', 'móvil', 'instalar', 'actualizar', 'versión', 'notificaciones', 'ajustes'],
  ['privacidad', 'datos', 'borrar', 'exportar', 'consentimiento', 'cookies', 'seguridad'],
  ['plan', 'precio', 'empresa', 'usuarios', 'licencia', 'facturación', 'anual'],
];
const FILLER = ['el', 'cliente', 'puede', 'consultar', 'desde', 'panel', 'durante', 'días', 'laborables', 'según', 'condiciones', 'vigentes', 'cada', 'caso', 'nuestro', 'equipo', 'revisa', 'solicitud'];
const QUESTIONS = [
  '¿Cómo restablezco mi contraseña si no recibo el código por correo?',
  '¿Cuánto tarda la entrega de un pedido y cómo veo el seguimiento?',
  '¿Cómo pido el reembolso de un cargo duplicado en la tarjeta?',
  '¿Cuál es el horario de atención por teléfono los festivos?',
  '¿Qué cubre la garantía si el producto tiene un defecto?',
  '¿Cómo activo las notificaciones en la aplicación móvil?',
  '¿Puedo exportar o borrar mis datos personales?',
  '¿Cuánto cuesta el plan anual para empresas con muchos usuarios?',
];

function chunkText(i: number): string {
  let seed = i * 2654435761;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const topic = TOPICS[i % TOPICS.length];
  const sentences: string[] = [];
  for (let s = 0; s < 5; s++) {
    const words: string[] = [];
    for (let w = 0; w < 14; w++) words.push(random() < 0.45 ? topic[Math.floor(random() * topic.length)] : FILLER[Math.floor(random() * FILLER.length)]);
    sentences.push(`${words.join(' ')} ${i}-${s}.`);
  }
  return sentences.join(' ');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bench-chat-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), port: 0, host: '127.0.0.1', distDir: path.join(dataDir, 'no-dist') };
  const forja = await createForjaServer({ config, logger: false });
  const { app, service, database } = forja;
  try {
    const knowledge = await service.create('knowledge', system(), { name: 'Bench', toolDescription: 'Bench', maxResults: 5, scoreThreshold: 0.2 });
    const knowledgeId = String(knowledge._id);
    const chunks = Array.from({ length: CHUNKS }, (_, i) => {
      const content = chunkText(i);
      return { content, hash: sha256Hex(content), source: `Manual ${i % 40}` };
    });
    let started = performance.now();
    const index = new SqliteFtsIndex(sqliteHandleOf(database)!);
    await index.replace(knowledgeId, chunks);
    console.log(`knowledge base: ${(await index.stats(knowledgeId)).chunks} chunks indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const bot = await service.create('bot', system(), { name: 'Bench bot', description: 'Soporte de la tienda.', knowledge: knowledgeId, questions: QUESTIONS.slice(0, 3) });
    const botId = String(bot._id);

    const inject = async (url: string, payload: unknown) => {
      const res = await app.inject({ method: 'POST', url, payload: payload as object });
      if (res.statusCode >= 300) throw new Error(`${url} -> ${res.statusCode} ${res.body}`);
      return res.json() as { _id: string; chats: { message: string }[] };
    };
    const newConversation = (n: number) => inject('/api/chat/start', { name: `Visitante ${n}`, email: `v${n}@bench.test`, botId });

    // Warm-up: JIT, statement cache, FTS pages.
    let conversation = await newConversation(0);
    for (let i = 0; i < 30; i++) await inject(`/api/chat/message/${conversation._id}`, { message: QUESTIONS[i % QUESTIONS.length] });

    // 1. Sequential messages.
    const times: number[] = [];
    let turns = 0;
    conversation = await newConversation(1);
    for (let i = 0; i < MESSAGES; i++) {
      if (turns++ >= TURNS_PER_CONVERSATION) {
        conversation = await newConversation(i + 2);
        turns = 1;
      }
      const t0 = performance.now();
      await inject(`/api/chat/message/${conversation._id}`, { message: QUESTIONS[i % QUESTIONS.length] });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);

    // The offline provider alone on the same kind of input (retrieval done beforehand).
    const provider = new OfflineProvider();
    const providerTimes: number[] = [];
    const retrievalTimes: number[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const question = QUESTIONS[i % QUESTIONS.length];
      const r0 = performance.now();
      const fragments = await index.search(knowledgeId, question, { maxResults: 5, scoreThreshold: 0.2 });
      retrievalTimes.push(performance.now() - r0);
      const prompt = buildChatMessages({ bot: { name: 'Bench bot', description: 'Soporte', systemPrompt: bot.systemPrompt as string, systemPromptWithKnowledge: bot.systemPromptWithKnowledge as string }, hasKnowledge: true, fragments, userMessage: question });
      const p0 = performance.now();
      await provider.complete({ messages: prompt.messages, context: prompt.context });
      providerTimes.push(performance.now() - p0);
    }
    providerTimes.sort((a, b) => a - b);
    retrievalTimes.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const providerP50 = percentile(providerTimes, 50);
    console.log(`\n1. one message, ${MESSAGES} sequential (app.inject, ${CHUNKS} chunks, history up to ${TURNS_PER_CONVERSATION} turns)`);
    console.log(`   whole request      p50 ${fmt(p50)}  p95 ${fmt(percentile(times, 95))}  p99 ${fmt(percentile(times, 99))}`);
    console.log(`   offline provider   p50 ${fmt(providerP50)}  p95 ${fmt(percentile(providerTimes, 95))}`);
    console.log(`   retrieval (BM25)   p50 ${fmt(percentile(retrievalTimes, 50))}  p95 ${fmt(percentile(retrievalTimes, 95))}   (part of the overhead)`);
    console.log(`   overhead ex. LLM   p50 ≈ ${fmt(p50 - providerP50)}   (goal < 20 ms)`);

    // 2. Concurrency over real HTTP.
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const post = async (url: string, body: unknown) => {
      const res = await fetch(address + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await res.json()) as { _id: string };
      if (!res.ok) throw new Error(`${url} -> ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const latencies: number[] = [];
    let failures = 0;
    const deadline = performance.now() + SECONDS * 1000;
    started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, worker) => {
        let id = (await post('/api/chat/start', { name: `Worker ${worker}`, email: `w${worker}@bench.test`, botId }))._id;
        let n = 0;
        while (performance.now() < deadline) {
          if (n > 0 && n % TURNS_PER_CONVERSATION === 0) id = (await post('/api/chat/start', { name: `Worker ${worker}`, email: `w${worker}@bench.test`, botId }))._id;
          const t0 = performance.now();
          try {
            await post(`/api/chat/message/${id}`, { message: QUESTIONS[(worker + n) % QUESTIONS.length] });
            latencies.push(performance.now() - t0);
          } catch {
            failures++;
          }
          n++;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(`\n2. ${CONCURRENCY} concurrent conversations for ${SECONDS} s over HTTP (${os.cpus().length} cores, one Node process)`);
    console.log(`   ${latencies.length} messages, ${failures} failures: ${(latencies.length / elapsed).toFixed(0)} messages/s`);
    console.log(`   latency p50 ${fmt(percentile(latencies, 50))}  p95 ${fmt(percentile(latencies, 95))}  p99 ${fmt(percentile(latencies, 99))}`);
    const traces = await service.paginate('bottrace', system(), { page: 1, limit: 1, offset: 0, search: '', filters: [], orderBy: null, order: 'asc' } as never);
    console.log(`   traces recorded in total: ${traces.total}`);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
