import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Notifications } from '@mantine/notifications';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import { toApiError } from '../../../runtime/transport/to-api-error.ts';
import { chatFailureKey } from '../../../src/chat/chat-api.ts';
import { entities } from '../../../src/generated/entities.ts';
import { failureMessage, problemText } from '../../../src/knowledge/training-outcome.ts';
import { knowledgeOverrides } from '../../../src/overrides/knowledge/knowledge-overrides.ts';
import { RuntimeHarness, installBrowserShims, testI18n } from '../runtime/runtime-test-harness.tsx';

beforeAll(installBrowserShims);

const t = testI18n.t.bind(testI18n) as (key: string, options?: Record<string, unknown>) => string;
const refused = { source: 'http://127.0.0.1/faq', message: 'Refused: 127.0.0.1 resolves to a non-public address (127.0.0.1)', reason: 'error.rag.urlRefused' };
const empty = { source: 'vacio.txt', message: 'no text to index', reason: 'knowledge.problem.empty' };
const base = { name: 'KB', toolDescription: 'x', maxResults: 5, scoreThreshold: 0.5, sources: [], user: null, createdAt: '2024-01-01T00:00:00.000Z' };
const rows = [
  { ...base, _id: 'k-none', name: 'Nueva', trainingState: null, trainedAt: null, trainedChunks: null, trainingProblems: [] },
  { ...base, _id: 'k-ok', name: 'Lista', trainingState: 'trained', trainedAt: '2024-05-02T10:20:30.000Z', trainedChunks: 12, trainingProblems: [] },
  { ...base, _id: 'k-warn', name: 'Avisos', trainingState: 'warning', trainedAt: '2024-05-02T10:20:30.000Z', trainedChunks: 3, trainingProblems: [refused, empty] },
  { ...base, _id: 'k-fail', name: 'Rota', trainingState: 'failed', trainedAt: null, trainedChunks: null, trainingProblems: [{ source: '', message: 'upstream 502', reason: 'error.rag.llmFailed' }] },
];

function renderList() {
  const entityClient = { paginate: vi.fn(async () => ({ items: rows, total: rows.length })) };
  render(
    <MemoryRouter>
      <RuntimeHarness services={{ entityClients: { knowledge: entityClient }, overrides: { knowledge: knowledgeOverrides }, forms: { knowledge: async () => ({ schema: {}, uiSchema: {}, validateFns: {} }) as never } }}>
        <Notifications />
        <CrudPage model={entities.knowledge} />
      </RuntimeHarness>
    </MemoryRouter>,
  );
}

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('knowledge list: each base shows its training state (docs/product-rules.md#errors)', () => {
  it('not trained, trained at <time> with N fragments, N problems with their reasons, failed', { timeout: 30_000 }, async () => {
    renderList();
    await screen.findByText('Nueva', {}, { timeout: 20_000 });
    expect(within(rowOf('Nueva')).getByTestId('training-state')).toHaveTextContent('Sin entrenar');
    expect(within(rowOf('Lista')).getByTestId('training-state')).toHaveTextContent(/Entrenada.*02\/05\/2024 \d\d:20:30 · 12 fragmentos/);
    const warning = within(rowOf('Avisos')).getByTestId('training-state');
    expect(warning).toHaveAttribute('data-state', 'warning');
    expect(warning).toHaveTextContent('2 problemas');
    // The reasons, translated, with the server's detail (the address policy's own words).
    const badge = within(warning).getByLabelText(/Esa dirección no está permitida/);
    expect(badge.getAttribute('aria-label')).toContain('Refused: 127.0.0.1 resolves to a non-public address');
    expect(badge.getAttribute('aria-label')).toContain('vacio.txt: No tiene texto que indexar');
    expect(within(rowOf('Rota')).getByTestId('training-state')).toHaveTextContent('Falló');
  });

  it('the train button of a base whose last training failed is a red alert with the message (also after a restart)', { timeout: 30_000 }, async () => {
    renderList();
    await screen.findByText('Rota', {}, { timeout: 20_000 });
    const alert = within(rowOf('Rota')).getByTestId('knowledge-train-failed');
    expect(alert).toHaveAttribute('aria-label', 'El modelo de lenguaje no respondió correctamente (upstream 502)');
    expect(within(rowOf('Lista')).getByTestId('knowledge-train')).toBeInTheDocument();
    expect(within(rowOf('Avisos')).getByTestId('knowledge-train')).toBeInTheDocument();
  });
});

describe('messages of failed calls', () => {
  it('a problem reads "source: reason (detail)"', () => {
    expect(problemText(refused, t)).toBe('http://127.0.0.1/faq: Esa dirección no está permitida (Refused: 127.0.0.1 resolves to a non-public address (127.0.0.1))');
  });

  it('a failed call shows the server i18nMessage, else its field reason, else the transport key', () => {
    expect(failureMessage(toApiError({ kind: 'http', status: 502, body: { message: 'x', i18nMessage: 'error.rag.llmFailed' } }), t)).toBe('El modelo de lenguaje no respondió correctamente');
    expect(failureMessage(toApiError({ kind: 'http', status: 400, body: { message: 'Refused', inputErrors: [{ field: 'url', reason: 'error.rag.urlRefused' }] } }), t)).toBe('Esa dirección no está permitida');
    expect(failureMessage(toApiError({ kind: 'network' }), t)).toBe('Error de red');
  });

  it('a chat start failure is the server i18nMessage, never its English message; else the generic one', () => {
    expect(chatFailureKey(toApiError({ kind: 'http', status: 429, body: { message: 'Too many requests', i18nMessage: 'error.tooManyRequests' } }))).toBe('error.tooManyRequests');
    expect(chatFailureKey(toApiError({ kind: 'http', status: 404, body: { message: 'Bot x not found' } }))).toBe('chat.error.unexpected');
    expect(chatFailureKey(toApiError({ kind: 'network' }))).toBe('chat.error.unexpected');
    expect(chatFailureKey(new Error('boom'))).toBe('chat.error.unexpected');
  });
});
