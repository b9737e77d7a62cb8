import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '../../../server/rag/parse/detect-file-type.ts';
import { htmlToText } from '../../../server/rag/parse/html-to-text.ts';
import { parseDocument, parseStoredFile } from '../../../server/rag/parse/parse-file.ts';
import { RagError } from '../../../server/rag/rag-error.ts';
import { makeDocx, makePdf } from './fixtures/make-fixtures.ts';

const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');
const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('parseDocument', () => {
  it('reads the text layer of a PDF', async () => {
    const parsed = await parseDocument(await readFile(path.join(fixtures, 'sample.pdf')));
    expect(parsed.type).toBe('pdf');
    expect(parsed.content).toBe('Politica de devoluciones\nInformación útil: 30 días para devolver.');
  });

  it('reads a DOCX with mammoth', async () => {
    const parsed = await parseDocument(await readFile(path.join(fixtures, 'sample.docx')), { filename: 'x.bin' });
    expect(parsed).toEqual({ type: 'docx', content: 'Manual del cliente\n\nEl envío es gratuito desde 50 €.' });
  });

  it('extracts readable HTML text: main content, no scripts, styles or navigation', async () => {
    const html = `<!DOCTYPE html><html><head><title>Ayuda</title><style>p{color:red}</style><script>alert(1)</script></head>
      <body><nav>Inicio | Contacto</nav><main><h1>Preguntas frecuentes</h1><p>¿Cómo   devuelvo un
      pedido?</p><ul><li>Uno</li><li>Dos</li></ul><p>Línea<br>nueva</p></main><footer>© 2025</footer></body></html>`;
    const parsed = await parseDocument(bytes(html), { filename: 'page.txt' });
    expect(parsed.type).toBe('html');
    expect(parsed.content).toBe('Ayuda\n\nPreguntas frecuentes\n\n¿Cómo devuelvo un pedido?\n\n- Uno\n\n- Dos\n\nLínea\nnueva');
  });

  it('drops page chrome when there is no main element', () => {
    expect(htmlToText('<body><header>Logo</header><p>Texto</p><aside>Anuncio</aside></body>')).toBe('Texto');
  });

  it('reads Markdown as text', async () => {
    const parsed = await parseDocument(bytes('# Título\n\nUn **párrafo** con [enlace](http://x).\n\n- uno\n- dos\n'), { filename: 'guia.md' });
    expect(parsed).toEqual({ type: 'markdown', content: 'Título\n\nUn párrafo con enlace.\n\n- uno\n\n- dos' });
  });

  it('reads plain text, UTF-8 with BOM and Windows-1252', async () => {
    expect(await parseDocument(bytes('\uFEFFHola  mundo\r\n\r\n\r\nAdiós'))).toEqual({ type: 'text', content: 'Hola mundo\n\nAdiós' });
    expect((await parseDocument(new Uint8Array(Buffer.from('Canci\xf3n de pa\xf1o', 'latin1')))).content).toBe('Canción de paño');
  });

  it('detects by content first, extension second', () => {
    expect(detectFileType(makePdf(['x']), { filename: 'a.txt' })).toBe('pdf');
    expect(detectFileType(bytes('solo texto'), { filename: 'a.pdf' })).toBe('text');
    expect(detectFileType(bytes('<p>hola</p>'), { filename: 'a.txt' })).toBe('text');
    expect(detectFileType(bytes('<p>hola</p>'))).toBe('html');
    expect(detectFileType(bytes('# hola'), { filename: 'a.MD' })).toBe('markdown');
    expect(detectFileType(bytes('# hola'), { mimetype: 'text/html; charset=utf-8' })).toBe('html');
  });

  it.each([
    ['PNG image', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), {}, 415, 'unsupportedType'],
    ['zip that is not a Word document', new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0, 0]), { filename: 'a.zip' }, 415, 'unsupportedType'],
    ['binary named .pdf', new Uint8Array([1, 0, 2, 0, 3]), { filename: 'a.pdf' }, 422, 'unreadableFile'],
    ['truncated PDF', makePdf(['hola']).subarray(0, 200), {}, 422, 'unreadableFile'],
    ['PDF header then garbage', bytes('%PDF-1.4\n garbage garbage'), {}, 422, 'unreadableFile'],
  ])('rejects a %s with a typed error', async (_name, data, hints, status, code) => {
    const error = await parseDocument(data, hints).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RagError);
    expect(error).toMatchObject({ statusCode: status, code });
  });

  it('rejects a corrupt DOCX with a 422', async () => {
    const docx = await makeDocx(['hola']);
    // Still a ZIP naming word/ parts, but its central directory is cut off.
    const broken = new Uint8Array(docx).subarray(0, docx.length - 40);
    await expect(parseDocument(broken)).rejects.toMatchObject({ statusCode: 422, code: 'unreadableFile' });
  });
});

describe('parseStoredFile', () => {
  it('reads a file inside the uploads folder and refuses paths that escape it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rag-files-'));
    await writeFile(path.join(dir, 'nota.txt'), 'Hola desde un archivo');
    await symlink('/etc/hostname', path.join(dir, 'escape.txt'));
    expect(await parseStoredFile(dir, 'nota.txt')).toEqual({ type: 'text', content: 'Hola desde un archivo' });
    expect(await parseStoredFile(dir, '/nota.txt')).toMatchObject({ content: 'Hola desde un archivo' });
    await expect(parseStoredFile(dir, '../../etc/passwd')).rejects.toMatchObject({ statusCode: 400, field: 'filepath' });
    await expect(parseStoredFile(dir, 'escape.txt')).rejects.toMatchObject({ statusCode: 400 });
    await expect(parseStoredFile(dir, 'missing.txt')).rejects.toMatchObject({ statusCode: 404 });
    await expect(parseStoredFile(dir, '')).rejects.toMatchObject({ statusCode: 400 });
    await expect(parseStoredFile(dir, 'nota.txt', { maxBytes: 5 })).rejects.toMatchObject({ statusCode: 413 });
    await expect(parseStoredFile(path.join(dir, 'no-such-dir'), 'nota.txt')).rejects.toMatchObject({ statusCode: 404 });
  });
});
