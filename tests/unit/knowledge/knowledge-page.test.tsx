import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import KnowledgePage from '../../../src/knowledge/knowledge-page.tsx';
import { entities } from '../../../src/generated/entities.ts';
import { RuntimeHarness, installBrowserShims } from '../runtime/runtime-test-harness.tsx';

beforeAll(installBrowserShims);

const WAIT = { timeout: 10_000 };
const knowledge = {
  _id: 'k1',
  name: 'Tienda',
  sources: [{ _id: 'a', name: 'Envíos' }, { _id: 'b', name: 'Horario' }],
  trainingState: 'trained',
  trainedAt: '2026-01-01T10:00:00.000Z',
  trainedChunks: 4,
  trainingProblems: [],
  trainedSources: [{ source: 'a', name: 'Envíos', chunks: 4, version: '2026-01-01T09:00:00.000Z' }],
};
const sources = [
  { _id: 'a', name: 'Envíos', type: 'text', updatedAt: '2026-01-01T09:00:00.000Z' },
  { _id: 'b', name: 'Horario', type: 'file', updatedAt: '2026-01-01T11:00:00.000Z' },
];

function renderPage(can: (permission: string | null | undefined) => boolean, path = '/knowledge/k1') {
  const entityClients = {
    knowledge: { findById: vi.fn(async () => knowledge), update: vi.fn() },
    knowledgesource: { findByIds: vi.fn(async () => sources), create: vi.fn() },
  };
  render(
    <MemoryRouter initialEntries={[path]}>
      <RuntimeHarness services={{ entityClients, entities }} can={can}>
        <Routes>
          <Route path="/knowledge/:id" element={<KnowledgePage />} />
        </Routes>
      </RuntimeHarness>
    </MemoryRouter>,
  );
  return entityClients;
}

describe('knowledge base page', () => {
  it('shows each source\'s state and the "needs retraining" notice; a manager may add content and train', async () => {
    renderPage(() => true);
    await screen.findByTestId('knowledge-needs-retraining', {}, WAIT);
    const rows = screen.getAllByTestId('knowledge-source');
    expect(rows.map((row) => row.getAttribute('data-state'))).toEqual(['indexed', 'pending']);
    expect(within(rows[0]).getByTestId('source-state')).toHaveTextContent('Indexada · 4 fragmentos');
    expect(within(rows[1]).getByTestId('source-state')).toHaveTextContent('Nueva: pendiente de entrenar');
    expect(screen.getByTestId('knowledge-add-content')).toBeInTheDocument();
    expect(screen.getByTestId('knowledge-page-train')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Entrenar ahora' })).toBeInTheDocument();
  });

  it('a viewer sees the state but no add or train button, and never asks for sources it may not see', async () => {
    const entityClients = renderPage((permission) => permission === 'knowledge:view');
    await screen.findByRole('heading', { name: 'Tienda', level: 2 }, WAIT);
    expect(screen.queryByTestId('knowledge-add-content')).toBeNull();
    expect(screen.queryByTestId('knowledge-page-train')).toBeNull();
    expect(screen.getByText('No tienes permiso para ver las fuentes de esta base.')).toBeInTheDocument();
    expect(entityClients.knowledgesource.findByIds).not.toHaveBeenCalled();
  });

  it('?add&text= opens "Add content" with the text prefilled', async () => {
    renderPage(() => true, '/knowledge/k1?add&text=%C2%BFHac%C3%A9is%20env%C3%ADos%3F');
    const text = await screen.findByTestId('add-text', {}, WAIT);
    expect(text).toHaveValue('¿Hacéis envíos?');
  });
});
