import { createDeflate, deflateRawSync, deflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { MAX_CHUNK_OUTPUT_CHARS, MAX_CHUNK_REQUEST_LENGTH, MAX_CHUNKS } from '../../server/rag/chunk/chunk-text.ts';
import { MAX_MARKUP_BYTES } from '../../server/rag/parse/parse-file.ts';
import { MAX_ZIP_ENTRIES, MAX_ZIP_ENTRY_BYTES, MAX_ZIP_RATIO, MAX_ZIP_TOTAL_BYTES } from '../../server/rag/parse/decompression-guard.ts';
import { buildZip, type ZipPart } from '../helpers/build-zip.ts';

/**
 * Issue 16 resource limits of the RAG routes: decompression bombs in parse-file (DOCX and PDF,
 * built here at run time: no large files in git), chunk input and output caps, and the server
 * answering its health check while a large chunk request runs.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());


const CONTENT_TYPES =
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
const documentXml = (text: string, padding = 0) =>
  Buffer.concat([
    Buffer.from(`<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p>`),
    Buffer.alloc(padding, 0x20),
    Buffer.from('</w:body></w:document>'),
  ]);

function docx(document: ZipPart): Buffer {
  return buildZip([{ name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) }, { name: '_rels/.rels', data: Buffer.from(RELS) }, document]);
}

/** zlib (Flate) data of `bytes` zero bytes, produced in 1 MB slices so the test never holds them. */
async function deflatedZeros(bytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const slice = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < bytes; written += slice.length) {
    if (!deflate.write(slice.subarray(0, Math.min(slice.length, bytes - written)))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

function pdfWithStream(data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n3 0 obj\n<< /Length ${data.length} /Filter [/FlateDecode /FlateDecode] >>\nstream\n`),
    data,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  ]);
}

async function parse(name: string, content: Buffer) {
  const uploaded = await server.upload('/api/file', { name, content });
  expect(uploaded.status, uploaded.text).toBe(201);
  return server.post('/api/rag/parse-file', { filepath: uploaded.body.filepath });
}

function refusedAsBomb(response: { status: number; body: any; text: string }, pattern: RegExp) {
  expect(response.status, response.text).toBe(413);
  expect(response.body).toMatchObject({ i18nMessage: 'error.rag.archiveBomb' });
  expect(response.body.message).toMatch(pattern);
}

describe('parse-file refuses decompression bombs', () => {
  it('an ordinary DOCX built the same way is read', async () => {
    const ok = await parse('bien.docx', docx({ name: 'word/document.xml', data: documentXml('Hola desde Word') }));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.content).toContain('Hola desde Word');
  });

  it('a part compressed far beyond any document (30 MB of XML in ~30 KB)', async () => {
    const bomb = docx({ name: 'word/document.xml', data: documentXml('bomba', 30 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(200 * 1024);
    refusedAsBomb(await parse('bomba.docx', bomb), new RegExp(`at most ${MAX_ZIP_RATIO} to 1`));
  });

  it('a part declaring more than the per-part limit, and parts declaring more than the total', async () => {
    refusedAsBomb(await parse('grande.docx', docx({ name: 'word/document.xml', compressed: randomBytes(1024), declaredSize: 0xfffffffe })), new RegExp(`at most ${MAX_ZIP_ENTRY_BYTES} per part`));
    const parts = Array.from({ length: 5 }, (_, i) => ({ name: `word/media/image${i}.png`, compressed: randomBytes(300 * 1024), declaredSize: 45 * 1024 * 1024 }));
    const total = buildZip([{ name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) }, { name: 'word/document.xml', data: documentXml('x') }, ...parts]);
    refusedAsBomb(await parse('total.docx', total), new RegExp(`at most ${MAX_ZIP_TOTAL_BYTES}`));
  });

  it('a part whose header lies about its size (declares 2 KB, inflates to 30 MB)', async () => {
    const real = documentXml('mentira', 30 * 1024 * 1024);
    refusedAsBomb(await parse('mentira.docx', docx({ name: 'word/document.xml', compressed: deflateRawSync(real), declaredSize: 2048 })), /more than the 2048 bytes it declares/);
  });

  it('too many parts', async () => {
    const parts = Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, i) => ({ name: `word/p${i}.xml`, data: Buffer.from('x') }));
    refusedAsBomb(await parse('partes.docx', buildZip([{ name: 'word/document.xml', data: documentXml('x') }, ...parts])), new RegExp(`at most ${MAX_ZIP_ENTRIES}`));
  });

  it('a PDF whose Flate streams (one layer, or nested layers) expand past the budget', async () => {
    const once = await deflatedZeros(210 * 1024 * 1024);
    refusedAsBomb(await parse('bomba.pdf', pdfWithStream(once)), /expand to more than \d+ bytes/);
    refusedAsBomb(await parse('doble.pdf', pdfWithStream(deflateSync(once))), /expand to more than \d+ bytes/);
  });

  it('review bypasses: a DOCX hiding a 300 MB part behind an end record declaring 1 entry; a PDF bomb whose zlib header starts 0x68; an encrypted PDF', async () => {
    const hidden = await deflatedZeros(300 * 1024 * 1024);
    // deflatedZeros is zlib; the ZIP part is the raw deflate inside (no 2-byte header, no 4-byte checksum).
    const archive = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
      { name: 'word/document.xml', compressed: hidden.subarray(2, hidden.length - 4), declaredSize: 300 * 1024 * 1024 },
    ]);
    archive.writeUInt16LE(1, archive.length - 22 + 8);
    archive.writeUInt16LE(1, archive.length - 22 + 10);
    const refusedDocx = await parse('oculto.docx', archive);
    expect(refusedDocx.status, refusedDocx.text).toBe(422);
    expect(refusedDocx.body.message).toMatch(/declares 1 parts but the central directory holds 2/);
    const small = await deflatedZeros(210 * 1024 * 1024);
    // The same deflate data behind a 16 KB-window zlib header (0x68): pdf.js reads it all the same.
    const header68 = Buffer.concat([Buffer.from([0x68, 0x81]), small.subarray(2)]);
    refusedAsBomb(await parse('ventana.pdf', pdfWithStream(header68)), /expand to more than \d+ bytes/);
    const encrypted = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R /Encrypt 2 0 R >>\n%%EOF\n');
    const refusedPdf = await parse('cifrado.pdf', encrypted);
    expect(refusedPdf.status, refusedPdf.text).toBe(422);
    expect(refusedPdf.body.message).toMatch(/encrypted/);
  });

  it('the server answers throughout, and a real document still parses after the refusals', async () => {
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    const ok = await parse('despues.docx', docx({ name: 'word/document.xml', data: documentXml('Sigue funcionando') }));
    expect(ok.body.content).toContain('Sigue funcionando');
  });
});

describe('parse-file input sizes', () => {
  it(`HTML and Markdown over ${MAX_MARKUP_BYTES} bytes are a 413 naming the limit; a large plain text is read`, async () => {
    const html = Buffer.from(`<html><body>${'<p>párrafo de prueba</p>'.repeat(Math.ceil(MAX_MARKUP_BYTES / 20))}</body></html>`);
    const refusedHtml = await parse('grande.html', html);
    expect(refusedHtml.status, refusedHtml.text).toBe(413);
    expect(refusedHtml.body).toMatchObject({ i18nMessage: 'error.rag.tooLarge' });
    expect(refusedHtml.body.message).toContain(String(MAX_MARKUP_BYTES));
    const refusedMd = await parse('grande.md', Buffer.from('## Título\n\nTexto **fuerte**.\n\n'.repeat(Math.ceil(MAX_MARKUP_BYTES / 25))));
    expect(refusedMd.status, refusedMd.text).toBe(413);
    const text = await parse('grande.txt', Buffer.from('línea  de\ttexto \n\n\n'.repeat(300_000)));
    expect(text.status, text.text).toBe(200);
    expect(text.body.content.startsWith('línea de texto\n\nlínea de texto')).toBe(true);
    expect(text.body.content).not.toMatch(/\n{3}|  |\t/);
  });
});

describe('POST /api/rag/chunk limits', () => {
  const words = (chars: number) => 'palabra '.repeat(Math.ceil(chars / 8)).slice(0, chars);

  it(`text over ${MAX_CHUNK_REQUEST_LENGTH} characters is a 413 naming the limit`, async () => {
    const res = await server.post('/api/rag/chunk', { text: 'x'.repeat(MAX_CHUNK_REQUEST_LENGTH + 1) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ i18nMessage: 'error.rag.tooLarge', inputErrors: [{ field: 'text', reason: 'error.rag.tooLarge' }] });
    expect(res.body.message).toContain(String(MAX_CHUNK_REQUEST_LENGTH));
  });

  it.each([
    ['chunkSize 1', { chunkSize: 1, chunkOverlap: 0 }, 300_000, 'chunkSize', String(MAX_CHUNKS)],
    ['overlap one short of the size', { chunkSize: 100_000, chunkOverlap: 99_999 }, 200_000, 'chunkSize', String(MAX_CHUNKS)],
    ['an overlap that repeats the text', { chunkSize: 10_000, chunkOverlap: 9_000 }, 1_000_000, 'chunkOverlap', String(MAX_CHUNK_OUTPUT_CHARS)],
  ])('%s: refused before the work with 413 naming the field and the limit', async (_label, options, length, field, limit) => {
    const res = await server.post('/api/rag/chunk', { text: words(length), ...options });
    expect(res.status, res.text).toBe(413);
    expect(res.body.inputErrors).toEqual([{ field, reason: 'error.rag.tooLarge' }]);
    expect(res.body.message).toContain(limit);
  });

  it('the largest allowed request is chunked while the health check keeps answering', async () => {
    let finished = false;
    const chunking = server.post('/api/rag/chunk', { text: words(MAX_CHUNK_REQUEST_LENGTH), chunkSize: 200, chunkOverlap: 20 }).then((res) => {
      finished = true;
      return res;
    });
    let answeredDuring = 0;
    while (!finished) {
      const health = await fetch(`${server.baseUrl}/api/health`);
      expect(health.status).toBe(200);
      if (!finished) answeredDuring += 1;
    }
    const res = await chunking;
    expect(res.status).toBe(200);
    expect(res.body.chunks.length).toBeGreaterThan(5_000);
    expect(res.body.chunks.length).toBeLessThanOrEqual(MAX_CHUNKS);
    // Chunking yields to the event loop: health answered while it ran (timings: tests/bench/limits.bench.ts).
    expect(answeredDuring).toBeGreaterThan(0);
  });
});
