import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../server/rag/chunk/sha256-hex.ts';
import { RagError } from '../../../server/rag/rag-error.ts';
import { planTraining, type StoredFileRef, type TrainingSource } from '../../../server/rag/train/plan-training.ts';

const sources: TrainingSource[] = [
  { _id: 's1', name: 'Manual', type: 'file', sourceText: 'texto original', text: 'texto editado', updatedAt: '2026-01-02T03:04:05.000Z' },
  { _id: 's2', name: 'Web', type: 'link', sourceText: 'solo texto fuente', text: '' },
  { _id: 's3', name: 'FAQ', type: 'chunk', chunks: [{ content: 'primer fragmento', hash: 'stale' }, { content: '  ' }, { content: 'segundo fragmento' }] },
  { _id: 's4', name: 'Vacío', type: 'text' },
];
const deps = {
  parseFile: async (file: StoredFileRef) => {
    if (file.filepath === 'broken.pdf') throw new RagError('unreadableFile', 'The PDF could not be read');
    return `contenido de ${file.filename}`;
  },
  parseUrl: async (url: string) => `página ${url}`,
};

describe('planTraining', () => {
  it('collects sources, texts, files and urls with labels and hashes', async () => {
    const plan = await planTraining(
      {
        sources: ['s1', { _id: 's2' }, 's3', 's4', 'gone'],
        texts: [{ title: 'Horario', content: 'de 9 a 18' }, { content: 'sin título' }],
        files: [{ title: 'x', file: { filename: 'guia.pdf', filepath: 'files/guia.pdf' } }, { file: { filename: 'roto.pdf', filepath: 'broken.pdf' } }],
        urls: [{ title: 'Inicio', url: 'https://example.com/' }],
      },
      sources,
      deps,
    );
    expect(plan.chunks.map(({ content, source }) => [source, content])).toEqual([
      ['Manual', 'texto editado'],
      ['Web', 'solo texto fuente'],
      ['FAQ', 'primer fragmento'],
      ['FAQ', 'segundo fragmento'],
      ['Horario', 'de 9 a 18'],
      ['texts[1]', 'sin título'],
      ['guia.pdf', 'contenido de guia.pdf'],
      ['https://example.com/', 'página https://example.com/'],
    ]);
    for (const chunk of plan.chunks) expect(chunk.hash).toBe(sha256Hex(chunk.content));
    expect(plan.problems).toEqual([
      { source: 'Vacío', message: 'no text to index', reason: 'knowledge.problem.empty', sourceId: 's4' },
      { source: 'gone', message: 'knowledge source not found', reason: 'knowledge.problem.sourceNotFound', sourceId: 'gone' },
      { source: 'roto.pdf', message: 'The PDF could not be read', reason: 'error.rag.unreadableFile' },
    ]);
    // What each source gave, with the updatedAt it had: the console's per-source state and "needs retraining".
    expect(plan.sources).toEqual([
      { source: 's1', name: 'Manual', chunks: 1, version: '2026-01-02T03:04:05.000Z' },
      { source: 's2', name: 'Web', chunks: 1, version: null },
      { source: 's3', name: 'FAQ', chunks: 2, version: null },
      { source: 's4', name: 'Vacío', chunks: 0, version: null },
    ]);
  });

  it('reports a chunk source without chunks as empty, with its id', async () => {
    const plan = await planTraining({ sources: ['c0'] }, [{ _id: 'c0', name: 'Sin trozos', type: 'chunk', chunks: [] }], deps);
    expect(plan.problems).toEqual([{ source: 'Sin trozos', message: 'no text to index', reason: 'knowledge.problem.empty', sourceId: 'c0' }]);
    expect(plan.sources).toEqual([{ source: 'c0', name: 'Sin trozos', chunks: 0, version: null }]);
  });

  it('gives each problem a locale key: the RagError\'s own (a refused link) or one for its kind', async () => {
    const plan = await planTraining(
      { urls: [{ url: 'http://127.0.0.1/' }, { url: 'https://down.example/' }], files: [{ file: { filename: 'a.txt', filepath: 'a.txt' } }] },
      [],
      {
        parseFile: async () => {
          throw new Error('EACCES');
        },
        parseUrl: async (url) => {
          if (url.includes('127.0.0.1')) throw new RagError('urlRefused', 'Refused: 127.0.0.1 resolves to a non-public address (127.0.0.1)', { field: 'url' });
          throw new Error('socket hang up');
        },
      },
    );
    expect(plan.chunks).toEqual([]);
    expect(plan.problems).toEqual([
      { source: 'a.txt', message: 'EACCES', reason: 'error.rag.unreadableFile' },
      { source: 'http://127.0.0.1/', message: 'Refused: 127.0.0.1 resolves to a non-public address (127.0.0.1)', reason: 'error.rag.urlRefused' },
      { source: 'https://down.example/', message: 'socket hang up', reason: 'error.rag.urlUnreachable' },
    ]);
  });

  it('chunks long texts with the given settings', async () => {
    const long = 'palabra '.repeat(300);
    const plan = await planTraining({ texts: [{ title: 't', content: long }] }, [], { ...deps, chunkOptions: { chunkSize: 100, chunkOverlap: 20 } });
    expect(plan.chunks.length).toBeGreaterThan(20);
    expect(plan.chunks.every((c) => c.content.length <= 100 && c.source === 't')).toBe(true);
  });

  it('uses every given source when the knowledge lists none', async () => {
    const plan = await planTraining({}, sources.slice(0, 1), deps);
    expect(plan.chunks).toHaveLength(1);
  });

  it('indexes the edited chunks of a text, file or link source instead of re-chunking its text', async () => {
    const chunked: TrainingSource = {
      _id: 'c1', name: 'Troceado', type: 'text', text: 'texto entero', chunks: [{ content: 'trozo editado' }, { content: ' ' }, { content: 'otro trozo' }],
    };
    const plan = await planTraining({ sources: ['c1'] }, [chunked], deps);
    expect(plan.chunks.map((c) => [c.source, c.content])).toEqual([['Troceado', 'trozo editado'], ['Troceado', 'otro trozo']]);
    expect(plan.chunks[0].hash).toBe(sha256Hex('trozo editado'));
    const emptyChunks = await planTraining({ sources: ['c1'] }, [{ ...chunked, chunks: [{ content: '  ' }] }], deps);
    expect(emptyChunks.chunks.map((c) => c.content)).toEqual(['texto entero']);
  });
});

describe('planTraining languages', () => {
  it("gives each chunk the source's language, else the base's, else none (detected when indexed)", async () => {
    const withLanguages: TrainingSource[] = [
      { _id: 'a', name: 'English manual', type: 'text', text: 'How returns work', language: 'en' },
      { _id: 'b', name: 'Auto', type: 'text', text: 'Texto de la base', language: 'auto' },
      { _id: 'c', name: 'Chunks', type: 'chunk', chunks: [{ content: 'Fragment en français' }], language: 'fr' },
      { _id: 'd', name: 'Old', type: 'text', text: 'Sin idioma guardado' },
    ];
    const byBase = await planTraining({ language: 'es', sources: ['a', 'b', 'c', 'd'], texts: [{ content: 'un texto' }] }, withLanguages, deps);
    expect(byBase.chunks.map((c) => [c.source, c.language])).toEqual([
      ['English manual', 'en'],
      ['Auto', 'es'],
      ['Chunks', 'fr'],
      ['Old', 'es'],
      ['texts[0]', 'es'],
    ]);
    const detected = await planTraining({ language: 'auto', sources: ['b', 'd'] }, withLanguages, deps);
    expect(detected.chunks.map((c) => c.language ?? null)).toEqual([null, null]);
  });
});
