// The UI contract of every generated entity page, derived from the manifests: on the build npm
// start serves (CSP enforced), the page opens, and where the manifest allows it a record is
// created, viewed, edited and deleted through the dialogs — required fields filled from the form
// schema, the request checked, the row checked. A new entity is covered by adding its manifest;
// an entity whose form needs a hand-written recipe must say so in FORM_RECIPES (or this fails).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page, Request } from 'playwright-core';
import es from '../../locales/es.json';
import { entities } from '../../src/generated/entities.ts';
import { formLoaders } from '../../src/generated/forms.ts';
import { overrides } from '../../src/app/overrides.ts';
import type { ClientEntityModel, FieldModel } from '../../runtime/model/client-entity-model.ts';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';
import type { WatchedPage } from './helpers/browser-errors.ts';

type Json = Record<string, any>;

let app: AppUnderTest;
let page: WatchedPage;
let token: string;
/** Records the forms' ref fields point at, by entity: id and the text the autocomplete shows. */
const refTargets: Record<string, { id: string; display: string }> = {};

/** Spanish text of a locale key, as the console shows it (app locales first, then the runtime's). */
function t(key: string): string {
  const find = (tree: Json) => key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Json)[part] : undefined), tree);
  const text = find(es as Json);
  if (typeof text !== 'string') throw new Error(`No Spanish text for locale key "${key}"`);
  return text;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const labelled = (scope: Locator | Page, label: string) => scope.getByLabel(new RegExp(`^${escape(label)}\\s*\\*?$`)).first();
const dialogOf = (p: Page) => p.getByRole('dialog').last();

/** A value for a text field that its manifest rules accept (pattern, length, format). */
function textValue(field: FieldModel, seed: string): string {
  const v = field.validation;
  if (v.format === 'email') return `${seed.toLowerCase().replace(/[^a-z0-9]/g, '')}@example.com`;
  if (v.format === 'uri') return `https://example.com/${seed.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
  const digits = seed.replace(/\D/g, '').padStart(9, '6').slice(-9);
  const candidates = [`E2E ${seed}`, `e2e${seed.toLowerCase().replace(/[^a-z0-9]/g, '')}`, `e2e-${seed.toLowerCase().replace(/[^a-z0-9]/g, '-')}`, digits];
  const fits = (value: string) =>
    (!v.pattern || new RegExp(v.pattern).test(value)) && value.length >= (v.minLength ?? 0) && value.length <= (v.maxLength ?? Infinity) && (field.name !== 'phone' || /^\d+$/.test(value));
  const value = candidates.find(fits);
  if (!value) throw new Error(`No generated value fits ${field.name}'s rules ${JSON.stringify(v)}: add a recipe in FORM_RECIPES`);
  return value;
}

interface Filled {
  /** Field name -> the value the request must carry. */
  sent: Json;
  /** A unique text shown in the record's row (a table column). */
  rowText: string;
  /** The field edited afterwards, with its label. */
  editable: FieldModel | null;
}

/** Picks an option of a Mantine Select / autocomplete by typing part of it. */
async function pick(p: Page, input: Locator, option: string, search = true): Promise<void> {
  await input.click();
  if (search) await input.fill(option);
  await p.getByRole('option', { name: option, exact: true }).first().click();
}

/**
 * Fills what the generated create form requires, and one column field that identifies the row:
 * strings and texts from the field's rules, refs by picking the prepared record, enums by their
 * first option. Fields with a default are left as the form fills them.
 */
async function fillGeneric(p: Page, model: ClientEntityModel, seed: string): Promise<Filled> {
  const { schema } = await formLoaders[model.name as keyof typeof formLoaders]();
  const required = new Set<string>((schema.required as string[]) ?? []);
  const dialog = dialogOf(p);
  const sent: Json = {};
  const columnText = model.fields.find((f) => model.table.columns.includes(f.name) && (f.type === 'string' || f.type === 'longString') && !f.readonly && !f.validation.format);
  let editable: FieldModel | null = null;
  for (const field of model.fields) {
    const property = (schema.properties as Json)[field.name] as Json | undefined;
    const wanted = required.has(field.name) || field === columnText;
    if (!property || !wanted || field.readonly || 'default' in property) continue;
    const label = t(field.label);
    switch (field.type) {
      case 'string':
      case 'longString':
      case 'password': {
        const value = field.type === 'password' ? 'E2e-Contract-Pass1' : textValue(field, `${seed} ${field.name}`);
        await labelled(dialog, label).fill(value);
        if (field.type !== 'password') sent[field.name] = value;
        if (!editable && field.type !== 'password' && !field.validation.format) editable = field;
        break;
      }
      case 'number': {
        const value = field.validation.min ?? 1;
        await labelled(dialog, label).fill(String(value));
        sent[field.name] = value;
        break;
      }
      case 'ref': {
        const target = refTargets[field.ref!.entity];
        if (!target) throw new Error(`${model.name}.${field.name} refers to ${field.ref!.entity}: prepare one in beforeAll`);
        await pick(p, labelled(dialog, label), target.display);
        sent[field.name] = target.id;
        break;
      }
      case 'enum': {
        const first = field.values![0]!;
        const option = field.valueLabels?.[first] ? t(field.valueLabels[first]) : first;
        await pick(p, labelled(dialog, label), option, false);
        sent[field.name] = first;
        break;
      }
      default:
        throw new Error(`${model.name}.${field.name} (${field.type}) is required but the generic recipe cannot fill it: add a recipe in FORM_RECIPES`);
    }
  }
  const rowField = columnText ?? editable;
  if (!rowField || typeof sent[rowField.name] !== 'string') throw new Error(`${model.name}: no text column to find the new row by; add a recipe in FORM_RECIPES`);
  return { sent, rowText: sent[rowField.name] as string, editable };
}

/** Forms that are not the generated one (overrides), each filled as a person would. */
const FORM_RECIPES: Record<string, (p: Page, model: ClientEntityModel, seed: string) => Promise<Filled>> = {
  async knowledgesource(p, model, seed) {
    const dialog = dialogOf(p);
    const name = `E2E ${seed}`;
    await labelled(dialog, t('field.knowledgesource.name')).fill(name);
    await pick(p, dialog.getByRole('combobox', { name: t('field.knowledgesource.type') }), t('enum.knowledgesource.type.text'), false);
    await dialog.getByTestId('source-text').fill('Texto de la fuente de la prueba de contrato.');
    await dialog.getByRole('button', { name: 'Copiar al texto editado' }).click();
    return { sent: { name, type: 'text', sourceText: 'Texto de la fuente de la prueba de contrato.' }, rowText: name, editable: model.fields.find((f) => f.name === 'name')! };
  },
  async role(p, model, seed) {
    const name = `E2E ${seed}`;
    await dialogOf(p).getByTestId('role-name').fill(name);
    await dialogOf(p).getByRole('checkbox', { name: /\(bot:view\)$/ }).check();
    return { sent: { name, permissions: ['bot:view'] }, rowText: name, editable: model.fields.find((f) => f.name === 'name')! };
  },
};

/** What happens right after a create, beyond the success message (e.g. a secret shown once). */
const AFTER_CREATE: Record<string, (p: Page) => Promise<void>> = {
  async userApiKey(p) {
    await p.getByTestId('api-key-close').click();
  },
};

/** Entities the console cannot create: a record made the way the product makes them. */
const SEED_RECORD: Record<string, () => Promise<{ rowText: string }>> = {
  // Traces are written by the chat (and API clients with the permission), never in the console.
  async bottrace() {
    const text = 'E2E Contract trace question';
    await app.api('POST', '/api/bot-traces', { status: refTargets.bottracestatus!.id, bot: refTargets.bot!.id, userMessage: text }, token);
    return { rowText: text };
  },
  async conversation() {
    const name = 'E2E Contract Visitor';
    await app.api('POST', '/api/chat/start', { name, email: 'contract.visitor@example.com', botId: refTargets.bot!.id });
    return { rowText: name };
  },
};

/**
 * Records every request body the console sends: ky hands fetch a Request whose body is a stream,
 * which Chromium's request events do not expose, so fetch itself is wrapped (test page only).
 */
async function recordSentBodies(p: Page): Promise<void> {
  await p.addInitScript(() => {
    const sent: Array<{ method: string; url: string; body: string }> = [];
    (window as unknown as { __sent: typeof sent }).__sent = sent;
    const original = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.method !== 'GET') sent.push({ method: request.method, url: request.url, body: await request.clone().text() });
      return original(request);
    };
  });
}

async function captureBody(p: Page, method: string, basePath: string, action: () => Promise<void>): Promise<{ request: Request; body: Json }> {
  const [request] = await Promise.all([
    p.waitForRequest((r) => r.method() === method && new URL(r.url()).pathname.startsWith(basePath)),
    action(),
  ]);
  const response = await request.response();
  const status = response?.status() ?? 0;
  if (status >= 300 || status === 0) throw new Error(`${method} ${request.url()} answered ${status}: ${await response?.text().catch(() => '')}`);
  const sent = await p.evaluate(([m, url]) => (window as unknown as { __sent: Array<{ method: string; url: string; body: string }> }).__sent.filter((entry) => entry.method === m && entry.url === url).at(-1)?.body ?? '', [method, request.url()] as const);
  return { request, body: sent ? (JSON.parse(sent) as Json) : {} };
}

async function findRow(p: Page, model: ClientEntityModel, text: string): Promise<Locator> {
  // The search box narrows the list, so a page full of seeded rows never hides the new one.
  if (model.searchFields.length > 0) {
    const search = p.getByRole('textbox', { name: t('crud.search') });
    if ((await search.count()) > 0) await search.fill(text.slice(0, 40));
  }
  const row = p.getByRole('row', { name: new RegExp(escape(text)) }).first();
  await row.waitFor();
  return row;
}

async function openPage(model: ClientEntityModel): Promise<void> {
  await page.goto(`${app.webUrl}${model.route!.path}`);
  await page.getByRole('heading', { name: t(model.labelPlural), exact: true }).waitFor();
}

beforeAll(async () => {
  app = await startApp();
  token = await app.apiToken();
  const made = async (entity: string, path: string, body: Json, display: string) => {
    const record = await app.api<Json>('POST', path, body, token);
    refTargets[entity] = { id: String(record._id), display };
  };
  await made('bot', '/api/bots', { name: 'E2E Contract Bot', description: 'Bot de la prueba de contrato', systemPrompt: 'p', systemPromptWithKnowledge: 'p' }, 'E2E Contract Bot');
  await made('bottracestatus', '/api/bot-trace-statuses', { name: 'E2E Contract Status' }, 'E2E Contract Status');
  await made('role', '/api/roles', { name: 'E2E Contract Role', permissions: ['bot:view'] }, 'E2E Contract Role');
  await made('contact', '/api/contacts', { name: 'E2E Contract Contact' }, 'E2E Contract Contact');
  await made('knowledge', '/api/knowledge', { name: 'E2E Contract Knowledge', toolDescription: 'd', maxResults: 5, scoreThreshold: 0.5 }, 'E2E Contract Knowledge');
  await made('tenant', '/api/tenants', { name: 'E2E Contract Tenant' }, 'E2E Contract Tenant');
  page = await app.newPage();
  await recordSentBodies(page);
  await app.signIn(page);
});

afterAll(async () => {
  await app?.stop();
});

const pages = Object.values(entities).filter((model) => model.route?.path.startsWith('/crud/'));

/** What the console offers: the model's flags, minus writes for entities it only reads (overrides readOnly). */
function consoleFlags(model: ClientEntityModel): ClientEntityModel['flags'] {
  return overrides[model.name]?.readOnly ? { ...model.flags, creatable: false, editable: false, deletable: false, importable: false } : model.flags;
}

describe('every generated entity page, through its dialogs, on the production build', () => {
  it('covers every entity with a /crud page', () => {
    expect(pages.map((model) => model.name).sort()).toEqual(['bot', 'bottrace', 'bottracestatus', 'contact', 'conversation', 'knowledge', 'knowledgesource', 'role', 'tenant', 'user', 'userApiKey']);
  });

  for (const model of pages) {
    const flags = consoleFlags(model);
    it(`${model.name}: ${[flags.creatable && 'create', flags.viewable && 'view', flags.editable && 'edit', flags.deletable && 'delete'].filter(Boolean).join(', ')}`, async () => {
      await openPage(model);
      const seed = `Contract ${model.name}`;
      let rowText: string;
      let editable: FieldModel | null = null;

      if (flags.creatable) {
        await page.getByRole('button', { name: t('crud.create') }).first().click();
        const dialog = dialogOf(page);
        await dialog.getByRole('heading', { name: t('crud.title.create').replace('{{entity}}', t(model.label)) }).waitFor();
        const filled = await (FORM_RECIPES[model.name] ?? fillGeneric)(page, model, seed);
        await app.screenshot(page, `create-${model.name}`, { fullPage: false });
        const { body } = await captureBody(page, 'POST', model.api.basePath, () => dialog.getByRole('button', { name: t('crud.create'), exact: true }).click());
        expect(body).toMatchObject(filled.sent);
        await page.getByText(t(`entity.${model.name}.success.created`)).first().waitFor();
        await AFTER_CREATE[model.name]?.(page);
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        rowText = filled.rowText;
        editable = filled.editable;
      } else {
        const seeded = SEED_RECORD[model.name];
        if (!seeded) throw new Error(`${model.name} is not creatable in the console: say in SEED_RECORD how its records are made`);
        ({ rowText } = await seeded());
        await page.reload();
      }

      let row = await findRow(page, model, rowText);
      if (flags.viewable) {
        await row.getByRole('button', { name: t('crud.view') }).click();
        const dialog = dialogOf(page);
        await dialog.getByRole('heading', { name: t('crud.title.view').replace('{{entity}}', t(model.label)) }).waitFor();
        await expect.poll(() => dialog.evaluate((node, text) => node.textContent!.includes(text) || [...node.querySelectorAll('input, textarea')].some((input) => (input as HTMLInputElement).value.includes(text)), rowText)).toBe(true);
        // The modal's X is also named "Cerrar": the footer's button comes last.
        await dialog.getByRole('button', { name: t('crud.close'), exact: true }).last().click();
        await page.getByRole('dialog').waitFor({ state: 'detached' });
      }

      if (flags.editable && editable) {
        await row.getByRole('button', { name: t('crud.edit') }).click();
        const dialog = dialogOf(page);
        const input = model.name === 'role' ? dialog.getByTestId('role-name') : labelled(dialog, t(editable.label));
        const changed = `${await input.inputValue()} edited`.slice(0, editable.validation.maxLength ?? 200);
        await input.fill(changed);
        const { body } = await captureBody(page, 'PUT', model.api.basePath, () => dialog.getByRole('button', { name: t('crud.submit') }).click());
        expect(body[editable.name]).toBe(changed);
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await page.getByText(t(`entity.${model.name}.success.updated`)).first().waitFor();
        // The edit appends to the value: the row is still found by its old text, now in the new one.
        row = await findRow(page, model, rowText);
        if (changed.startsWith(rowText)) await row.getByText(changed).first().waitFor();
      }

      if (flags.deletable) {
        await row.getByRole('button', { name: t('crud.delete') }).click();
        const dialog = dialogOf(page);
        await captureBody(page, 'DELETE', model.api.basePath, () => dialog.getByRole('button', { name: t('crud.delete'), exact: true }).click());
        await page.getByText(t(`entity.${model.name}.success.deleted`)).first().waitFor();
        await row.waitFor({ state: 'detached' });
      }
    });
  }
});

describe('the permission rule in the console', () => {
  it('a view-only role opens the list and the view dialog, and is offered no writes; the server refuses them too', async () => {
    const role = await app.api<Json>('POST', '/api/roles', { name: 'E2E Viewer', permissions: ['bot:view'] }, token);
    await app.api('POST', '/api/users', { name: 'Vera Viewer', username: 'vera', password: 'Viewer-Pass-1', email: 'vera@example.com', phone: '600000123', role: role._id, active: true }, token);
    const viewer = await app.newPage();
    await app.signIn(viewer, 'vera', 'Viewer-Pass-1');
    await viewer.getByTestId('menu-item-bot').waitFor();
    await viewer.getByTestId('menu-item-bot').click();
    await viewer.getByRole('heading', { name: t('entity.bot.plural') }).waitFor();
    const row = viewer.getByRole('row', { name: /E2E Contract Bot/ });
    await row.getByRole('button', { name: t('crud.view') }).click();
    await dialogOf(viewer).getByRole('button', { name: t('crud.close'), exact: true }).last().click();
    expect(await viewer.getByRole('button', { name: t('crud.create') }).count()).toBe(0);
    expect(await row.getByRole('button', { name: t('crud.edit') }).count()).toBe(0);
    expect(await row.getByRole('button', { name: t('crud.delete') }).count()).toBe(0);
    await app.screenshot(viewer, 'view-only-bots');
    const viewerToken = await app.apiToken('vera', 'Viewer-Pass-1');
    await expect(app.api('POST', '/api/bots', { name: 'x', description: 'x', systemPrompt: 'x', systemPromptWithKnowledge: 'x' }, viewerToken)).rejects.toThrow(/403/);
    await viewer.close();
  });

  it('deleting a role still in use is refused in the dialog, saying how many records use it', async () => {
    const role = await app.api<Json>('POST', '/api/roles', { name: 'E2E Busy Role', permissions: ['bot:view'] }, token);
    await app.api('POST', '/api/users', { name: 'Busy User', username: 'busy', password: 'Busy-Pass-123', email: 'busy@example.com', phone: '600000124', role: role._id, active: true }, token);
    await openPage(entities.role);
    const row = await findRow(page, entities.role, 'E2E Busy Role');
    page.expectErrors(/status of 409 \(Conflict\).*\/api\/roles\/|ApiError: error\.roleInUse/);
    await row.getByRole('button', { name: t('crud.delete') }).click();
    await dialogOf(page).getByRole('button', { name: t('crud.delete'), exact: true }).click();
    await dialogOf(page).getByRole('alert').getByText(t('error.roleInUse_one').replace('{{count}}', '1')).waitFor();
    await app.screenshot(page, 'role-in-use', { fullPage: false });
    await dialogOf(page).getByRole('button', { name: t('crud.cancel') }).click();
    await findRow(page, entities.role, 'E2E Busy Role');
  });

  it('checks IPv4 and IPv6 entries as the user leaves them, with the manifest\'s message, and only that field', async () => {
    await openPage(entities.userApiKey);
    await page.getByRole('button', { name: t('crud.create') }).first().click();
    const dialog = dialogOf(page);
    for (const [field, bad, good, message] of [['ipv4', '999.1.1.1', '10.0.0.1', 'validation.invalidIpv4'], ['ipv6', 'fe80::zz', '2001:db8::1', 'validation.invalidIpv6']] as const) {
      await dialog.getByRole('button', { name: t('form.add') }).nth(field === 'ipv4' ? 0 : 1).click();
      const entry = dialog.locator(`input[id="root_${field}_0"]`);
      await entry.fill(bad);
      await expect.poll(() => dialog.getByText(t(message)).count()).toBe(0);
      await entry.press('Tab');
      await dialog.getByText(t(message)).first().waitFor();
      await entry.fill(good);
      await entry.press('Tab');
      await dialog.getByText(t(message)).first().waitFor({ state: 'detached' });
      if (field === 'ipv4') await entry.fill(bad), await entry.press('Tab');
    }
    // Untouched required fields are not flagged on blur; the submit checks them all.
    expect(await dialog.getByText(t('validation.required')).count()).toBe(0);
    await app.screenshot(page, 'api-key-ip-on-blur', { fullPage: false });
    await dialog.getByRole('button', { name: t('crud.cancel') }).click();
  });

  it('any role but the seeded Admin can be locked read-only and unlocked again', async () => {
    await app.api('POST', '/api/roles', { name: 'E2E Lockable', permissions: ['bot:view'], readonly: true }, token);
    await openPage(entities.role);
    const row = await findRow(page, entities.role, 'E2E Lockable');
    await row.getByRole('button', { name: t('crud.edit') }).click();
    const dialog = dialogOf(page);
    await dialog.getByTestId('role-readonly-warning').getByText(t('role.readonlyUnlockHint')).waitFor();
    expect(await dialog.getByTestId('role-name').isEditable()).toBe(false);
    // docs/product-rules.md#entities: a read-only role offers no submit; unlocking is the warning's own button.
    expect(await dialog.getByRole('button', { name: t('crud.submit') }).count()).toBe(0);
    const { body } = await captureBody(page, 'PUT', '/api/roles', () => dialog.getByTestId('role-unlock').click());
    expect(body).toMatchObject({ name: 'E2E Lockable', readonly: false });
    await dialog.getByTestId('role-unlocked').waitFor();
    await dialog.getByRole('button', { name: t('crud.cancel') }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // Unlocked: editable again.
    await (await findRow(page, entities.role, 'E2E Lockable')).getByRole('button', { name: t('crud.edit') }).click();
    expect(await dialogOf(page).getByTestId('role-name').isEditable()).toBe(true);
    await dialogOf(page).getByRole('button', { name: t('crud.cancel') }).click();
    // The seeded Admin: locked for good, so its row offers no edit or delete at all (issue 27: no
    // action the server would refuse), and viewing it offers nothing to save.
    const adminRow = await findRow(page, entities.role, 'Admin');
    expect(await adminRow.getByRole('button', { name: t('crud.edit') }).count()).toBe(0);
    expect(await adminRow.getByRole('button', { name: t('crud.delete') }).count()).toBe(0);
    await adminRow.getByRole('button', { name: t('crud.view') }).click();
    expect(await dialogOf(page).getByRole('button', { name: t('crud.submit') }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('a settings save the server refuses stays open and says why (security settings need a full administrator)', async () => {
    const role = await app.api<Json>('POST', '/api/roles', { name: 'E2E Settings Editor', permissions: ['setting:view', 'setting:update'] }, token);
    await app.api('POST', '/api/users', { name: 'Sam Settings', username: 'sam', password: 'Settings-Pass-1', email: 'sam@example.com', phone: '600000125', role: role._id, active: true }, token);
    const editor = await app.newPage();
    await app.signIn(editor, 'sam', 'Settings-Pass-1');
    await editor.goto(`${app.webUrl}/settings`);
    await editor.getByTestId('setting-edit-app.publicUrl').click();
    await editor.getByTestId('setting-input').fill('https://phishing.example');
    editor.expectErrors(/status of 403 \(Forbidden\).*\/api\/settings\//);
    await editor.getByTestId('setting-save').click();
    await editor.getByTestId('setting-save-error').getByText(t('error.settingRequiresAdmin')).waitFor();
    await app.screenshot(editor, 'setting-refused', { fullPage: false });
    await editor.close();
    const stored = await app.api<Json[]>('GET', '/api/settings', undefined, token);
    expect(stored.find((setting) => setting.key === 'app.publicUrl')?.value).not.toBe('https://phishing.example');
  });
});
