import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import { installBrowserShims, RuntimeHarness } from '../runtime/runtime-test-harness.tsx';
import { checkDraft } from '../../../server/studio/studio-drafts.ts';

/**
 * The schema studio page (src/studio): the generator's real messages (server/studio/studio-drafts.ts
 * runs here in place of the API) shown at the property they concern, Save disabled while any
 * stands, the raw JSON kept in step with the form, the save dialog's plan, a lost update.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const mocks = vi.hoisted(() => ({ call: vi.fn() }));
vi.mock('../../../src/session/api-client.ts', () => ({ restApi: { call: mocks.call } }));
const { default: StudioPage } = await import('../../../src/studio/studio-page.tsx');

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
/** As the server lists them: under their entity name, with the file holding each (botTrace.json holds "bottrace"). */
function listing() {
  const manifests = ['contact.json', 'tenant.json', 'botTrace.json'].map((base) => {
    const manifest = JSON.parse(read(`manifests/${base}`));
    return { name: manifest.name as string, file: `manifests/${base}`, version: `v-${manifest.name}`, manifest, texts: {} };
  });
  return { manifests, metaSchema: JSON.parse(read('manifests/manifest.schema.json')), live: 'dev' };
}

type Call = { method: string; path: string; json?: { manifest: any; texts: any; entity?: string }; headers?: Record<string, string> };
function api(overrides: Partial<Record<string, (call: Call) => unknown>> = {}) {
  mocks.call.mockImplementation(async (call: Call) => {
    if (!call) throw new Error(`restApi.call without arguments: ${new Error().stack}`);
    const key = `${call.method} ${call.path.replace(/\/manifests\/.+$/, '/manifests/:name')}`;
    if (overrides[key]) return overrides[key]!(call);
    switch (key) {
      case 'GET /api/studio/manifests': return listing();
      case 'POST /api/studio/validate': {
        const result = checkDraft(ROOT, { name: call.json!.manifest.name, entity: call.json!.entity, manifest: call.json!.manifest, texts: call.json!.texts });
        return { ok: result.issues.length === 0, issues: result.issues, preview: result.preview };
      }
      case 'POST /api/studio/plan': return { ok: true, issues: [], file: 'manifests/contact.json', version: 'v-contact', isNew: false, preview: null, diff: [{ path: 'fields[email].hint', kind: 'added', after: 'x' }], localeKeys: [], plan: { steps: [], kept: [], refusals: [], text: '  add column   contacts.extra (text)' } };
      case 'PUT /api/studio/manifests/:name': return { name: 'contact', file: 'manifests/contact.json', version: 'v-2', written: ['manifests/contact.json'], live: 'dev', message: 'Saved.' };
      default: throw new Error(`unexpected call ${key}`);
    }
  });
}

/** The preview's reference pickers (bot traces point at statuses, bots, conversations) read through these: no records. */
const noRecords = { paginate: async () => ({ items: [], total: 0 }), get: async () => null };
const entityClients = new Proxy({}, { get: () => noRecords });

function renderPage() {
  return render(
    <MemoryRouter>
      <RuntimeHarness services={{ entityClients }}>
        <StudioPage />
      </RuntimeHarness>
    </MemoryRouter>,
  );
}

async function openContact(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('link', { name: 'contact' }).catch(() => screen.findByText('contact')));
  await screen.findByTestId('studio-field-email');
}

const saveButton = () => screen.getByTestId('studio-save');
const validateCalls = () => mocks.call.mock.calls.filter(([c]) => (c as Call).path === '/api/studio/validate').length;

beforeAll(() => installBrowserShims());
beforeEach(() => {
  mocks.call.mockReset();
});

describe('schema studio page', { timeout: 60_000 }, () => {
  it('says the studio is off when the server has no studio (404)', async () => {
    api({ 'GET /api/studio/manifests': () => { throw new ApiError('Not found', 'client', 404, {}); } });
    renderPage();
    expect(await screen.findByText(/solo existe con npm run dev o con SCHEMA_STUDIO=true/)).toBeInTheDocument();
  });

  it('shows the generator\'s message at the property as you type, with Save disabled until it is fixed', async () => {
    const user = userEvent.setup();
    api();
    renderPage();
    await openContact(user);
    await waitFor(() => expect(saveButton()).toBeEnabled(), { timeout: 20_000 });

    // A typo typed in the raw JSON view...
    await user.click(screen.getByRole('tab', { name: 'JSON' }));
    const json = screen.getByRole('textbox', { name: /manifests\/contact\.json/ }) as HTMLTextAreaElement;
    fireEvent.change(json, { target: { value: json.value.replace('"type": "string"', '"type": "strng"') } });
    expect(saveButton()).toBeDisabled();
    const issues = await screen.findByTestId('studio-issues', {}, { timeout: 20_000 });
    expect(issues).toHaveTextContent(/fields\[\w+\]\.type/);
    expect(issues).toHaveTextContent('did you mean "string"?');
    expect(saveButton()).toBeDisabled();

    // ...is in the form too, and its message is shown at the field's "type".
    await user.click(screen.getByRole('tab', { name: 'Campos' }));
    const broken = JSON.parse(json.value).fields.find((f: { type: string }) => f.type === 'strng').name as string;
    await user.click(screen.getByRole('button', { name: `Editar ${broken}` }));
    const editor = await screen.findByTestId('studio-field-editor');
    await waitFor(() => expect(within(editor).getAllByText(/did you mean "string"\?/).length).toBeGreaterThan(0));

    // Fixed in the JSON view again: the message goes, Save comes back.
    await user.click(screen.getByRole('tab', { name: 'JSON' }));
    const again = screen.getByRole('textbox', { name: /manifests\/contact\.json/ }) as HTMLTextAreaElement;
    fireEvent.change(again, { target: { value: again.value.replace('"type": "strng"', '"type": "string"') } });
    await waitFor(() => expect(screen.queryByTestId('studio-issues')).toBeNull(), { timeout: 20_000 });
    await waitFor(() => expect(saveButton()).toBeEnabled(), { timeout: 20_000 });

    // Invalid JSON: said where, and Save stays off without a call.
    const calls = validateCalls();
    fireEvent.change(again, { target: { value: '{ "name": ' } });
    await waitFor(() => expect(again).toHaveAttribute('aria-invalid', 'true'));
    expect(saveButton()).toBeDisabled();
    expect(validateCalls()).toBe(calls);
  });

  it('adds, reorders and removes fields, keeping the JSON view in step', async () => {
    const user = userEvent.setup();
    api();
    renderPage();
    await openContact(user);
    const names = () => screen.getAllByTestId(/^studio-field-(?!editor)/).map((el) => el.getAttribute('data-testid')!.replace('studio-field-', ''));
    const before = names();
    await user.click(screen.getByRole('button', { name: 'Añadir campo' }));
    const added = names().at(-1)!;
    expect(names()).toEqual([...before, added]);
    await user.click(screen.getByRole('button', { name: `Subir ${added}` }));
    const order = names();
    expect(order).toEqual([...before.slice(0, -1), added, before.at(-1)]);
    await user.click(screen.getByRole('tab', { name: 'JSON' }));
    const json = JSON.parse((screen.getByRole('textbox', { name: /manifests\/contact\.json/ }) as HTMLTextAreaElement).value);
    expect(json.fields.map((f: { name: string }) => f.name)).toEqual(order);
    await user.click(screen.getByRole('tab', { name: 'Campos' }));
    await user.click(screen.getByRole('button', { name: `Quitar ${added}` }));
    expect(names()).toEqual(before);
  });

  it('saves through the dialog with If-Match, and a lost update loads the current version', async () => {
    const user = userEvent.setup();
    api();
    renderPage();
    await openContact(user);
    await waitFor(() => expect(saveButton()).toBeEnabled(), { timeout: 20_000 });
    await user.click(saveButton());
    expect(await screen.findByTestId('studio-plan')).toHaveTextContent('add column contacts.extra');
    expect(screen.getByTestId('studio-diff')).toHaveTextContent('fields[email].hint');
    await user.click(screen.getByTestId('studio-confirm'));
    expect(await screen.findByTestId('studio-saved')).toBeInTheDocument();
    const put = mocks.call.mock.calls.map(([c]) => c as Call).find((c) => c.method === 'PUT')!;
    expect(put.headers).toEqual({ 'if-match': '"v-contact"' });
    expect(put.json!.manifest.name).toBe('contact');

    api({ 'PUT /api/studio/manifests/:name': () => { throw new ApiError('changed', 'client', 409, {}); } });
    await user.click(screen.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(saveButton()).toBeEnabled(), { timeout: 20_000 });
    await user.click(saveButton());
    await user.click(await screen.findByTestId('studio-confirm'));
    expect(await screen.findByTestId('studio-conflict')).toBeInTheDocument();
  });

  it('an old key pasted into the JSON view (api.provider) becomes api.endpoints: the form has no field for the old name, the save sends the new one', async () => {
    const user = userEvent.setup();
    api();
    renderPage();
    await openContact(user);
    await waitFor(() => expect(saveButton()).toBeEnabled(), { timeout: 20_000 });
    await user.click(screen.getByRole('tab', { name: 'JSON' }));
    const json = screen.getByRole('textbox', { name: /manifests\/contact\.json/ }) as HTMLTextAreaElement;
    const pasted = json.value.replace('"basePath": "/api/contacts"', '"provider": "generic",\n    "basePath": "/api/contacts"');
    expect(pasted).toContain('"provider": "generic"');
    fireEvent.change(json, { target: { value: pasted } });
    await waitFor(() => expect(JSON.parse(json.value).api).toEqual({ endpoints: 'generic', basePath: '/api/contacts' }));

    await user.click(screen.getByRole('tab', { name: 'Entidad' }));
    await waitFor(() => expect(document.getElementById('studio-entity_api_endpoints')).not.toBeNull());
    expect(document.querySelector('[id*="provider"]')).toBeNull();

    await waitFor(() => expect(saveButton()).toBeEnabled(), { timeout: 20_000 });
    await user.click(saveButton());
    await user.click(await screen.findByTestId('studio-confirm'));
    expect(await screen.findByTestId('studio-saved')).toBeInTheDocument();
    const put = mocks.call.mock.calls.map(([c]) => c as Call).find((c) => c.method === 'PUT')!;
    expect(put.json!.manifest.api).toEqual({ endpoints: 'generic', basePath: '/api/contacts' });
  });

  it('edits bot traces, whose file is manifests/botTrace.json: checked and saved as the entity "bottrace" in that file; a rename is refused at "name"', async () => {
    const user = userEvent.setup();
    api({
      'POST /api/studio/plan': (call) => ({ ok: true, issues: [], file: 'manifests/botTrace.json', version: 'v-bottrace', isNew: false, preview: null, diff: [], localeKeys: [], plan: { steps: [], kept: [], refusals: [], text: '' }, sent: call }),
      'PUT /api/studio/manifests/:name': () => ({ name: 'bottrace', file: 'manifests/botTrace.json', version: 'v-3', written: ['manifests/botTrace.json'], live: 'dev', message: 'Saved.' }),
    });
    renderPage();
    await user.click(await screen.findByText('bottrace'));
    await screen.findByTestId('studio-field-status');
    // The generator's check, run on the real manifests with the draft in botTrace.json's place, finds nothing.
    await waitFor(() => expect(saveButton()).toBeEnabled(), { timeout: 20_000 });
    expect(screen.queryByTestId('studio-issues')).toBeNull();
    const sent = mocks.call.mock.calls.map(([c]) => c as Call).filter((c) => c.path === '/api/studio/validate');
    expect(sent.at(-1)!.json!.entity).toBe('bottrace');

    // The JSON view names the file; a "name" changed there is a rename, refused where the name is.
    await user.click(screen.getByRole('tab', { name: 'JSON' }));
    const json = screen.getByRole('textbox', { name: /manifests\/botTrace\.json/ }) as HTMLTextAreaElement;
    fireEvent.change(json, { target: { value: json.value.replace('"name": "bottrace"', '"name": "bottraces"') } });
    expect(await screen.findByTestId('studio-issues', {}, { timeout: 20_000 })).toHaveTextContent('manifests/botTrace.json holds the entity "bottrace"');
    expect(saveButton()).toBeDisabled();
    fireEvent.change(json, { target: { value: json.value.replace('"name": "bottraces"', '"name": "bottrace"') } });
    await waitFor(() => expect(screen.queryByTestId('studio-issues')).toBeNull(), { timeout: 20_000 });
    await waitFor(() => expect(saveButton()).toBeEnabled(), { timeout: 20_000 });

    await user.click(saveButton());
    expect(await screen.findByRole('dialog', { name: 'Guardar manifests/botTrace.json' })).toBeInTheDocument();
    await user.click(await screen.findByTestId('studio-confirm'));
    expect(await screen.findByTestId('studio-saved')).toBeInTheDocument();
    const calls = mocks.call.mock.calls.map(([c]) => c as Call);
    expect(calls.find((c) => c.path === '/api/studio/plan')!.json!.entity).toBe('bottrace');
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/studio/manifests/bottrace');
    expect(put.json!.entity).toBe('bottrace');
    expect(put.headers).toEqual({ 'if-match': '"v-bottrace"' });
  });

  it('refuses to confirm a save whose plan refuses a change, showing the plan\'s reason', async () => {
    const user = userEvent.setup();
    api({
      'POST /api/studio/plan': () => ({ ok: false, issues: [], version: 'v-contact', isNew: false, preview: null, diff: [], localeKeys: [], plan: { steps: [], kept: [], refusals: [{ file: 'manifests/contact.json', entity: 'contact', field: 'name', message: '1 of 2 stored value(s) do not convert from string to number, e.g. record x holds "Ana".' }], text: '' } }),
    });
    renderPage();
    await openContact(user);
    await waitFor(() => expect(saveButton()).toBeEnabled(), { timeout: 20_000 });
    await user.click(saveButton());
    expect(await screen.findByTestId('studio-refused')).toHaveTextContent('do not convert from string to number');
    expect(screen.getByTestId('studio-confirm')).toBeDisabled();
  });
});
