// One full CRUD round trip in Chromium against the real API server (see helpers/app-under-test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

describe('CRUD page in Chromium', () => {
  it('creates, edits and deletes a bot trace status', async () => {
    const page = await app.newPage();
    const pageErrors = page.errors;
    await page.goto(`${app.webUrl}/`);
    // Signed-out visitors are sent to /login?redirect=/ by the route guard.
    await page.waitForLoadState('networkidle');
    if (new URL(page.url()).pathname === '/login') await app.signIn(page);
    await page.getByRole('link', { name: 'Estados de traza' }).click();
    await page.getByRole('heading', { name: 'Estados de traza' }).waitFor();

    await page.getByRole('button', { name: 'Crear' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('E2E status');
    await dialog.getByRole('textbox', { name: 'Descripción' }).fill('made in chromium');
    await dialog.getByRole('button', { name: 'Crear' }).click();
    await page.getByRole('cell', { name: 'E2E status' }).waitFor();
    await page.getByText('¡Entidad creada correctamente!').waitFor();

    await page.getByRole('button', { name: 'Editar' }).click();
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('E2E renamed');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('cell', { name: 'E2E renamed' }).waitFor();

    await page.getByRole('button', { name: 'Eliminar' }).click();
    await dialog.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByText('No hay registros').waitFor();
    expect(await page.getByRole('cell', { name: 'E2E renamed' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
