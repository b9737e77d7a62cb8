// In Chromium on the production build: the knowledge list says per base where its index stands,
// the base's page opens one source straight in the detailed editor's edit dialog
// (/crud/knowledgesource?edit=<id>), closing that dialog takes the link out of the address (in
// place: a reload shows the list, Back the page before), a link to a record that does not exist
// says so, and the user menu's "Mis tareas" leads to /jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextMillisecond } from '../helpers/until.ts';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;
let token: string;
const ids = { behind: '', fresh: '', envios: '', horario: '' };

beforeAll(async () => {
  app = await startApp();
  token = await app.apiToken();
  const source = (name: string, text: string) => app.api<{ _id: string }>('POST', '/api/knowledge-sources', { name, type: 'text', sourceText: text, text }, token);
  ids.envios = (await source('Envíos', 'El envío es gratuito desde 50 euros.'))._id;
  ids.horario = (await source('Horario', 'Abrimos de lunes a viernes de 9 a 18 horas.'))._id;
  ids.behind = (await app.api<{ _id: string }>('POST', '/api/knowledge', { name: 'Tienda', toolDescription: 'Tienda', sources: [ids.envios, ids.horario] }, token))._id;
  ids.fresh = (await app.api<{ _id: string }>('POST', '/api/knowledge', { name: 'Recién creada', toolDescription: 'Nueva' }, token))._id;
  await app.api('GET', `/api/rag/train/${ids.behind}`, undefined, token);
  // Edited after the training: the base is behind.
  await nextMillisecond();
  await app.api('PUT', `/api/knowledge-sources/${ids.horario}`, { name: 'Horario', type: 'text', sourceText: 'De 9 a 19 horas.', text: 'De 9 a 19 horas.' }, token);
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe('knowledge state and deep links', () => {
  it('the list shows each base\'s state; a source opens in its own edit dialog from the base\'s page', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/crud/knowledge`);
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    await row('Tienda').waitFor();
    await expect.poll(() => row('Tienda').getByTestId('training-state').innerText()).toContain('Necesita reentrenar');
    expect(await row('Recién creada').getByTestId('training-state').innerText()).toContain('Sin entrenar');
    await app.screenshot(page, 'knowledge-list-index-state');

    await page.goto(`${app.webUrl}/knowledge/${ids.behind}`);
    await page.getByRole('heading', { name: 'Tienda', level: 2 }).waitFor();
    await page.getByTestId('knowledge-needs-retraining').waitFor();
    await app.screenshot(page, 'knowledge-page-source-links');
    await page.getByRole('link', { name: 'Abrir «Horario» en el editor detallado' }).click();
    await page.waitForURL(`**/crud/knowledgesource?edit=${ids.horario}`);
    const dialog = page.getByRole('dialog', { name: /^Editar / });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Nombre' }).inputValue(), { timeout: 30_000 }).toBe('Horario');
    await app.screenshot(page, 'knowledge-source-deep-link-edit');

    // Saved from there like from its row: the base's state follows.
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Horario de tienda');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Horario de tienda' }).waitFor();
    // The save closed the dialog and the link with it, replacing the entry: Back is the base's page.
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await page.goBack();
    await page.waitForURL(`**/knowledge/${ids.behind}`);
  }, 120_000);

  it('closing a linked dialog (Escape, the × button) takes ?edit= / ?view= out of the address, keeps the rest, and a reload opens nothing', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    const recordReads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/knowledge-sources/${ids.envios}`)) recordReads.push(request.url());
    });
    const cases = [
      { link: `?filter.type=text&edit=${ids.envios}&extra=1`, title: /^Editar /, close: () => page.keyboard.press('Escape') },
      { link: `?view=${ids.envios}&filter.type=text&extra=1`, title: /^Ver /, close: () => page.getByRole('dialog').locator('.mantine-Modal-close').click() },
    ];
    for (const { link, title, close } of cases) {
      await page.goto(`${app.webUrl}/crud/knowledgesource${link}`);
      const dialog = page.getByRole('dialog', { name: title });
      await expect.poll(() => dialog.getByRole('textbox', { name: 'Nombre' }).inputValue(), { timeout: 30_000 }).toBe('Envíos');
      const entries = await page.evaluate(() => history.length);
      await close();
      await dialog.waitFor({ state: 'detached' });
      // The other parameters stay, as written and in their order; no entry was added.
      await expect.poll(() => new URL(page.url()).search).toBe('?filter.type=text&extra=1');
      expect(await page.evaluate(() => history.length)).toBe(entries);

      recordReads.length = 0;
      await page.reload();
      await page.getByRole('cell', { name: 'Envíos', exact: true }).waitFor();
      // The list is back (filtered as before) and the record was neither read nor shown.
      expect(recordReads).toEqual([]);
      expect(await page.getByRole('dialog').count()).toBe(0);
    }
    await app.screenshot(page, 'knowledge-source-deep-link-closed');
  }, 120_000);

  it('a link to a record that does not exist says so', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    page.expectErrors(/404 \(Not Found\)/);
    await page.goto(`${app.webUrl}/crud/knowledgesource?edit=does-not-exist`);
    await page.getByText(/No se pudo abrir el registro del enlace/).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  }, 60_000);

  it('the user menu\'s "Mis tareas" opens /jobs', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/`);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Mis tareas' }).click();
    await page.waitForURL('**/jobs');
    await page.getByRole('heading', { name: 'Tareas', level: 2 }).waitFor();
    // The training above is one of this user's jobs.
    await page.getByTestId('jobs-panel').getByText('Tienda').first().waitFor();
  }, 60_000);
});
