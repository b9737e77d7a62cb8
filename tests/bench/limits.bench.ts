// npx tsx tests/bench/limits.bench.ts — is the server responsive while the heaviest allowed RAG
// requests run? (issue 16). Starts the real server (tsx, SQLite) in a child process, then, for
// each scenario, sends the request over and over for BENCH_SECONDS while one client polls
// GET /api/health back to back, and prints the health latency (p50, p99, max) next to an idle
// baseline and the request's own duration.
// Scenarios: POST /api/rag/chunk with the largest allowed text (2 M characters) at the default
// settings and at chunkSize 200; POST /api/rag/parse-file of a large DOCX (about 24 MB of XML,
// generated here), of a 512 KB HTML page (the cap for markup) and of a 20 MB plain-text file. Not a test: nothing is asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { MAX_CHUNK_REQUEST_LENGTH } from '../../server/rag/chunk/chunk-text.ts';
import { MAX_MARKUP_BYTES } from '../../server/rag/parse/parse-file.ts';
import { login, spawnServer } from '../fuzz/helpers/child-server.ts';
import { buildZip } from '../helpers/build-zip.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Varied Spanish-looking prose (random words), so compression stays realistic (a few to one). */
function prose(chars: number): string {
  const words = ['pedido', 'envío', 'factura', 'contraseña', 'horario', 'cliente', 'soporte', 'devolución', 'garantía', 'cuenta', 'tarifa', 'plazo'];
  const random = randomBytes(Math.ceil(chars / 4) * 2);
  const out: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i = (i + 2) % (random.length - 1)) {
    const n = random.readUInt16LE(i);
    const word = `${words[n % words.length]}${n % 997}`;
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ').slice(0, chars);
}

function largeDocx(xmlBytes: number): Buffer {
  const paragraphs: string[] = [];
  let size = 0;
  while (size < xmlBytes) {
    const p = `<w:p><w:r><w:t>${prose(400)}</w:t></w:r></w:p>`;
    paragraphs.push(p);
    size += p.length;
  }
  const document = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs.join('')}</w:body></w:document>`;
  return buildZip([
    { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>') },
    { name: '_rels/.rels', data: Buffer.from('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>') },
    { name: 'word/document.xml', data: Buffer.from(document) },
  ]);
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bench-limits-'));
  const server = await spawnServer({ dataDir, env: { LOG_LEVEL: 'warn' } });
  try {
    const token = await login(server.baseUrl);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = (p: string, body: unknown) => fetch(`${server.baseUrl}${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const upload = async (name: string, content: Buffer) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(content)]), name);
      const res = await fetch(`${server.baseUrl}/api/file`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { filepath: string }).filepath;
    };

    /** Health latencies while `load` runs back to back for SECONDS (or idle when null). */
    async function measure(label: string, load: (() => Promise<Response>) | null): Promise<void> {
      const latencies: number[] = [];
      const durations: number[] = [];
      const statuses = new Set<number>();
      const until = performance.now() + SECONDS * 1000;
      let running = true;
      const loader = (async () => {
        if (!load) return;
        while (performance.now() < until) {
          const started = performance.now();
          const res = await load();
          await res.arrayBuffer();
          statuses.add(res.status);
          durations.push(performance.now() - started);
        }
      })().finally(() => (running = false));
      while (performance.now() < until || (load && running)) {
        const started = performance.now();
        const res = await fetch(`${server.baseUrl}/api/health`);
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
      }
      await loader;
      latencies.sort((a, b) => a - b);
      const avg = durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : 0;
      console.log(
        `${label.padEnd(52)} health n=${String(latencies.length).padStart(5)} p50 ${percentile(latencies, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(latencies, 99).toFixed(1).padStart(7)} ms  max ${latencies[latencies.length - 1].toFixed(1).padStart(7)} ms` +
          (load ? `  | request x${durations.length} avg ${avg.toFixed(0)} ms, status ${[...statuses].join('/')}` : ''),
      );
    }

    const maxText = prose(MAX_CHUNK_REQUEST_LENGTH);
    const docx = largeDocx(24 * 1024 * 1024);
    const docxPath = await upload('grande.docx', docx);
    const text = Buffer.from(prose(20 * 1024 * 1024));
    const textPath = await upload('grande.txt', text);
    const html = Buffer.from(`<html><body><main>${Array.from({ length: 4_000 }, (_, i) => `<p>${prose(120)} <b>${i}</b></p>`).join('\n')}</main></body></html>`.slice(0, Math.floor(MAX_MARKUP_BYTES * 0.95)) + '</main></body></html>');
    const htmlPath = await upload('grande.html', html);
    console.log(`Server: tsx, SQLite, ${os.cpus().length} cores; ${SECONDS} s per scenario; DOCX ${(docx.length / 1e6).toFixed(1)} MB (24 MB of XML), text 20 MB`);
    await measure('idle', null);
    await measure(`chunk ${MAX_CHUNK_REQUEST_LENGTH} chars, 512/100 (defaults)`, () => post('/api/rag/chunk', { text: maxText }));
    await measure(`chunk ${MAX_CHUNK_REQUEST_LENGTH} chars, chunkSize 200 / overlap 20`, () => post('/api/rag/chunk', { text: maxText, chunkSize: 200, chunkOverlap: 20 }));
    await measure('parse-file DOCX, 24 MB of XML', () => post('/api/rag/parse-file', { filepath: docxPath }));
    await measure(`parse-file HTML, ${Math.round(html.length / 1024)} KB (the markup cap)`, () => post('/api/rag/parse-file', { filepath: htmlPath }));
    await measure('parse-file text, 20 MB', () => post('/api/rag/parse-file', { filepath: textPath }));
  } finally {
    await server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
