import { describe, expect, it, vi } from 'vitest';
import { fileItem, linkItem, linkItems, readItem, sourceInput, textItem, type ReadDeps } from '../../../src/knowledge/add-content/content-item.ts';
import { needsRetraining, sourceState } from '../../../src/knowledge/source-state.ts';
import { START_STEPS, startStepLink, visibleStartSteps } from '../../../src/home/getting-started.ts';
import { entities } from '../../../src/generated/entities.ts';

const settings = { chunkSize: 1000, chunkOverlap: 100 };
const file = (name: string, content = 'hola') => new File([content], name, { type: 'text/plain' });

describe('add content: items refuse bad input on the item itself', () => {
  it('empty text, unsupported or empty file, a link that is not http(s)', () => {
    expect(textItem('   ')).toMatchObject({ status: 'failed', error: 'knowledge.add.error.emptyText' });
    expect(textItem('Horario\nde 9 a 18')).toMatchObject({ status: 'waiting', name: 'Horario', kind: 'text' });
    expect(textItem('x', '  Mi título ')).toMatchObject({ name: 'Mi título' });
    expect(fileItem(file('foto.png'))).toMatchObject({ status: 'failed', error: 'knowledge.add.error.unsupportedFile' });
    expect(fileItem(file('vacio.txt', ''))).toMatchObject({ status: 'failed', error: 'knowledge.add.error.emptyFile' });
    expect(fileItem(file('Guía.PDF'))).toMatchObject({ status: 'waiting', name: 'Guía.PDF' });
    expect(linkItem('ftp://example.com/a')).toMatchObject({ status: 'failed', error: 'knowledge.add.error.invalidUrl' });
    expect(linkItem('no es un enlace')).toMatchObject({ status: 'failed', error: 'knowledge.add.error.invalidUrl' });
    expect(linkItem(`https://example.com/${'a'.repeat(2100)}`)).toMatchObject({ status: 'failed', error: 'knowledge.add.error.urlTooLong' });
    expect(linkItem(' https://example.com/ayuda ')).toMatchObject({ status: 'waiting', url: 'https://example.com/ayuda', name: 'example.com/ayuda' });
    expect(linkItems('https://a.example/\n\n  \nhttps://b.example/x').map((item) => item.url)).toEqual(['https://a.example/', 'https://b.example/x']);
  });

  it('reads a file once (upload, extract, chunk), then only chunks again', async () => {
    const deps: ReadDeps = {
      upload: vi.fn(async () => ({ filename: 'a.txt', filepath: 'files/a.txt', size: 4, mimetype: 'text/plain', url: '/files/a.txt' })),
      parseFile: vi.fn(async () => ({ content: 'texto extraído' })),
      parseUrl: vi.fn(async () => ({ content: '' })),
      chunk: vi.fn(async (text: string) => ({ chunks: [{ content: text }] })),
    };
    const item = fileItem(file('a.txt'));
    const read = await readItem(item, deps, settings);
    expect(read).toMatchObject({ extracted: 'texto extraído', chunks: [{ content: 'texto extraído' }], uploaded: { filepath: 'files/a.txt' } });
    await readItem({ ...item, ...read }, deps, { chunkSize: 200, chunkOverlap: 0 });
    expect(deps.upload).toHaveBeenCalledTimes(1);
    expect(deps.parseFile).toHaveBeenCalledTimes(1);
    expect(deps.chunk).toHaveBeenLastCalledWith('texto extraído', { chunkSize: 200, chunkOverlap: 0 });
    // A page with no text is a failure of that item, with its own reason.
    await expect(readItem(linkItem('https://example.com/'), deps, settings)).rejects.toMatchObject({ key: 'knowledge.add.error.noText' });
  });

  it('an item becomes a knowledge source of its kind, with its text and previewed chunks', () => {
    const uploaded = { filename: 'a.txt', filepath: 'files/a.txt', size: 4, mimetype: 'text/plain', url: '/files/a.txt' };
    const chunks = [{ content: 'uno', hash: 'h' }];
    expect(sourceInput({ ...fileItem(file('a.txt')), uploaded, extracted: 'uno', chunks })).toEqual({
      name: 'a.txt', type: 'file', file: uploaded, sourceText: 'uno', text: 'uno', chunks: [{ content: 'uno', category: '', tags: [] }],
    });
    expect(sourceInput({ ...linkItem('https://example.com/x'), extracted: 'dos', chunks: [] })).toMatchObject({ type: 'link', link: 'https://example.com/x', text: 'dos' });
    expect(sourceInput({ ...textItem('tres'), extracted: 'tres', chunks: [] })).toMatchObject({ type: 'text', sourceText: 'tres' });
  });
});

describe('source state and "needs retraining"', () => {
  const trainedAt = '2026-01-01T10:00:00.000Z';
  const a = { _id: 'a', name: 'A', updatedAt: '2026-01-01T09:00:00.000Z' };
  const b = { _id: 'b', name: 'B', updatedAt: '2026-01-01T09:30:00.000Z' };
  const knowledge = {
    trainingState: 'warning',
    trainedAt,
    trainedSources: [
      { source: 'a', name: 'A', chunks: 3, version: a.updatedAt },
      { source: 'b', name: 'B', chunks: 0, version: b.updatedAt },
    ],
    trainingProblems: [{ source: 'B', message: 'no text to index', reason: 'knowledge.problem.empty', sourceId: 'b' }],
  };

  it('pending before any training; indexed with N fragments; a problem with its reason; added or changed since', () => {
    expect(sourceState({ trainedAt: null }, a)).toEqual({ kind: 'pending', why: 'notTrained' });
    expect(sourceState(knowledge, a)).toEqual({ kind: 'indexed', chunks: 3 });
    expect(sourceState(knowledge, b)).toEqual({ kind: 'problem', reason: 'knowledge.problem.empty', message: 'no text to index' });
    expect(sourceState(knowledge, { _id: 'c', name: 'C', updatedAt: trainedAt })).toEqual({ kind: 'pending', why: 'added' });
    expect(sourceState(knowledge, { ...a, updatedAt: '2026-01-01T11:00:00.000Z' })).toEqual({ kind: 'pending', why: 'changed' });
    // A base trained before trainedSources existed: timestamps decide.
    expect(sourceState({ trainedAt }, a)).toEqual({ kind: 'indexed', chunks: null });
    expect(sourceState({ trainedAt }, { ...a, updatedAt: '2026-01-02T00:00:00.000Z' })).toEqual({ kind: 'pending', why: 'changed' });
  });

  it('needs retraining when a source is added, changed or removed since the training; not otherwise', () => {
    expect(needsRetraining(knowledge, [a, b])).toBe(false);
    expect(needsRetraining(knowledge, [a, b, { _id: 'c', name: 'C' }])).toBe(true);
    expect(needsRetraining(knowledge, [{ ...a, updatedAt: '2026-01-01T11:00:00.000Z' }, b])).toBe(true);
    expect(needsRetraining(knowledge, [a])).toBe(true);
    expect(needsRetraining({ trainedAt: null }, [])).toBe(false);
    expect(needsRetraining({ trainedAt: null }, [a])).toBe(true);
    expect(needsRetraining({ trainedAt: null, texts: [{ content: 'x' }] }, [])).toBe(true);
  });
});

describe('getting started', () => {
  const only = (...granted: string[]) => (permission: string) => granted.includes(permission);

  it('follows the path and hides the steps the user may not take', () => {
    expect(START_STEPS.map((step) => step.name)).toEqual(['createKnowledge', 'addContent', 'createBot', 'tryChat', 'share']);
    expect(visibleStartSteps(() => true, entities).map((step) => step.name)).toEqual(['createKnowledge', 'addContent', 'createBot', 'tryChat', 'share']);
    expect(visibleStartSteps(only('knowledge:manage'), entities).map((step) => step.name)).toEqual(['createKnowledge']);
    expect(visibleStartSteps(only('knowledge:manage', 'knowledgesource:create', 'bot:view', 'conversation:view'), entities).map((step) => step.name)).toEqual([
      'createKnowledge', 'addContent', 'tryChat',
    ]);
    expect(visibleStartSteps(only('bot:view'), entities)).toEqual([]);
    // May create but not list: the step could never be ticked, and its count would be refused.
    expect(visibleStartSteps(only('knowledge:create', 'bot:manage'), entities).map((step) => step.name)).toEqual(['createBot']);
  });

  it('links each step to where it is done', () => {
    expect(startStepLink('addContent', { knowledgeId: 'k 1', botId: null })).toEqual({ to: '/knowledge/k%201', external: false });
    expect(startStepLink('addContent', { knowledgeId: null, botId: null })?.to).toBe('/crud/knowledge');
    expect(startStepLink('tryChat', { knowledgeId: null, botId: 'b1' })).toEqual({ to: '/chat/b1', external: true });
    expect(startStepLink('share', { knowledgeId: null, botId: 'b1' })).toEqual({ to: '/chat/qr/b1', external: true });
    // No bot yet: nothing to open (the "Create a bot" step leads there).
    expect(startStepLink('tryChat', { knowledgeId: null, botId: null })).toBeNull();
  });
});
