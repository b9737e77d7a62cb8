// The schema studio in Chromium on the build users get (CSP on), with SCHEMA_STUDIO=true and the
// studio pointed at a scratch copy of manifests/ and locales/: a field added in the form is
// validated as typed, planned, saved into the manifest and its locale files, and shown on the
// entity's CRUD page with no restart and no rebuild (the server applies it live, the console reads
// the changed model from GET /api/live-model); an entity added the same way gets its menu entry
// and CRUD page; bot traces, whose manifest file is not named as the entity (botTrace.json holds
// "bottrace"), are edited in that file; a field renamed keeps its data; a lossy type change is
// refused with the plan's reason and writes nothing; axe finds no critical or serious violation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { root, startApp, type AppUnderTest } from './helpers/app-under-test.ts';
import { pageSettled } from './helpers/page-settled.ts';

const AXE_SOURCE = fs.readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
const AXE_URL_PATH = '/__e2e__/axe.min.js';

let app: AppUnderTest;
let project: string;
/** The field the first test adds to contact (the studio names it field<n>); the rename test renames it. */
let added = '';
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(project, file), 'utf8'));

beforeAll(async () => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-e2e-studio-'));
  for (const dir of ['manifests', 'locales']) fs.cpSync(path.join(root, dir), path.join(project, dir), { recursive: true });
  app = await startApp({ env: { SCHEMA_STUDIO: 'true', SCHEMA_STUDIO_ROOT: project } });
});
afterAll(async () => {
  await app?.stop();
  fs.rmSync(project, { recursive: true, force: true });
});

/** axe-core served as one more same-origin script (the CSP allows scripts from 'self' only), as tests/e2e/accessibility.test.ts does. */
async function seriousViolations(page: Page): Promise<string[]> {
  await pageSettled(page);
  await page.route(`**${AXE_URL_PATH}`, (route) => route.fulfill({ contentType: 'text/javascript', body: AXE_SOURCE }));
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ url: AXE_URL_PATH });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
}

async function openContact(page: Page): Promise<void> {
  await page.goto(`${app.webUrl}/studio`);
  await page.getByRole('heading', { name: 'Estudio de esquema' }).waitFor();
  await page.getByText('contact', { exact: true }).click();
  await page.getByTestId('studio-field-email').waitFor();
  await expectEnabled(page);
}

async function expectEnabled(page: Page): Promise<void> {
  try {
    await page.waitForFunction(() => {
      const button = document.querySelector('[data-testid="studio-save"]') as HTMLButtonElement | null;
      return button !== null && !button.disabled;
    }, undefined, { timeout: 30_000 });
  } catch (error) {
    // Say why: the generator's issues, when the studio shows any.
    const issues = await page.getByTestId('studio-issues').textContent({ timeout: 1000 }).catch(() => null);
    throw new Error(`the save button stayed disabled${issues ? `: ${issues}` : ''}`, { cause: error });
  }
}

describe('schema studio in the browser', { timeout: 180_000 }, () => {
  it('adds a field: checked as typed, planned, saved to the manifest and both locale files; axe finds nothing serious', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    await openContact(page);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Añadir campo' }).click();
    const editor = page.getByTestId('studio-field-editor');
    await editor.waitFor();
    // Its Spanish and English label, typed where the label key's texts are.
    added = (await page.getByTestId(/^studio-field-field\d+$/).last().getAttribute('data-testid'))!.replace('studio-field-', '');
    await editor.getByLabel(`field.contact.${added} (español)`).fill('Sitio web');
    await editor.getByLabel(`field.contact.${added} (inglés)`).fill('Website');
    await expectEnabled(page);
    // The preview renders the draft with the new field, through the CRUD form renderer.
    await page.getByTestId('studio-preview').getByText('Sitio web').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId('studio-save').click();
    await page.getByTestId('studio-plan').waitFor();
    expect(await page.getByTestId('studio-plan').textContent()).toContain(`add column   contacts.${added}`);
    await page.getByTestId('studio-confirm').click();
    await page.getByTestId('studio-saved').waitFor();
    expect(readJson('manifests/contact.json').fields.map((f: { name: string }) => f.name)).toContain(added);
    expect(readJson('locales/es.json').field.contact[added]).toBe('Sitio web');
    expect(readJson('locales/en.json').field.contact[added]).toBe('Website');

    // Live: REST takes the new field at once (no restart), and the CRUD page shows it (no rebuild).
    const token = await app.apiToken();
    await app.api('POST', '/api/contacts', { name: 'Berta', email: 'berta@example.com', [added]: 'https://berta.example' }, token);
    await page.getByRole('link', { name: 'Abrir la página de la entidad' }).click();
    await page.waitForURL('**/crud/contact');
    await page.getByRole('columnheader', { name: 'Sitio web' }).waitFor();
    await page.getByRole('cell', { name: 'https://berta.example' }).waitFor();
    await app.screenshot(page, 'studio-live-field-on-crud-page');
    // A fresh load of the page (the bundle is still the one built before the save) shows it too.
    await page.reload();
    await page.getByRole('columnheader', { name: 'Sitio web' }).waitFor();
  });

  it('adds an entity (name, labels, menu group, icon, tenant scope) and opens its CRUD page without a restart', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/studio`);
    await page.getByRole('heading', { name: 'Estudio de esquema' }).waitFor();
    await page.getByRole('button', { name: 'Añadir entidad' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nombre de la entidad').fill('faqItem');
    await dialog.getByLabel('Nombre en español').fill('Pregunta frecuente');
    await dialog.getByLabel('Nombre en inglés').fill('FAQ item');
    await dialog.getByLabel('Plural en español').fill('Preguntas frecuentes');
    await dialog.getByLabel('Plural en inglés').fill('FAQ items');
    await dialog.getByLabel('Grupo del menú').click();
    await page.getByRole('option', { name: 'knowledge' }).click();
    await dialog.getByRole('radio', { name: 'books' }).click();
    await dialog.getByLabel('Registros por inquilino (tenant)').check();
    await app.screenshot(page, 'studio-add-entity-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Crear' }).click();
    await expectEnabled(page);
    await page.getByTestId('studio-save').click();
    await page.getByTestId('studio-plan').waitFor();
    expect(await page.getByTestId('studio-plan').textContent()).toContain('create table faq_items');
    await page.getByTestId('studio-confirm').click();
    await page.getByTestId('studio-saved').waitFor();
    const manifest = readJson('manifests/faqItem.json');
    expect(manifest.menu).toMatchObject({ group: 'knowledge', icon: 'books' });
    expect(manifest.scope).toEqual({ tenant: true });

    // The REST API serves it, and the console's menu and route know it, with the same bundle.
    const token = await app.apiToken();
    await app.api('POST', '/api/faq-items', { name: '¿Cómo entreno el bot?' }, token);
    await page.getByRole('link', { name: 'Abrir la página de la entidad' }).click();
    await page.waitForURL('**/crud/faq-item');
    await page.getByRole('heading', { name: 'Preguntas frecuentes' }).first().waitFor();
    await page.getByRole('cell', { name: '¿Cómo entreno el bot?' }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Preguntas frecuentes' }).first().waitFor();
    await app.screenshot(page, 'studio-live-entity-crud-page');
  });

  it('edits bot traces, whose manifest is manifests/botTrace.json ("bottrace"): saved into that file and shown live on their page', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/studio`);
    await page.getByRole('heading', { name: 'Estudio de esquema' }).waitFor();
    await page.getByText('bottrace', { exact: true }).click();
    await page.getByTestId('studio-field-status').waitFor();
    await expectEnabled(page);
    await page.getByRole('button', { name: 'Añadir campo' }).click();
    const editor = page.getByTestId('studio-field-editor');
    await editor.waitFor();
    const field = (await page.getByTestId(/^studio-field-field\d+$/).last().getAttribute('data-testid'))!.replace('studio-field-', '');
    await editor.getByLabel(`field.bottrace.${field} (español)`).fill('Revisión');
    await editor.getByLabel(`field.bottrace.${field} (inglés)`).fill('Review');
    // Shown in the table too: bot traces list their columns (table.columns), edited in the JSON view, which names the real file.
    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = page.getByRole('textbox', { name: /manifests\/botTrace\.json/ });
    const manifest = JSON.parse(await json.inputValue());
    manifest.table.columns.push(field);
    await json.fill(JSON.stringify(manifest, null, 2));
    await expectEnabled(page);
    await page.getByTestId('studio-save').click();
    await page.getByRole('dialog', { name: 'Guardar manifests/botTrace.json' }).waitFor();
    await page.getByTestId('studio-plan').waitFor();
    expect(await page.getByTestId('studio-plan').textContent()).toContain(`add column   bot_traces.${field}`);
    await page.getByTestId('studio-confirm').click();
    await page.getByTestId('studio-saved').waitFor();
    expect(readJson('manifests/botTrace.json').table.columns).toContain(field);
    expect(fs.readdirSync(path.join(project, 'manifests'))).not.toContain('bottrace.json');
    expect(readJson('locales/es.json').field.bottrace[field]).toBe('Revisión');

    await page.getByRole('link', { name: 'Abrir la página de la entidad' }).click();
    await page.waitForURL('**/crud/bottrace');
    // The studio's own preview has a table too: the header counts once the studio has gone.
    await page.getByRole('heading', { name: 'Estudio de esquema' }).waitFor({ state: 'detached' });
    await page.getByRole('columnheader', { name: 'Revisión' }).waitFor();
    await page.getByRole('columnheader', { name: 'Mensaje del usuario' }).waitFor();
    await app.screenshot(page, 'studio-live-bot-trace-column');
  });

  it('renames a field that holds data: the plan moves the column and the CRUD page shows the data kept', async () => {
    expect(added).not.toBe('');
    const token = await app.apiToken();
    await app.api('POST', '/api/contacts', { name: 'Carla', email: 'carla@example.com', [added]: 'https://carla.example' }, token);
    const page = await app.newPage();
    await app.signIn(page);
    await openContact(page);
    await page.getByRole('button', { name: `Editar ${added}` }).click();
    const editor = page.getByTestId('studio-field-editor');
    await editor.locator('input[id$="_name"]').first().fill('homepage');
    await page.getByTestId('studio-field-homepage').waitFor();
    await expectEnabled(page);
    await page.getByTestId('studio-save').click();
    await page.getByTestId('studio-plan').waitFor();
    expect(await page.getByTestId('studio-plan').textContent()).toContain(`rename       contacts.${added} -> homepage (data moved)`);
    await page.getByTestId('studio-confirm').click();
    await page.getByTestId('studio-saved').waitFor();
    expect(readJson('manifests/contact.json').fields.find((f: { name: string }) => f.name === 'homepage')).toMatchObject({ renamedFrom: added });

    const rows = await app.api<{ items: Array<Record<string, unknown>> }>('GET', '/api/contacts?limit=50', undefined, token);
    const carla = rows.items.find((row) => row.name === 'Carla')!;
    expect(carla.homepage).toBe('https://carla.example');
    expect(carla).not.toHaveProperty(added);
    await page.getByRole('link', { name: 'Abrir la página de la entidad' }).click();
    await page.waitForURL('**/crud/contact');
    await page.getByRole('cell', { name: 'https://carla.example' }).waitFor();
    await page.getByRole('cell', { name: 'https://berta.example' }).waitFor();
    await app.screenshot(page, 'studio-live-rename-kept-data');
  });

  it('a lossy type change is refused with the plan\'s reason and writes nothing', async () => {
    const token = await app.apiToken();
    await app.api('POST', '/api/contacts', { name: 'Ana', email: 'ana@example.com' }, token);
    const before = fs.readFileSync(path.join(project, 'manifests/contact.json'), 'utf8');
    const page = await app.newPage();
    await app.signIn(page);
    await openContact(page);
    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = page.getByRole('textbox', { name: /manifests\/contact\.json/ });
    const manifest = JSON.parse(await json.inputValue());
    const name = manifest.fields.find((f: { name: string }) => f.name === 'name');
    name.type = 'number';
    delete name.validation?.minLength;
    delete name.validation?.maxLength;
    await json.fill(JSON.stringify(manifest, null, 2));
    await expectEnabled(page);
    await page.getByTestId('studio-save').click();
    const refused = page.getByTestId('studio-refused');
    await refused.waitFor();
    // The example is one of the contacts the tests made (Ana here, Berta and Carla before).
    expect(await refused.textContent()).toMatch(/do not convert from string to number.*holds "(Ana|Berta|Carla)"/s);
    expect(await page.getByTestId('studio-confirm').isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    expect(fs.readFileSync(path.join(project, 'manifests/contact.json'), 'utf8')).toBe(before);
  });
});
