import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import i18next from 'i18next';
import { ConversationForm } from '../../../src/overrides/conversation/conversation-form.tsx';
import { bottraceOverrides } from '../../../src/overrides/bottrace/bottrace-overrides.ts';
import { permissionLabelKeys, groupPermissions } from '../../../src/overrides/role/group-permissions.ts';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import { successMessageKeys } from '../../../runtime/core/crud-outcome.ts';
import { filtersFromSearch } from '../../../runtime/crud/location-filters.ts';
import { prepareFormSchemas } from '../../../runtime/form/prepare-form-schemas.ts';
import { entities } from '../../../src/generated/entities.ts';
import es from '../../../locales/es.json';
import en from '../../../locales/en.json';
import { RuntimeHarness, installBrowserShims, testI18n } from '../runtime/runtime-test-harness.tsx';
import { i18n as appI18n, loadAllTexts } from '../../../src/app/i18n.ts';

beforeAll(installBrowserShims);

const chats = [
  { id: 'u1', role: 'user', message: '¿Cuánto cuesta el envío?', createdAt: '2026-11-20T10:15:00.000Z' },
  { id: 'a1', role: 'assistant', message: 'El envío cuesta 4 €.', createdAt: '2026-11-20T10:15:02.000Z', reaction: 'Helpful' },
  { id: 'u2', role: 'user', message: '¿Enviáis a Marte?', createdAt: '2026-11-20T10:16:00.000Z' },
  { id: 'a2', role: 'assistant', message: 'No tengo información para responder a eso.', createdAt: '2026-11-20T10:16:01.000Z' },
];
const traces = [
  { _id: 't1', chatId: 'a1', status: { _id: 's1', name: 'ok' }, latency: 1234, knowledgeBase: [{ source: 'Tarifas', hash: 'abcdef0123456789', content: 'Envío nacional: 4 €' }] },
  { _id: 't2', chatId: 'a2', status: { _id: 's3', name: 'no_answer' }, latency: 300, knowledgeBase: [] },
];

function renderTranscript(can: (permission: string | null | undefined) => boolean = () => true) {
  const conversation = { findById: vi.fn(async () => ({ _id: 'c1', contact: { _id: 'k1', name: 'Ana Visitante' }, bot: { _id: 'b1', name: 'Soporte' }, chats })) };
  const bottrace = { find: vi.fn(async () => traces) };
  render(
    <MemoryRouter>
      <RuntimeHarness services={{ entityClients: { conversation, bottrace }, entities }} can={can}>
        <ConversationForm
          model={entities.conversation}
          schemas={{ schema: {}, uiSchema: {}, validateFns: {} }}
          operation="view"
          initialData={{ _id: 'c1', contact: 'k1', bot: 'b1', chats: [] }}
        />
      </RuntimeHarness>
    </MemoryRouter>,
  );
  return { conversation, bottrace };
}

describe('conversation transcript', () => {
  it('shows bubbles with time, reaction, status, the retrieved fragments and links to the trace and the contact', async () => {
    const { bottrace } = renderTranscript();
    const transcript = await screen.findByTestId('conversation-transcript');
    await within(transcript).findByText('Ana Visitante', {}, { timeout: 10_000 });
    expect(within(transcript).getByText('Soporte')).toBeTruthy();
    expect(screen.getByTestId('transcript-contact-link').getAttribute('href')).toBe('/crud/contact?view=k1');
    const visitorBubbles = screen.getAllByTestId('transcript-user');
    expect(visitorBubbles.map((bubble) => within(bubble).getByTestId('transcript-text').textContent)).toEqual(['¿Cuánto cuesta el envío?', '¿Enviáis a Marte?']);
    expect(within(visitorBubbles[0]).getByText((_, node) => node?.tagName === 'TIME' && node.getAttribute('datetime') === chats[0].createdAt)).toBeTruthy();

    const answers = screen.getAllByTestId('transcript-assistant');
    expect(answers).toHaveLength(2);
    // Traces are asked for this conversation only.
    expect(bottrace.find).toHaveBeenCalledWith(expect.objectContaining({ filters: [{ field: 'conversation', operator: 'eq', value: 'c1' }] }));
    await within(answers[0]).findByTestId('transcript-trace-link');
    expect(within(answers[0]).getByTestId('transcript-reaction').textContent).toContain('Útil');
    expect(within(answers[0]).getByTestId('transcript-status').textContent).toBe('Respondida');
    expect(within(answers[0]).getByTestId('transcript-trace-link').getAttribute('href')).toBe('/crud/bottrace?view=t1');
    expect(within(answers[0]).getByTestId('transcript-trace-link').textContent).toContain('1.23 s');
    expect(within(answers[0]).queryByTestId('transcript-fragments')).toBeNull();
    await userEvent.click(within(answers[0]).getByRole('button', { name: 'Ver 1 fragmento recuperado' }));
    expect(within(answers[0]).getByTestId('transcript-fragments').textContent).toContain('Envío nacional: 4 €');

    expect(within(answers[1]).getByTestId('transcript-status').textContent).toBe('Sin respuesta');
    expect(within(answers[1]).getByText('No se recuperó ningún fragmento para esta respuesta.')).toBeTruthy();
    // No form of ids: no inputs at all.
    expect(transcript.querySelector('input, textarea')).toBeNull();
  }, 30_000);

  it('a role without bottrace or contact permission sees the messages but asks for no traces and gets no links', async () => {
    const { bottrace } = renderTranscript((permission) => !String(permission).startsWith('bottrace') && !String(permission).startsWith('contact'));
    await screen.findByText('Ana Visitante');
    expect(screen.getAllByTestId('transcript-assistant')).toHaveLength(2);
    expect(bottrace.find).not.toHaveBeenCalled();
    expect(screen.queryByTestId('transcript-trace-link')).toBeNull();
    expect(screen.queryByTestId('transcript-contact-link')).toBeNull();
  });
});

describe('bot traces are read-only in the console', () => {
  it('offers view only: no create, edit, delete or import, even to a role holding every permission', async () => {
    const entityClient = {
      paginate: vi.fn(async () => ({ items: [{ _id: 't1', userMessage: 'hola', createdAt: '2026-11-20T10:00:00.000Z', status: { _id: 's1', name: 'ok' }, bot: { _id: 'b1', name: 'Soporte' } }], total: 1 })),
    };
    const lookup = { find: vi.fn(async () => []), search: vi.fn(async () => []), findByIds: vi.fn(async () => []), findById: vi.fn(async () => ({})) };
    render(
      <MemoryRouter>
        <RuntimeHarness services={{ entityClients: { bottrace: entityClient, bottracestatus: lookup, bot: lookup }, entities, overrides: { bottrace: bottraceOverrides }, forms: { bottrace: async () => ({ schema: {}, uiSchema: {}, validateFns: {} }) } }}>
          <CrudPage model={entities.bottrace} />
        </RuntimeHarness>
      </MemoryRouter>,
    );
    const row = (await screen.findByText('hola', {}, { timeout: 20_000 })).closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Ver' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Editar' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Eliminar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Crear' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Importar' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Exportar' })).toBeTruthy();
  }, 30_000);
});

describe('links that open a list filtered', () => {
  it('?filter.<field>= sets the value of a declared filter only', () => {
    expect(filtersFromSearch(entities.bottrace, '?filter.status=s3&filter.reaction=Helpful&filter.userMessage=x&view=t1')).toEqual({ status: 's3', reaction: 'Helpful' });
    expect(filtersFromSearch(entities.bottrace, '?filter.status=')).toEqual({});
    expect(filtersFromSearch(entities.bottrace, '')).toEqual({});
  });
});

describe('words for people', () => {
  const languages = { es, en };
  const i18n = i18next.createInstance();
  beforeAll(async () => {
    await i18n.init({ lng: 'es', fallbackLng: 'en', resources: { es: { translation: languages.es }, en: { translation: languages.en } }, interpolation: { escapeValue: false } });
  });

  it('every entity has its own success messages in es and en, with the Spanish gender of its noun', async () => {
    for (const name of Object.keys(entities)) {
      for (const result of ['created', 'updated', 'deleted']) {
        for (const lng of ['es', 'en'] as const) {
          const text = i18n.t(successMessageKeys(name, `crud.success.${result}`), { lng });
          expect(text, `${lng} ${name} ${result}`).not.toMatch(/Entidad|Entity/);
        }
      }
    }
    expect(i18n.t(successMessageKeys('bot', 'crud.success.created'))).toBe('Bot creado');
    expect(i18n.t(successMessageKeys('knowledge', 'crud.success.updated'))).toBe('Base de conocimiento actualizada');
    expect(i18n.t(successMessageKeys('conversation', 'crud.success.deleted'))).toBe('Conversación eliminada');
    expect(i18n.t(successMessageKeys('knowledge', 'crud.success.updated'), { lng: 'en' })).toBe('Knowledge base updated');
    // An entity without its own words keeps the generic text; other keys pass through.
    expect(i18n.t(successMessageKeys('widget', 'crud.success.created'))).toBe('¡Entidad creada correctamente!');
    expect(successMessageKeys('bot', 'crud.export.success')).toEqual(['crud.export.success']);
  });

  it('counts use plural forms, never "(s)"', async () => {
    expect(i18n.t('knowledge.search.count', { count: 1 })).toBe('1 resultado');
    expect(i18n.t('knowledge.search.count', { count: 3 })).toBe('3 resultados');
    expect(i18n.t('knowledge.state.problems', { count: 1, lng: 'en' })).toBe('1 problem');
    expect(i18n.t('transcript.fragments', { count: 2 })).toBe('Ver 2 fragmentos recuperados');
    // The console's own texts once all are loaded (the sign-in page has only its share): the list's count too.
    await loadAllTexts();
    expect(appI18n.t('crud.total', { count: 1, lng: 'es' })).toBe('1 registro');
    expect(appI18n.t('crud.total', { count: 12, lng: 'es' })).toBe('12 registros');
  });

  it('form-list items are titled by their content, not "<field>-<n>"', () => {
    const prepared = prepareFormSchemas(
      { schema: { type: 'object', properties: {} }, uiSchema: { urls: { items: { url: {} } }, texts: { items: {} }, files: { items: {} } }, validateFns: {} },
      { model: entities.knowledge, translate: (key) => testI18n.t(key), can: () => true, mode: 'edit' },
    );
    const urls = (prepared.uiSchema.urls as { items: (item: unknown, index: number) => Record<string, unknown> }).items;
    expect(urls({ title: 'Manual de uso', url: 'https://example.com/manual' }, 0)['ui:title']).toBe('Manual de uso');
    expect(urls({ url: 'https://example.com/faq' }, 1)['ui:title']).toBe('https://example.com/faq');
    // The item's own UI options survive.
    expect(urls({ url: 'x' }, 0).url).toEqual({ 'ui:options': {} });
    const empty = urls({}, 2)['ui:title'] as string;
    expect(empty).toMatch(/ 3$/);
    expect(empty).not.toContain('-');
    const files = (prepared.uiSchema.files as { items: (item: unknown, index: number) => Record<string, unknown> }).items;
    expect(files({ file: { filename: 'tarifas.pdf' } }, 0)['ui:title']).toBe('tarifas.pdf');
    const texts = (prepared.uiSchema.texts as { items: (item: unknown, index: number) => Record<string, unknown> }).items;
    expect((texts({ content: 'x'.repeat(200) }, 0)['ui:title'] as string).length).toBeLessThanOrEqual(60);
  });

  it('every permission of the catalogue has words in es and en: the group by its entity, the action as a verb', () => {
    const catalogue = [...new Set(Object.values(entities).flatMap((model) => model.permissions.all))];
    for (const group of groupPermissions(catalogue)) {
      for (const permission of group.permissions) {
        const keys = permissionLabelKeys(group.name, permission);
        for (const lng of ['es', 'en'] as const) {
          expect(i18n.exists(keys.group[0], { lng }), `${lng} ${keys.group[0]}`).toBe(true);
          expect(i18n.exists(keys.action[0], { lng }), `${lng} ${keys.action[0]} (${permission})`).toBe(true);
        }
      }
    }
    const keys = permissionLabelKeys('bottrace', 'bottrace:view');
    expect([i18n.t(keys.group), i18n.t(keys.action)]).toEqual(['Trazas del bot', 'Ver']);
    expect(permissionLabelKeys('userApiKey', 'userApiKey:someNewAction').action).toEqual(['someNewAction']);
  });
});
