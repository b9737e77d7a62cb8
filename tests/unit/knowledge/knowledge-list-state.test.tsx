// The knowledge list says per base where its index stands (the server's indexState): training,
// not trained, needs retraining, trained, in words; a base shown as training is read again once its
// training ends. The base's page links each source to the detailed editor's dialog for that source.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import { entities } from '../../../src/generated/entities.ts';
import KnowledgePage from '../../../src/knowledge/knowledge-page.tsx';
import { ragApi } from '../../../src/knowledge/rag-api.ts';
import { knowledgeOverrides } from '../../../src/overrides/knowledge/knowledge-overrides.ts';
import { RuntimeHarness, installBrowserShims } from '../runtime/runtime-test-harness.tsx';

beforeAll(installBrowserShims);

const WAIT = { timeout: 20_000 };
const base = { toolDescription: 'x', maxResults: 5, scoreThreshold: 0.5, sources: [], user: null, createdAt: '2024-01-01T00:00:00.000Z', trainingProblems: [] };
const trained = { trainingState: 'trained', trainedAt: '2024-05-02T10:20:30.000Z', trainedChunks: 12 };
const empty = { ...base, _id: 'k-new', name: 'Nueva', trainingState: null, trainedAt: null, trainedChunks: null, indexState: 'notTrained' };
const current = { ...base, ...trained, _id: 'k-ok', name: 'Al día', indexState: 'trained' };
const behind = { ...base, ...trained, _id: 'k-stale', name: 'Atrasada', indexState: 'needsRetraining' };
const behindWithProblems = {
  ...base, ...trained, _id: 'k-warn', name: 'Con avisos', trainingState: 'warning', indexState: 'needsRetraining',
  trainingProblems: [{ source: 'vacio.txt', message: 'no text to index', reason: 'knowledge.problem.empty' }],
};
const training = { ...base, ...trained, _id: 'k-run', name: 'En curso', indexState: 'training' };

function renderList(pages: Record<string, unknown>[][]) {
  let call = 0;
  const entityClient = { paginate: vi.fn(async () => { const items = pages[Math.min(call++, pages.length - 1)]; return { items, total: items.length }; }) };
  render(
    <MemoryRouter>
      <RuntimeHarness services={{ entityClients: { knowledge: entityClient }, overrides: { knowledge: knowledgeOverrides }, forms: { knowledge: async () => ({ schema: {}, uiSchema: {}, validateFns: {} }) as never } }}>
        <CrudPage model={entities.knowledge} />
      </RuntimeHarness>
    </MemoryRouter>,
  );
  return entityClient;
}

const stateOf = (name: string) => within(screen.getByText(name).closest('tr') as HTMLElement).getByTestId('training-state');

describe('knowledge list: the index state of each base', () => {
  it('says in words: not trained, trained, needs retraining (with the last problems), training', { timeout: 30_000 }, async () => {
    const status = vi.spyOn(ragApi, 'status').mockResolvedValue({ state: 'running', phase: 'planning', done: 0, total: 0, chunks: 0, trainedAt: null });
    renderList([[empty, current, behind, behindWithProblems, training]]);
    await screen.findByText('Nueva', {}, WAIT);
    expect(stateOf('Nueva')).toHaveTextContent('Sin entrenar');
    expect(stateOf('Al día')).toHaveTextContent(/^Entrenada/);
    expect(stateOf('Al día')).toHaveAttribute('data-index-state', 'trained');
    // Behind: the notice replaces "Entrenada" (they would contradict each other); the time stays.
    expect(stateOf('Atrasada')).toHaveTextContent(/^Necesita reentrenar.*12 fragmentos/);
    expect(stateOf('Atrasada')).not.toHaveTextContent('Entrenada');
    expect(within(stateOf('Con avisos')).getByTestId('index-state')).toHaveTextContent('Necesita reentrenar');
    expect(stateOf('Con avisos')).toHaveTextContent('1 problema');
    expect(within(stateOf('En curso')).getByTestId('index-state')).toHaveTextContent('Entrenando…');
    // Only the base shown as training is watched.
    await waitFor(() => expect(status).toHaveBeenCalled(), WAIT);
    expect(new Set(status.mock.calls.map(([id]) => id))).toEqual(new Set(['k-run']));
    status.mockRestore();
  });

  it('a base shown as training is read again once its training is over', { timeout: 30_000 }, async () => {
    const status = vi.spyOn(ragApi, 'status').mockResolvedValue({ state: 'done', phase: null, done: 3, total: 3, chunks: 3, trainedAt: '2024-05-03T00:00:00.000Z' });
    const entityClient = renderList([[training], [{ ...training, indexState: 'trained' }]]);
    await screen.findByText('En curso', {}, WAIT);
    await waitFor(() => expect(stateOf('En curso')).toHaveAttribute('data-index-state', 'trained'), WAIT);
    expect(stateOf('En curso')).toHaveTextContent(/^Entrenada/);
    expect(entityClient.paginate.mock.calls.length).toBeGreaterThanOrEqual(2);
    status.mockRestore();
  });
});

describe('knowledge page: each source opens in the detailed editor', () => {
  it('links every source to its own edit dialog (/crud/knowledgesource?edit=<id>), named by the source', async () => {
    const knowledge = { ...base, ...trained, _id: 'k1', name: 'Tienda', sources: [{ _id: 'a', name: 'Envíos' }, { _id: 'b/2', name: 'Horario' }], indexState: 'trained', trainedSources: [] };
    const entityClients = {
      knowledge: { findById: vi.fn(async () => knowledge), update: vi.fn() },
      knowledgesource: { findByIds: vi.fn(async () => [{ _id: 'a', name: 'Envíos', type: 'text' }, { _id: 'b/2', name: 'Horario', type: 'file' }]), create: vi.fn() },
    };
    render(
      <MemoryRouter initialEntries={['/knowledge/k1']}>
        <RuntimeHarness services={{ entityClients, entities }}>
          <Routes>
            <Route path="/knowledge/:id" element={<KnowledgePage />} />
          </Routes>
        </RuntimeHarness>
      </MemoryRouter>,
    );
    const links = await screen.findAllByTestId('knowledge-source-editor', {}, WAIT);
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/crud/knowledgesource?edit=a', '/crud/knowledgesource?edit=b%2F2']);
    expect(screen.getByRole('link', { name: 'Abrir «Horario» en el editor detallado' })).toBe(links[1]);
    // The list of every source is still one link away.
    expect(screen.getByRole('link', { name: 'Todas las fuentes' })).toHaveAttribute('href', '/crud/knowledgesource');
  });
});
