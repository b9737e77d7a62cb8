import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { AddContentDialog } from '../../../src/knowledge/add-content/add-content-dialog.tsx';
import type { AddContentDeps } from '../../../src/knowledge/add-content/use-add-content.ts';
import { KnowledgeSourcesList } from '../../../src/knowledge/knowledge-sources-list.tsx';
import { GettingStartedChecklist } from '../../../src/home/getting-started-checklist.tsx';
import { entities } from '../../../src/generated/entities.ts';
import { toApiError } from '../../../runtime/transport/to-api-error.ts';
import { RuntimeHarness, installBrowserShims } from '../runtime/runtime-test-harness.tsx';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';

/** Shows a marker once every getting-started count has been fetched and no fetch is running. */
function CountsSettled() {
  const fetching = useIsFetching({ queryKey: ['getting-started'] });
  const queries = useQueryClient().getQueryCache().findAll({ queryKey: ['getting-started'] });
  const settled = fetching === 0 && queries.length > 0 && queries.every((query) => query.state.status === 'success');
  return settled ? <span data-testid="counts-settled" /> : null;
}

beforeAll(installBrowserShims);

/** Generous: the machine running the tests is shared. */
const WAIT = { timeout: 10_000 };

function fakeDeps(): AddContentDeps & { created: Record<string, unknown>[] } {
  const created: Record<string, unknown>[] = [];
  return {
    created,
    upload: vi.fn(async (file: File) => ({ filename: file.name, filepath: `files/${file.name}`, size: file.size, mimetype: file.type, url: `/files/${file.name}` })),
    parseFile: vi.fn(async (filepath: string) => ({ content: `Contenido de ${filepath}` })),
    parseUrl: vi.fn(async (url: string) => {
      if (url.includes('caida')) throw toApiError({ kind: 'http', status: 400, body: { message: 'unreachable', inputErrors: [{ field: 'url', reason: 'error.rag.urlUnreachable' }] } });
      return { content: `Página ${url}` };
    }),
    chunk: vi.fn(async (text: string, settings) => ({ chunks: text.length > settings.chunkSize ? [{ content: text.slice(0, settings.chunkSize) }, { content: text.slice(settings.chunkSize) }] : [{ content: text }] })),
    createSource: vi.fn(async (data: Record<string, unknown>) => {
      created.push(data);
      return { _id: `s${created.length}` };
    }),
    linkSources: vi.fn(async () => undefined),
    train: vi.fn(async () => ({ total: 3, added: 3, kept: 0, removed: 0, chunks: 3, trainedAt: '2026-01-01T00:00:00.000Z', problems: [] })),
    status: vi.fn(async () => ({ state: 'running' as const, phase: 'indexing' as const, done: 1, total: 3, chunks: 0, trainedAt: null })),
  };
}

function renderDialog(deps: AddContentDeps, onTrained = vi.fn()) {
  render(
    <RuntimeHarness services={{}}>
      <AddContentDialog opened knowledgeName="Tienda" deps={deps} onClose={() => undefined} onTrained={onTrained} />
    </RuntimeHarness>,
  );
  return onTrained;
}

const items = () => screen.getAllByTestId('content-item');

describe('add content in one flow', () => {
  it('text, several files and links: each is read and previewed; bad ones say why on the item; the rest is saved, linked and trained', { timeout: 60_000 }, async () => {
    const deps = fakeDeps();
    const onTrained = renderDialog(deps);
    expect(screen.getByText('Añadir contenido a «Tienda»')).toBeInTheDocument();

    // Pasted text.
    fireEvent.change(screen.getByTestId('add-text'), { target: { value: 'Horario\nAbrimos de 9 a 18 horas.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Añadir texto' }));
    await waitFor(() => expect(items()[0]).toHaveAttribute('data-status', 'ready'), WAIT);
    expect(within(items()[0]).getByText('Horario')).toBeInTheDocument();
    expect(within(items()[0]).getByText('Listo · 1 fragmento')).toBeInTheDocument();

    // Two files dropped at once, one the server cannot read.
    fireEvent.click(screen.getByRole('tab', { name: 'Subir archivos' }));
    const drop = screen.getByTestId('files-drop');
    fireEvent.drop(drop, { dataTransfer: { files: [new File(['hola'], 'guia.txt', { type: 'text/plain' }), new File(['x'], 'foto.png', { type: 'image/png' })] } });
    await waitFor(() => expect(items()).toHaveLength(3), WAIT);
    expect(within(items()[2]).getByTestId('content-item-error')).toHaveTextContent('Tipo de archivo no admitido');
    await waitFor(() => expect(items()[1]).toHaveAttribute('data-status', 'ready'), WAIT);
    expect(deps.upload).toHaveBeenCalledTimes(1);

    // Links: one good, one unreachable, one not a link.
    fireEvent.click(screen.getByRole('tab', { name: 'Enlaces' }));
    fireEvent.change(screen.getByTestId('add-links'), { target: { value: 'https://tienda.example/envios\nhttps://caida.example/\nnada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Añadir enlaces' }));
    await waitFor(() => expect(items()).toHaveLength(6), WAIT);
    await waitFor(() => expect(items()[4]).toHaveAttribute('data-status', 'failed'), WAIT);
    expect(within(items()[4]).getByTestId('content-item-error')).toHaveTextContent('No se pudo acceder a la URL');
    expect(within(items()[5]).getByTestId('content-item-error')).toHaveTextContent('No es un enlace válido');
    await waitFor(() => expect(items()[3]).toHaveAttribute('data-status', 'ready'), WAIT);

    // The chunks preview of an item.
    fireEvent.click(within(items()[3]).getByRole('button', { name: 'Ver fragmentos' }));
    expect(within(items()[3]).getByTestId('chunk-preview')).toHaveTextContent('Página https://tienda.example/envios');

    // Chunk settings are folded away; changing them chunks the read items again.
    fireEvent.click(screen.getByRole('button', { name: 'Ajustes de troceado' }));
    fireEvent.change(screen.getByLabelText('Tamaño del fragmento'), { target: { value: '100' } });
    await waitFor(() => expect(deps.chunk).toHaveBeenLastCalledWith(expect.any(String), { chunkSize: 100, chunkOverlap: 99 }), WAIT);
    await waitFor(() => expect(screen.getByTestId('add-submit')).toBeEnabled(), WAIT);
    expect(screen.getByTestId('add-submit')).toHaveTextContent('Añadir 3 y entrenar');

    fireEvent.click(screen.getByTestId('add-submit'));
    await screen.findByTestId('add-done', {}, WAIT);
    expect(deps.created.map((source) => [source.type, source.name])).toEqual([
      ['text', 'Horario'],
      ['file', 'guia.txt'],
      ['link', 'tienda.example/envios'],
    ]);
    expect(deps.created[1]).toMatchObject({ file: { filepath: 'files/guia.txt' }, text: 'Contenido de files/guia.txt' });
    expect(deps.linkSources).toHaveBeenCalledWith(['s1', 's2', 's3']);
    expect(deps.train).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('add-done')).toHaveTextContent('Base entrenada: 3 fragmentos en el índice');
    expect(screen.getByTestId('add-progress-label')).toHaveTextContent('Contenido añadido y base entrenada');
    expect(within(items()[0]).getByText('Indexada · 1 fragmento')).toBeInTheDocument();
    // The failed items keep their reasons.
    expect(items().filter((item) => item.getAttribute('data-status') === 'failed')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar' }));
    expect(onTrained).toHaveBeenCalled();
  });

  it('a source the server refuses fails alone; a failed training says why', { timeout: 30_000 }, async () => {
    const deps = fakeDeps();
    let calls = 0;
    deps.createSource = vi.fn(async () => {
      calls += 1;
      if (calls === 1) throw toApiError({ kind: 'http', status: 403, body: { message: 'Forbidden', i18nMessage: 'error.forbidden' } });
      return { _id: 'ok' };
    });
    deps.train = vi.fn(async () => {
      throw toApiError({ kind: 'http', status: 409, body: { message: 'busy', i18nMessage: 'error.rag.trainingInProgress' } });
    });
    renderDialog(deps);
    for (const text of ['Primero', 'Segundo']) {
      fireEvent.change(screen.getByTestId('add-text'), { target: { value: text } });
      fireEvent.click(screen.getByRole('button', { name: 'Añadir texto' }));
    }
    await waitFor(() => expect(screen.getByTestId('add-submit')).toHaveTextContent('Añadir 2 y entrenar'), WAIT);
    await waitFor(() => expect(screen.getByTestId('add-submit')).toBeEnabled(), WAIT);
    fireEvent.click(screen.getByTestId('add-submit'));
    await screen.findByTestId('add-error', {}, WAIT);
    expect(items()[0]).toHaveAttribute('data-status', 'failed');
    expect(items()[1]).toHaveAttribute('data-status', 'saved');
    expect(deps.linkSources).toHaveBeenCalledWith(['ok']);
    expect(screen.getByTestId('add-error').textContent).not.toBe('');
  });
});

describe('sources of a knowledge base', () => {
  it('each shows pending, indexed with N fragments or its problem', () => {
    const knowledge = {
      trainedAt: '2026-01-01T10:00:00.000Z',
      trainedSources: [{ source: 'a', name: 'A', chunks: 4, version: 'v1' }, { source: 'b', name: 'B', chunks: 0, version: 'v1' }],
      trainingProblems: [{ source: 'B', message: 'no text to index', reason: 'knowledge.problem.empty', sourceId: 'b' }],
    };
    // Each source links to its own edit dialog (a router link).
    render(
      <MemoryRouter>
        <RuntimeHarness services={{}}>
          <KnowledgeSourcesList knowledge={knowledge} sources={[{ _id: 'a', name: 'A', type: 'text', updatedAt: 'v1' }, { _id: 'b', name: 'B', type: 'file', updatedAt: 'v1' }, { _id: 'c', name: 'C', type: 'link', updatedAt: 'v2' }]} />
        </RuntimeHarness>
      </MemoryRouter>,
    );
    const rows = screen.getAllByTestId('knowledge-source');
    expect(rows.map((row) => row.getAttribute('data-state'))).toEqual(['indexed', 'problem', 'pending']);
    expect(rows[0]).toHaveTextContent('Indexada · 4 fragmentos');
    expect(rows[1]).toHaveTextContent('Problema: No tiene texto que indexar');
    expect(rows[2]).toHaveTextContent('Nueva: pendiente de entrenar');
  });
});

describe('getting-started checklist', () => {
  function entityClients(totals: Record<string, number>) {
    const paginate = (entity: string) => vi.fn(async (query: { filters?: unknown[] }) => {
      const key = query.filters ? `${entity}:trained` : entity;
      const total = totals[key] ?? 0;
      return { items: total ? [{ _id: `${entity}-1` }] : [], total };
    });
    return {
      knowledge: { paginate: paginate('knowledge') },
      bot: { paginate: paginate('bot') },
      conversation: { paginate: paginate('conversation') },
      contact: { paginate: paginate('contact') },
    };
  }

  it('ticks the steps the data shows done and links the next one', async () => {
    const services = { entityClients: entityClients({ knowledge: 1, 'knowledge:trained': 1 }), entities };
    render(
      <MemoryRouter>
        <RuntimeHarness services={services}>
          <GettingStartedChecklist can={() => true} />
        </RuntimeHarness>
      </MemoryRouter>,
    );
    await screen.findByTestId('getting-started');
    const state = (name: string) => screen.getByTestId(`start-step-${name}`).getAttribute('data-done');
    expect(['createKnowledge', 'addContent', 'createBot', 'tryChat', 'share'].map(state)).toEqual(['true', 'true', 'false', 'false', 'false']);
    expect(screen.getByText('2 de 5 hechos')).toBeInTheDocument();
    expect(within(screen.getByTestId('start-step-createBot')).getByRole('link', { name: 'Crear bot' })).toHaveAttribute('href', '/crud/bot');
  });

  it('hides steps without permission, never asks for what it may not count, and goes away when all are done', async () => {
    const services = { entityClients: entityClients({ knowledge: 2 }), entities };
    const granted = ['knowledge:manage', 'bot:manage'];
    const { unmount } = render(
      <MemoryRouter>
        <RuntimeHarness services={services}>
          <GettingStartedChecklist can={(permission) => granted.includes(permission)} />
        </RuntimeHarness>
      </MemoryRouter>,
    );
    await screen.findByTestId('getting-started');
    expect(screen.queryByTestId('start-step-addContent')).toBeNull();
    expect(screen.queryByTestId('start-step-tryChat')).toBeNull();
    expect(services.entityClients.conversation.paginate).not.toHaveBeenCalled();
    expect(services.entityClients.contact.paginate).not.toHaveBeenCalled();
    unmount();
    // Every visible step done: no card.
    const allDone = { entityClients: entityClients({ knowledge: 1, bot: 1 }), entities };
    render(
      <MemoryRouter>
        <RuntimeHarness services={allDone}>
          <GettingStartedChecklist can={(permission) => granted.includes(permission)} />
          <CountsSettled />
        </RuntimeHarness>
      </MemoryRouter>,
    );
    await waitFor(() => expect(allDone.entityClients.bot.paginate).toHaveBeenCalled(), WAIT);
    // Rendered in the same batch as the checklist once its counts answered: only then is "no card" a fact.
    await screen.findByTestId('counts-settled', undefined, WAIT);
    expect(screen.queryByTestId('getting-started')).toBeNull();
  });
});
