// npx tsx tests/bench/studio-live.bench.ts — from a schema studio save to the change being live, on
// the build users get (`node dist-server/main.mjs` + the production console, SCHEMA_STUDIO=true,
// the studio pointed at a scratch copy of manifests/ and locales/). Figures in docs/figures.md.
//   a. API save -> REST serves it: from the PUT of a manifest with one more field on contact until a
//      POST carrying that field is stored (the save answers once the new app serves; `applyMs` is
//      the server's own part: generator in memory, new app, migration, switch);
//   b. API save -> CRUD page shows it: from the same PUT until a fresh load of /crud/contact in
//      Chromium shows the new column (the console built before the save, reading GET /api/live-model);
//      the same page load without a change is printed beside it;
//   c. in the studio: from the click on "Guardar y aplicar" to the "Guardado" message (applied, and
//      the console's model and session refreshed), then to the new column on the CRUD page after
//      the "open the page" link.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { root, startApp } from '../e2e/helpers/app-under-test.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
process.env.E2E_CONSOLE = 'build';
const project = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bench-studio-'));
for (const dir of ['manifests', 'locales']) fs.cpSync(path.join(root, dir), path.join(project, dir), { recursive: true });
const app = await startApp({ env: { SCHEMA_STUDIO: 'true', SCHEMA_STUDIO_ROOT: project } });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const show = (label: string, values: number[]) =>
  console.log(`${label.padEnd(48)} median ${String(Math.round(median(values))).padStart(5)} ms   min ${Math.round(Math.min(...values))}   max ${Math.round(Math.max(...values))}   (n=${values.length})`);

async function columnShown(page: Page, label: string): Promise<void> {
  await page.getByRole('columnheader', { name: label }).waitFor({ timeout: 60_000 });
}

try {
  const token = await app.apiToken();
  const page = await app.newPage();
  await app.signIn(page);
  const rest: number[] = [];
  const apply: number[] = [];
  const crud: number[] = [];
  const plainLoad: number[] = [];

  for (let round = 0; round < ROUNDS; round++) {
    const name = `bench${round}`;
    const current = await app.api<{ version: string; manifest: { fields: unknown[] } }>('GET', '/api/studio/manifests/contact', undefined, token);
    current.manifest.fields.push({ name, type: 'string', label: `field.contact.${name}` });
    const started = performance.now();
    const response = await fetch(`${app.apiUrl}/api/studio/manifests/contact`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'if-match': `"${current.version}"` },
      body: JSON.stringify({ manifest: current.manifest, texts: { [`field.contact.${name}`]: { es: `Columna ${round}`, en: `Column ${round}` } } }),
    });
    const saved = (await response.json()) as { live: string; applyMs: number; message: string };
    if (saved.live !== 'applied') throw new Error(`the save was not applied live: ${JSON.stringify(saved)}`);
    await app.api('POST', '/api/contacts', { name: `Bench ${round}`, email: `bench${round}@example.com`, [name]: 'x' }, token);
    rest.push(performance.now() - started);
    apply.push(saved.applyMs);
    await page.goto(`${app.webUrl}/crud/contact`);
    await columnShown(page, `Columna ${round}`);
    crud.push(performance.now() - started);

    const plain = performance.now();
    await page.goto(`${app.webUrl}/crud/contact`);
    await columnShown(page, `Columna ${round}`);
    plainLoad.push(performance.now() - plain);
  }

  const studioSaved: number[] = [];
  const studioCrud: number[] = [];
  for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
    await page.goto(`${app.webUrl}/studio`);
    await page.getByText('contact', { exact: true }).click();
    await page.getByTestId('studio-field-email').waitFor();
    await page.getByRole('button', { name: 'Añadir campo' }).click();
    const editor = page.getByTestId('studio-field-editor');
    const added = (await page.getByTestId(/^studio-field-field\d+$/).last().getAttribute('data-testid'))!.replace('studio-field-', '');
    await editor.getByLabel(`field.contact.${added} (español)`).fill(`Estudio ${round}`);
    await editor.getByLabel(`field.contact.${added} (inglés)`).fill(`Studio ${round}`);
    await page.waitForFunction(() => !(document.querySelector('[data-testid="studio-save"]') as HTMLButtonElement | null)?.disabled, undefined, { timeout: 60_000 });
    await page.getByTestId('studio-save').click();
    await page.getByTestId('studio-plan').waitFor();
    const started = performance.now();
    await page.getByTestId('studio-confirm').click();
    await page.getByTestId('studio-saved').waitFor({ timeout: 60_000 });
    studioSaved.push(performance.now() - started);
    await page.getByRole('link', { name: 'Abrir la página de la entidad' }).click();
    await columnShown(page, `Estudio ${round}`);
    studioCrud.push(performance.now() - started);
  }

  console.log(`\nschema studio: save to live (${ROUNDS} saves on contact, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})`);
  show('a. API save -> REST stores the new field', rest);
  show('   of which the server applying it (applyMs)', apply);
  show('b. API save -> fresh /crud/contact shows it', crud);
  show('   the same page load, nothing changed', plainLoad);
  show('c. studio "Guardar y aplicar" -> "Guardado"', studioSaved);
  show('   studio click -> column on the CRUD page', studioCrud);
} finally {
  await app.stop();
  fs.rmSync(project, { recursive: true, force: true });
}
