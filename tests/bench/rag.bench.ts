// npm run bench:rag — retrieval core figures: chunking throughput against @langchain/textsplitters
// (same input, same settings, output checked identical), training time for 10,000 chunks (first
// and incremental), and search latency p50/p99 over 100,000 chunks. Synthetic Spanish text with a
// Zipf-like word distribution so document frequencies look like real prose.
import Database from 'better-sqlite3';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chunkText } from '../../server/rag/chunk/chunk-text.ts';
import { recursiveCharacterSplit } from '../../server/rag/chunk/recursive-character-split.ts';
import { sha256Hex } from '../../server/rag/chunk/sha256-hex.ts';
import type { SourcedChunk } from '../../server/rag/rag-types.ts';
import { SqliteFtsIndex } from '../../server/db/retrieval/sqlite-fts-index.ts';
import { HybridIndex } from '../../server/db/retrieval/hybrid-index.ts';
import type { RetrievalIndex } from '../../server/rag/search/retrieval-index.ts';
import { createEmbeddingProvider } from '../../server/llm/create-embedding-provider.ts';
import { loadEnvironmentDefaults } from '../../server/config.ts';
import { readFileSync } from 'node:fs';
import { withOwnedTables } from '../helpers/owned-tables.ts';

const WORDS = (
  'el la de que y en a los se del las un por con no una su para es al lo como más pero sus le ya o este sí porque esta ' +
  'cliente pedido envío devolución política información garantía factura pago tarjeta transferencia producto tienda ' +
  'soporte técnico horario atención reembolso plazo días semanas cuenta contraseña usuario correo electrónico teléfono ' +
  'dirección entrega almacén stock precio descuento cupón oferta promoción suscripción plan mensual anual cancelación ' +
  'renovación contrato condiciones términos privacidad datos personales seguridad acceso registro sesión aplicación ' +
  'móvil web navegador error incidencia solución configuración instalación actualización versión manual guía paso ' +
  'botón menú pantalla opción ajuste idioma español inglés país región impuesto iva envíos internacionales aduana ' +
  'seguimiento número código referencia estado preparación transporte mensajería recogida punto tienda física ' +
  'cambio talla color modelo defecto reparación sustitución nuevo usado embalaje original etiqueta ticket compra ' +
  'queja reclamación valoración opinión encuesta ayuda pregunta respuesta frecuente contacto chat asistente bot ' +
  'canción acción pingüino corazón niño señal españa año mañana después antes siempre nunca también todavía'
).split(' ');

let seed = 20250101;
function random(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
/**
 * A larger vocabulary for the realistic search corpus: the words above plus 20,000 made-up
 * three-syllable words, so a query term matches a realistic share of chunks instead of most.
 */
const SYLLABLES = 'ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo ga go la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi za'.split(' ');
const BIG_VOCABULARY = WORDS.concat(
  Array.from({ length: 20_000 }, (_, i) => {
    const n = SYLLABLES.length;
    return `${SYLLABLES[i % n]}${SYLLABLES[Math.floor(i / n) % n]}${SYLLABLES[Math.floor(i / (n * n)) % n]}s`;
  }),
);
let vocabulary = WORDS;
/** Zipf-ish: low indexes (function words) far more often than the tail. */
const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 2.2)];
function sentence(): string {
  const n = 6 + Math.floor(random() * 14);
  const words = Array.from({ length: n }, word);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(' ')}.`;
}
function paragraph(): string {
  return Array.from({ length: 2 + Math.floor(random() * 5) }, sentence).join(random() < 0.2 ? '\n' : ' ');
}
function textOf(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const p = paragraph();
    parts.push(p);
    length += p.length + 2;
  }
  return parts.join('\n\n');
}
const ms = (n: number) => `${n.toFixed(1)} ms`;
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

console.log(`node ${process.version}, ${new Date().toISOString()}`);

// 1. Chunking throughput, 10 MB, default settings (512/100).
{
  const text = textOf(10 * 1024 * 1024);
  const mb = text.length / (1024 * 1024);
  // Best of 3 for our splitter: the figure least disturbed by whatever else runs on the machine.
  let ours: string[] = [];
  let oursMs = Infinity;
  for (let run = 0; run < 3; run += 1) {
    const t0 = performance.now();
    ours = recursiveCharacterSplit(text, 512, 100);
    oursMs = Math.min(oursMs, performance.now() - t0);
  }
  let started = performance.now();
  started = performance.now();
  const withHashes = chunkText(text);
  const withHashesMs = performance.now() - started;
  const warn = console.warn;
  console.warn = () => {};
  let theirs: string[] = [];
  let theirsMs = Infinity;
  for (let run = 0; run < 3; run += 1) {
    started = performance.now();
    theirs = await new RecursiveCharacterTextSplitter({ chunkSize: 512, chunkOverlap: 100 }).splitText(text);
    theirsMs = Math.min(theirsMs, performance.now() - started);
  }
  console.warn = warn;
  const identical = ours.length === theirs.length && ours.every((c, i) => c === theirs[i]);
  console.log(`\nchunking ${mb.toFixed(1)} M chars -> ${ours.length} chunks, identical to LangChain: ${identical}`);
  console.log(`  recursiveCharacterSplit   ${ms(oursMs)}  (${(mb / (oursMs / 1000)).toFixed(1)} M chars/s)`);
  console.log(`  chunkText (+ sha256)      ${ms(withHashesMs)}  (${withHashes.length} chunks)`);
  console.log(`  @langchain/textsplitters  ${ms(theirsMs)}  (${(mb / (theirsMs / 1000)).toFixed(1)} M chars/s)`);
  console.log(`  speed-up ${(theirsMs / oursMs).toFixed(1)}x`);
  if (!identical) process.exitCode = 1;
}

function chunks(n: number, prefix: string): SourcedChunk[] {
  return Array.from({ length: n }, (_, i) => {
    const content = `${prefix} ${i}. ${paragraph()} ${paragraph()}`.slice(0, 512);
    return { content, hash: sha256Hex(content), source: `doc-${i % 50}` };
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'forja-rag-bench-'));
try {
  const db = new Database(path.join(dir, 'rag.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  await withOwnedTables(db);
  const index = new SqliteFtsIndex(db);

  // 2. Training 10,000 chunks: first time, then again with 10% changed (incremental).
  {
    const set = chunks(10_000, 'Fragmento');
    let started = performance.now();
    await index.replace('bench-10k', set);
    const firstMs = performance.now() - started;
    const changed = set.slice(0, 9_000).concat(chunks(1_000, 'Cambiado'));
    started = performance.now();
    const result = await index.replace('bench-10k', changed);
    const againMs = performance.now() - started;
    started = performance.now();
    await index.replace('bench-10k', changed);
    const sameMs = performance.now() - started;
    console.log('\ntraining 10,000 chunks of ~512 chars (file SQLite, WAL)');
    console.log(`  first training          ${ms(firstMs)}  (${Math.round(10_000 / (firstMs / 1000))} chunks/s)`);
    console.log(`  10% changed             ${ms(againMs)}  (added ${result.added}, kept ${result.kept}, removed ${result.removed})`);
    console.log(`  nothing changed         ${ms(sameMs)}`);
  }

  // 3. Search latency over 100,000 chunks: the 200-word vocabulary (worst case: every query term
  // is in a large share of the chunks) and a 20,000-word one (closer to real documentation).
  for (const [name, words] of [['200-word vocabulary', WORDS], ['20,000-word vocabulary', BIG_VOCABULARY]] as const) {
    vocabulary = words;
    const knowledgeId = `bench-100k-${words.length}`;
    let started = performance.now();
    await index.replace(knowledgeId, chunks(100_000, 'Parte'));
    const trainMs = performance.now() - started;
    const queries = Array.from({ length: 500 }, () => Array.from({ length: 2 + Math.floor(random() * 5) }, word).join(' '));
    for (const q of queries.slice(0, 20)) await index.search(knowledgeId, q, { maxResults: 5, scoreThreshold: 0.5 });
    const times: number[] = [];
    let hits = 0;
    for (const q of queries) {
      started = performance.now();
      hits += (await index.search(knowledgeId, q, { maxResults: 5, scoreThreshold: 0.5 })).length;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`\nsearch over 100,000 chunks, ${name} (trained in ${ms(trainMs)}), ${queries.length} queries of 2-6 words, maxResults 5, threshold 0.5`);
    console.log(`  p50 ${ms(percentile(times, 50))}  p90 ${ms(percentile(times, 90))}  p99 ${ms(percentile(times, 99))}  max ${ms(times[times.length - 1])}  (avg ${(hits / queries.length).toFixed(1)} results)`);
  }
  // 4. Retrieval quality on a hand-written Spanish Q/A set (tests/bench/fixtures/rag-qa-es.json):
  // one passage per chunk, questions paraphrased (synonyms, no accents, colloquial). recall@5 =
  // share of questions whose passage is in the top 5; MRR = mean of 1/rank (0 when not in the top
  // 10). Ranking is measured with threshold 0; "@0.5" counts the gold passage only when it also
  // reaches the default scoreThreshold 0.5 (what the bot would actually get).
  {
    const qa = JSON.parse(readFileSync(new URL('./fixtures/rag-qa-es.json', import.meta.url), 'utf8')) as {
      passages: Record<string, string>;
      questions: Array<{ q: string; answer: string }>;
    };
    const set: SourcedChunk[] = Object.entries(qa.passages).map(([id, content]) => ({ content, hash: sha256Hex(content), source: id }));
    const retrievers: Array<[string, RetrievalIndex]> = [['BM25 (FTS5)', index]];
    const { llm, embedding } = loadEnvironmentDefaults();
    const embedder = createEmbeddingProvider(embedding, llm);
    if (embedder) retrievers.push([`hybrid (${embedder.model})`, new HybridIndex(db, embedder)]);
    console.log(`\nretrieval quality: ${qa.questions.length} Spanish questions over ${set.length} passages${embedder ? '' : ' (no EMBEDDING_MODEL: BM25 only)'}`);
    for (const [name, retriever] of retrievers) {
      const knowledgeId = `bench-qa-${name}`;
      await retriever.replace(knowledgeId, set);
      let recall5 = 0;
      let recall1 = 0;
      let reciprocal = 0;
      let atThreshold = 0;
      const misses: string[] = [];
      for (const { q, answer } of qa.questions) {
        const hits = await retriever.search(knowledgeId, q, { maxResults: 10, scoreThreshold: 0 });
        const rank = hits.findIndex((hit) => hit.source === answer) + 1;
        if (rank === 1) recall1++;
        if (rank >= 1 && rank <= 5) recall5++;
        if (rank >= 1) reciprocal += 1 / rank;
        else misses.push(q);
        const strict = await retriever.search(knowledgeId, q, { maxResults: 5, scoreThreshold: 0.5 });
        if (strict.some((hit) => hit.source === answer)) atThreshold++;
      }
      const n = qa.questions.length;
      console.log(`  ${name.padEnd(24)} recall@1 ${(recall1 / n).toFixed(3)}  recall@5 ${(recall5 / n).toFixed(3)}  MRR ${(reciprocal / n).toFixed(3)}  recall@5 at threshold 0.5 ${(atThreshold / n).toFixed(3)}`);
      if (misses.length) console.log(`    not in the top 10: ${misses.map((m) => JSON.stringify(m)).join(', ')}`);
    }
  }
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
