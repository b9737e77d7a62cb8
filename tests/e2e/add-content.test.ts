// Issue 19 items 1-2 in Chromium on the production build: a fresh install's getting-started
// checklist, a knowledge base created in its dialog, content added in one flow (pasted text,
// uploaded files, a link to a local page; a bad file and a dead link refused on their items),
// the chunks previewed, training with progress, each source's state, the "needs retraining"
// notice after an edit, and the checklist ticking from the data.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;
let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  // A local page to link to: the address policy refuses loopback unless the server allows private URLs.
  site = http.createServer((req, res) => {
    if (req.url === '/envios') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body><nav>Menú</nav><h1>Envíos</h1><p>El envío es gratuito en pedidos superiores a 50 euros y tarda de 24 a 48 horas.</p></body></html>');
    } else res.writeHead(404).end('no');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  app = await startApp({ env: { RAG_ALLOW_PRIVATE_URLS: 'true' } });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

const FAQ = [
  'Horario de atención',
  'Atendemos de lunes a viernes de 9 a 18 horas. Los sábados abrimos de 10 a 14 horas.',
].join('\n');

describe('add content to a knowledge base in one flow', () => {
  it('fresh install: checklist, knowledge base, text + files + link, preview, train, states, retraining notice, ticks', { timeout: 240_000 }, async () => {
    const page = await app.newPage();
    await app.signIn(page);

    // Fresh install: the checklist, nothing done, in the order of the path.
    const checklist = page.getByTestId('getting-started');
    await checklist.waitFor();
    const steps = checklist.locator('[data-testid^="start-step-"]');
    expect(await steps.evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-testid'), node.getAttribute('data-done')]))).toEqual([
      ['start-step-createKnowledge', 'false'],
      ['start-step-addContent', 'false'],
      ['start-step-createBot', 'false'],
      ['start-step-tryChat', 'false'],
      ['start-step-share', 'false'],
    ]);
    // Gallery order follows the path; trace statuses are under administration.
    const groups = await page.locator('[data-testid^="menu-group-"]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid')));
    expect(groups).toEqual(['menu-group-knowledge', 'menu-group-bot', 'menu-group-chat', 'menu-group-admin']);
    await page.getByTestId('menu-group-admin').getByTestId('menu-item-bottracestatus').waitFor();
    await app.screenshot(page, 'add-content-home-fresh');

    // The first step's button leads to the knowledge list; create a base in its dialog.
    await checklist.getByRole('link', { name: 'Crear base' }).click();
    await page.getByRole('heading', { name: 'Bases de conocimiento' }).waitFor();
    await page.getByRole('button', { name: 'Crear' }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('textbox', { name: 'Nombre' }).fill('Tienda');
    await form.getByRole('textbox', { name: 'Descripción de la herramienta' }).fill('Preguntas sobre la tienda');
    await form.getByRole('button', { name: 'Crear' }).click();
    const row = page.getByRole('row', { name: /Tienda/ });
    await row.waitFor();

    // Its page: no content yet, "Añadir contenido".
    await row.getByTestId('knowledge-content').click();
    await page.waitForURL(/\/knowledge\/[^/]+$/);
    await page.getByRole('heading', { name: 'Tienda', level: 2 }).waitFor();
    await page.getByTestId('knowledge-sources-empty').waitFor();
    await page.getByTestId('knowledge-add-content').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Añadir contenido a «Tienda»').waitFor();

    // Pasted text.
    await dialog.getByTestId('add-text').fill(FAQ);
    await dialog.getByRole('button', { name: 'Añadir texto' }).click();
    // Files, several at once: a text file, a Markdown file and one the server cannot read.
    await dialog.getByRole('tab', { name: 'Subir archivos' }).click();
    await dialog.getByTestId('files-input').setInputFiles([
      { name: 'devoluciones.txt', mimeType: 'text/plain', buffer: Buffer.from('Política de devoluciones: tienes 30 días naturales para devolver cualquier producto.') },
      { name: 'garantia.md', mimeType: 'text/markdown', buffer: Buffer.from('# Garantía\n\nLos aparatos electrónicos tienen **dos años** de garantía.') },
      { name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
    ]);
    // Links: the local page, and one nobody answers.
    await dialog.getByRole('tab', { name: 'Enlaces' }).click();
    page.expectErrors(/status of 4\d\d .*\/api\/rag\/parse-url|ApiError/);
    await dialog.getByTestId('add-links').fill(`${siteUrl}/envios\n${siteUrl}/no-existe`);
    await dialog.getByRole('button', { name: 'Añadir enlaces' }).click();

    const items = dialog.getByTestId('content-item');
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(6);
    await expect.poll(async () => (await items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status')))).join(','), { timeout: 60_000 })
      .toBe('ready,ready,ready,failed,ready,failed');
    expect(await items.nth(3).getByTestId('content-item-error').innerText()).toContain('Tipo de archivo no admitido');
    expect(await items.nth(5).getByTestId('content-item-error').innerText()).toContain('La URL respondió con un error');

    // The chunks preview of the link, with the page's text (no navigation menu).
    await items.nth(4).getByRole('button', { name: 'Ver fragmentos' }).click();
    const preview = items.nth(4).getByTestId('chunk-preview');
    await preview.waitFor();
    expect(await preview.innerText()).toContain('El envío es gratuito');
    // Chunk settings are folded away until asked for.
    expect(await dialog.getByLabel('Tamaño del fragmento').isVisible()).toBe(false);
    await app.screenshot(page, 'add-content-preview', { fullPage: false });

    await dialog.getByTestId('add-submit').click();
    await dialog.getByTestId('add-done').waitFor({ timeout: 60_000 });
    expect(await dialog.getByTestId('add-progress-label').innerText()).toBe('Contenido añadido y base entrenada');
    expect(await dialog.getByTestId('add-done').innerText()).toMatch(/Base entrenada: \d+ fragmentos? en el índice/);
    await app.screenshot(page, 'add-content-trained', { fullPage: false });
    await dialog.getByTestId('add-content').getByRole('button', { name: 'Cerrar' }).click();

    // The page: four sources, each indexed with its fragments; no retraining needed.
    const sources = page.getByTestId('knowledge-source');
    await expect.poll(() => sources.count(), { timeout: 20_000 }).toBe(4);
    await expect.poll(async () => (await sources.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state')))).join(','), { timeout: 20_000 })
      .toBe('indexed,indexed,indexed,indexed');
    expect(await sources.first().innerText()).toMatch(/Indexada · 1 fragmento/);
    expect(await page.getByTestId('knowledge-needs-retraining').count()).toBe(0);
    await page.getByTestId('training-state').getByText('Entrenada').waitFor();
    // The search finds the linked page's content.
    await page.getByTestId('knowledge-search-query').fill('¿cuánto tarda el envío?');
    await page.getByTestId('knowledge-search-query').press('Enter');
    await page.getByTestId('knowledge-search-result').first().waitFor();
    expect(await page.getByTestId('knowledge-search-result').first().innerText()).toContain('El envío es gratuito');
    await app.screenshot(page, 'add-content-knowledge-page');

    // A source edited after the training: the page says the base needs retraining.
    const token = await app.apiToken();
    const id = page.url().split('/').pop() as string;
    const knowledge = await app.api<{ sources: Array<{ _id: string }> }>('GET', `/api/knowledge/${id}`, undefined, token);
    const first = knowledge.sources[0]._id;
    await app.api('PUT', `/api/knowledge-sources/${first}`, { name: 'Horario de atención', type: 'text', sourceText: FAQ, text: `${FAQ}\nLos domingos cerramos.`, chunks: [] }, token);
    await page.reload();
    await page.getByTestId('knowledge-needs-retraining').waitFor();
    expect(await sources.first().getAttribute('data-state')).toBe('pending');
    expect(await sources.first().innerText()).toContain('Modificada: pendiente de entrenar');
    await app.screenshot(page, 'add-content-needs-retraining');
    await page.getByRole('button', { name: 'Entrenar ahora' }).click();
    await expect.poll(() => sources.first().getAttribute('data-state'), { timeout: 60_000 }).toBe('indexed');
    expect(await page.getByTestId('knowledge-needs-retraining').count()).toBe(0);

    // Home: the first two steps are ticked from the data; the next one is "Crear bot".
    await page.goto(`${app.webUrl}/`);
    await checklist.waitFor();
    await expect.poll(() => checklist.getByTestId('start-step-addContent').getAttribute('data-done')).toBe('true');
    expect(await checklist.getByTestId('start-step-createKnowledge').getAttribute('data-done')).toBe('true');
    expect(await checklist.getByTestId('start-step-createBot').getAttribute('data-done')).toBe('false');
    expect(await checklist.getByText('2 de 5 hechos').count()).toBe(1);
    await app.screenshot(page, 'add-content-home-ticked');
    await page.close();
  });
});
