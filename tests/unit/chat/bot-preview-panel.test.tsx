import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { PreviewAnswer } from '../../../contract/chat/preview-answer.ts';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import { entities } from '../../../src/generated/entities.ts';
import { formLoaders } from '../../../src/generated/forms.ts';
import { RuntimeHarness, installBrowserShims } from '../runtime/runtime-test-harness.tsx';

const mocks = vi.hoisted(() => ({ call: vi.fn() }));
vi.mock('../../../src/session/api-client.ts', () => ({ restApi: { call: mocks.call } }));

const { BotPreviewPanel, previewDraft } = await import('../../../src/chat/preview/bot-preview-panel.tsx');
const { BotForm } = await import('../../../src/overrides/bot/bot-form.tsx');

const answered: PreviewAnswer = {
  status: 'ok',
  answer: 'Se envían en **48 horas**.',
  citations: [],
  error: null,
  fragments: [
    { source: 'Envíos', hash: 'a'.repeat(64), content: 'Los pedidos se envían en 48 horas.', score: 0.8731, used: true },
    { source: 'Horario', hash: 'b'.repeat(64), content: 'De lunes a viernes.', score: 0.3125, used: false },
  ],
  prompt: [
    { role: 'system', content: 'Eres Tienda. Fragmentos: Los pedidos se envían en 48 horas.' },
    { role: 'user', content: '¿Cuánto tarda?' },
  ],
  provider: 'offline',
  model: 'extractive',
  inputTokens: 120,
  outputTokens: 9,
  tokens: 129,
  latencyMs: 1534,
};

beforeAll(installBrowserShims);
beforeEach(() => mocks.call.mockReset());

function renderPanel(draft = { systemPrompt: 'Borrador', knowledge: 'k1' }) {
  render(
    <MemoryRouter>
      <RuntimeHarness services={{}}>
        <BotPreviewPanel botId="bot 1" draft={draft} />
      </RuntimeHarness>
    </MemoryRouter>,
  );
}

async function ask(user: ReturnType<typeof userEvent.setup>, question: string) {
  await user.click(screen.getByTestId('bot-preview-input'));
  await user.paste(question);
  await user.click(screen.getByTestId('bot-preview-send'));
}

// Typing through user-event on a loaded machine: more than the default 5 s.
describe('bot preview panel', { timeout: 30_000 }, () => {
  it('asks with the draft and shows the answer, status, latency, tokens, fragments with scores and the prompt', async () => {
    const user = userEvent.setup();
    mocks.call.mockResolvedValue(answered);
    renderPanel();
    await ask(user, '¿Cuánto tarda?');
    const exchange = await screen.findByTestId('bot-preview-exchange');
    expect(mocks.call).toHaveBeenCalledWith(expect.objectContaining({
      method: 'POST',
      path: '/api/chat/preview/bot%201',
      json: { message: '¿Cuánto tarda?', history: [], draft: { systemPrompt: 'Borrador', knowledge: 'k1' } },
    }));
    expect(within(exchange).getByTestId('bot-preview-answer')).toHaveTextContent('Se envían en 48 horas.');
    expect(within(exchange).getByTestId('bot-preview-status')).toHaveTextContent('Respondida');
    expect(within(exchange).getByTestId('bot-preview-metrics')).toHaveTextContent('1.53 s');
    expect(within(exchange).getByTestId('bot-preview-metrics')).toHaveTextContent('129 tokens (120 entrada, 9 salida)');
    await user.click(within(exchange).getByRole('button', { name: 'Fragmentos recuperados (2)' }));
    const fragments = within(exchange).getAllByTestId('bot-preview-fragment');
    expect(fragments.map((f) => within(f).getByTestId('bot-preview-score').textContent)).toEqual(['0.873', '0.313']);
    expect(fragments[0]).toHaveTextContent('usado');
    expect(fragments[1]).not.toHaveTextContent('usado');
    await user.click(within(exchange).getByRole('button', { name: 'Prompt enviado' }));
    expect(within(exchange).getByTestId('bot-preview-prompt')).toHaveTextContent('Eres Tienda.');
    // The input is cleared for the next question.
    expect(screen.getByTestId('bot-preview-input')).toHaveValue('');
  });

  it('sends the earlier turns back as history, and Reiniciar forgets them', async () => {
    const user = userEvent.setup();
    mocks.call.mockResolvedValue(answered);
    renderPanel();
    await ask(user, 'Primera');
    await screen.findByTestId('bot-preview-exchange');
    await ask(user, 'Segunda');
    await waitFor(() => expect(screen.getAllByTestId('bot-preview-exchange')).toHaveLength(2));
    expect(mocks.call.mock.calls[1][0].json.history).toEqual([
      { role: 'user', message: 'Primera' },
      { role: 'assistant', message: answered.answer },
    ]);
    await user.click(screen.getByTestId('bot-preview-reset'));
    expect(screen.queryAllByTestId('bot-preview-exchange')).toHaveLength(0);
    await ask(user, 'Tercera');
    await screen.findByTestId('bot-preview-exchange');
    expect(mocks.call.mock.calls[2][0].json.history).toEqual([]);
  });

  it('an unanswered question and a model failure say so; a refused call shows its message and keeps the question', async () => {
    const user = userEvent.setup();
    mocks.call.mockResolvedValueOnce({ ...answered, status: 'no_answer', answer: 'Escríbenos.', fragments: [], prompt: null, tokens: 0, inputTokens: 0, outputTokens: 0 });
    mocks.call.mockResolvedValueOnce({ ...answered, status: 'error', answer: 'Lo siento.', error: { code: 'auth', message: 'Incorrect API key' } });
    mocks.call.mockRejectedValueOnce(new ApiError('error.forbidden', 'client', 403, {}, { i18nMessage: 'chat.error.unexpected' }));
    renderPanel();
    await ask(user, 'Marte');
    const first = await screen.findByTestId('bot-preview-exchange');
    expect(within(first).getByTestId('bot-preview-status')).toHaveTextContent('Sin respuesta');
    await user.click(within(first).getByRole('button', { name: 'Prompt enviado' }));
    expect(first).toHaveTextContent('No se consultó al modelo');
    await ask(user, 'Otra');
    await waitFor(() => expect(screen.getAllByTestId('bot-preview-exchange')).toHaveLength(2));
    expect(screen.getByTestId('bot-preview-failure')).toHaveTextContent('auth: Incorrect API key');
    expect(screen.getAllByTestId('bot-preview-status')[1]).toHaveTextContent('Error del modelo');
    await ask(user, 'Tercera');
    expect(await screen.findByTestId('bot-preview-error')).toHaveTextContent('Ocurrió un error inesperado.');
    expect(screen.getByTestId('bot-preview-input')).toHaveValue('Tercera');
  });

  it('the draft takes the form\'s prompt fields and the knowledge base as an id, whatever shape the ref has', () => {
    expect(previewDraft({ systemPrompt: 'A', systemPromptWithKnowledge: ' ', fallbackMessage: '', knowledge: { _id: 'k9', name: 'Base' }, name: 'x' })).toEqual({ systemPrompt: 'A', fallbackMessage: '', knowledge: 'k9' });
    expect(previewDraft({ knowledge: 'k2' })).toEqual({ knowledge: 'k2' });
    expect(previewDraft({ knowledge: '' })).toEqual({ knowledge: null });
    expect(previewDraft({})).toEqual({ knowledge: null });
    expect(previewDraft({ systemPrompt: 3, knowledge: null })).toEqual({ knowledge: null });
  });
});

describe('bot form', { timeout: 30_000 }, () => {
  const knowledgeClient = { search: vi.fn(async () => []), findByIds: vi.fn(async () => []) } as never;
  async function renderForm(can: (permission: string | null | undefined) => boolean, initialData: Record<string, unknown>) {
    const schemas = await formLoaders.bot();
    render(
      <MemoryRouter>
        <RuntimeHarness services={{ entities, entityClients: { knowledge: knowledgeClient } }} can={can}>
          <BotForm model={entities.bot} schemas={schemas} operation="edit" initialData={initialData} />
        </RuntimeHarness>
      </MemoryRouter>,
    );
  }

  it('shows the preview beside a saved bot to those who may edit it, with the form\'s current values', async () => {
    const user = userEvent.setup();
    mocks.call.mockResolvedValue(answered);
    await renderForm(() => true, { _id: 'b1', name: 'Tienda', description: 'd', systemPrompt: 'Guardado', systemPromptWithKnowledge: 'G {{documents}}', knowledge: null });
    expect(await screen.findByTestId('bot-preview')).toBeInTheDocument();
    const prompt = document.getElementById('root_systemPrompt') as HTMLTextAreaElement;
    await user.clear(prompt);
    await user.click(prompt);
    await user.paste('Sin guardar');
    await ask(user, 'Hola');
    await screen.findByTestId('bot-preview-exchange');
    expect(mocks.call.mock.calls[0][0].json.draft).toMatchObject({ systemPrompt: 'Sin guardar', systemPromptWithKnowledge: 'G {{documents}}', knowledge: null });
  });

  it('has no preview for a new bot, nor for a role without bot:update or bot:manage', async () => {
    await renderForm(() => true, {});
    expect(await screen.findByTestId('bot-embed-save-first')).toBeInTheDocument();
    expect(screen.queryByTestId('bot-preview')).toBeNull();
  });

  it.each([[['bot:view']], [['bot:view', 'bot:create']], [[]]])('is hidden for %j', async (permissions) => {
    await renderForm((permission) => !permission || permissions.includes(permission), { _id: 'b1', name: 'Tienda', description: 'd' });
    expect(await screen.findByTestId('bot-embed')).toBeInTheDocument();
    expect(screen.queryByTestId('bot-preview')).toBeNull();
  });

  it.each([[['bot:update']], [['bot:manage']]])('is shown for %j', async (permissions) => {
    await renderForm((permission) => !permission || permissions.includes(permission), { _id: 'b1', name: 'Tienda', description: 'd' });
    expect(await screen.findByTestId('bot-preview')).toBeInTheDocument();
  });
});
