// Knowledge round trip in Chromium: a text source chunked and edited in the knowledge source
// form, a knowledge base using it, training from the row action and a search on /knowledge/:id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

const SOURCE_TEXT = [
  'Política de devoluciones: dispones de 30 días naturales para devolver cualquier producto sin dar explicaciones.',
  'Envíos: el envío es gratuito en pedidos superiores a 50 euros y tarda de 24 a 48 horas laborables.',
  'Garantía: los aparatos electrónicos tienen dos años de garantía legal desde la fecha de compra.',
].join('\n\n');

describe('knowledge in Chromium', () => {
  it('creates a source from text, chunks and edits it, trains a knowledge base and searches it', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/crud/knowledgesource`);
    await page.getByRole('heading', { name: 'Fuentes de conocimiento' }).waitFor();

    // Source from text: type, source text, copy, recursive chunk.
    await page.getByRole('button', { name: 'Crear' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Ayuda tienda');
    await dialog.getByRole('combobox', { name: 'Tipo' }).click();
    await page.getByRole('option', { name: 'Texto' }).click();
    await dialog.getByTestId('source-text').fill(SOURCE_TEXT);
    await dialog.getByRole('button', { name: 'Copiar al texto editado' }).click();
    await expect.poll(() => dialog.getByTestId('edited-text').inputValue()).toBe(SOURCE_TEXT);
    // Improve needs text: enabled now. No language model is configured here, so the server's
    // refusal is shown (not a fake rewrite) and the text stays as it was.
    page.expectErrors(/status of 409 \(Conflict\) \(http:\/\/[^)]*\/api\/rag\/improve\)|ApiError: error\.rag\.noLlm/);
    await dialog.getByRole('button', { name: 'Mejorar texto con IA' }).click();
    await dialog.getByTestId('improve-error').waitFor();
    expect(await dialog.getByTestId('improve-error').innerText()).toContain('No hay un modelo de lenguaje configurado');
    expect(await dialog.getByTestId('edited-text').inputValue()).toBe(SOURCE_TEXT);
    await app.screenshot(page, 'knowledge-source-edited-text');
    await dialog.getByTestId('edited-text').fill('');
    expect(await dialog.getByRole('button', { name: 'Mejorar texto con IA' }).isDisabled()).toBe(true);
    await dialog.getByTestId('edited-text').fill(SOURCE_TEXT);
    await dialog.getByRole('button', { name: 'Trocear (recursivo)' }).click();

    // 1000/100 chunking keeps this short text in one chunk: add a second one by hand and edit it.
    await dialog.getByTestId('chunk-item').first().waitFor();
    expect(await dialog.getByTestId('chunk-item').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Añadir' }).click();
    expect(await dialog.getByTestId('chunk-item').count()).toBe(2);
    await dialog.getByTestId('chunk-content').fill('Horario de atención: de lunes a viernes de 9 a 18 horas.');
    await dialog.getByRole('textbox', { name: 'Categoría' }).fill('horario');
    const tags = dialog.getByLabel('Etiquetas', { exact: true });
    await tags.fill('atención');
    await tags.press('Enter');
    // Filter by content.
    await dialog.getByRole('textbox', { name: 'Filtrar por contenido' }).fill('horario');
    expect(await dialog.getByTestId('chunk-item').count()).toBe(1);
    await app.screenshot(page, 'knowledge-source-chunks');
    await dialog.getByRole('textbox', { name: 'Filtrar por contenido' }).fill('');
    await dialog.getByRole('button', { name: 'Crear' }).click();
    await page.getByRole('cell', { name: 'Ayuda tienda' }).waitFor();

    const token = await app.apiToken();
    const sources = await app.api<{ items: Array<{ _id: string; chunks: Array<{ content: string; category: string; tags: string[] }>; text: string }> }>(
      'GET', '/api/knowledge-sources?search=Ayuda', undefined, token,
    );
    expect(sources.items).toHaveLength(1);
    const saved = sources.items[0];
    expect(saved.text).toBe(SOURCE_TEXT);
    expect(saved.chunks.map((c) => c.content)).toEqual([SOURCE_TEXT, 'Horario de atención: de lunes a viernes de 9 a 18 horas.']);
    expect(saved.chunks[1]).toMatchObject({ category: 'horario', tags: ['atención'] });

    // Knowledge base with that source, through its form.
    await page.goto(`${app.webUrl}/crud/knowledge`);
    await page.getByRole('heading', { name: 'Bases de conocimiento' }).waitFor();
    await page.getByRole('button', { name: 'Crear' }).click();
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Base tienda');
    await dialog.getByRole('textbox', { name: 'Descripción de la herramienta' }).fill('Preguntas sobre la tienda');
    const sourcesInput = dialog.getByLabel('Fuentes', { exact: true });
    await sourcesInput.click();
    await sourcesInput.fill('Ayuda');
    await page.getByRole('option', { name: 'Ayuda tienda' }).click();
    await dialog.getByRole('button', { name: 'Crear' }).click();
    await page.getByRole('cell', { name: 'Base tienda' }).waitFor();

    // Train from the row action.
    await page.getByRole('button', { name: 'Entrenar' }).click();
    await page.getByText('Base de conocimiento entrenada').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('knowledge-train-failed').count()).toBe(0);
    await app.screenshot(page, 'knowledge-trained');

    // Search page.
    await page.getByTestId('knowledge-search').click();
    await page.waitForURL(/\/knowledge\/[^/]+$/);
    await page.getByRole('heading', { name: 'Buscar en la base de conocimiento' }).waitFor();
    await page.getByText('Base tienda').waitFor();
    await page.getByTestId('knowledge-search-query').fill('¿cuanto tarda el envio?');
    await page.getByTestId('knowledge-search-query').press('Enter');
    const results = page.getByTestId('knowledge-search-result');
    await results.first().waitFor();
    expect(await results.count()).toBe(1);
    const first = await results.first().innerText();
    expect(first).toContain('Envíos: el envío es gratuito');
    expect(first).toContain('Ayuda tienda');
    expect(first).toMatch(/\b[01]\.\d\d\b/);
    await app.screenshot(page, 'knowledge-search');

    await page.getByTestId('knowledge-search-query').fill('horario de atencion');
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect.poll(async () => (await results.first().innerText()).includes('Horario de atención')).toBe(true);
    await page.close();
  });

  it('a link refused by the address policy shows the server\'s reason on the link field', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/crud/knowledgesource`);
    await page.getByRole('button', { name: 'Crear' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Intranet');
    await dialog.getByRole('combobox', { name: 'Tipo' }).click();
    await page.getByRole('option', { name: 'Enlace' }).click();
    await dialog.getByLabel(/^Enlace/).fill('http://127.0.0.1:9/intranet');
    page.expectErrors(/status of 4\d\d .*\/api\/rag\/parse-url|ApiError/);
    await dialog.getByRole('button', { name: 'Extraer de la fuente' }).click();
    await dialog.getByText('Esa dirección no está permitida').first().waitFor();
    await app.screenshot(page, 'knowledge-source-link-refused', { fullPage: false });
    await page.close();
  });

  it('shows a failed training as a red alert with the message in a tooltip, and still after a reload', async () => {
    // A real failure: the configured embedding service does not answer.
    const broken = await startApp({ env: { EMBEDDING_MODEL: 'dead-model', EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1' } });
    try {
      const token = await broken.apiToken();
      await broken.api('POST', '/api/knowledge', { name: 'Base rota', toolDescription: 'x', texts: [{ title: 'Ayuda', content: SOURCE_TEXT }] }, token);
      const page = await broken.newPage();
      await broken.signIn(page);
      await page.goto(`${broken.webUrl}/crud/knowledge`);
      const row = page.getByRole('row', { name: /Base rota/ });
      await row.waitFor();
      page.expectErrors(/status of 50\d .*\/api\/rag\/train\/|ApiError: /);
      await row.getByRole('button', { name: 'Entrenar' }).click();
      const alert = row.getByTestId('knowledge-train-failed');
      await alert.waitFor();
      await alert.hover();
      await page.getByRole('tooltip').waitFor();
      expect((await page.getByRole('tooltip').innerText()).trim().length).toBeGreaterThan(0);
      await broken.screenshot(page, 'knowledge-train-failed');
      // The outcome is stored on the record: the list says so after a reload too.
      await page.reload();
      await page.getByRole('row', { name: /Base rota/ }).getByTestId('knowledge-train-failed').waitFor();
      await page.close();
    } finally {
      await broken.stop();
    }
  });
});
