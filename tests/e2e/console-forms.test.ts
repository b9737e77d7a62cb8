// Forms in Chromium on the build (issue 27 items 1, 2): a decimal typed with the Spanish mark is
// kept and saved as typed; the first click after a validation error is not lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

describe('console forms in Chromium', () => {
  it('the knowledge threshold shows 0,5 in Spanish and keeps 0.7 typed as 0,7', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/crud/knowledge`);
    await page.getByRole('heading', { name: 'Bases de conocimiento' }).waitFor();
    await page.getByRole('button', { name: 'Crear' }).click();
    const dialog = page.getByRole('dialog');
    const threshold = dialog.getByRole('textbox', { name: /Umbral/ });
    await threshold.waitFor();
    await app.screenshot(page, 'knowledge-threshold-default', { fullPage: false });
    expect(await threshold.inputValue()).toBe('0,5');
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Base umbral');
    await dialog.getByRole('textbox', { name: 'Descripción de la herramienta' }).fill('Prueba del umbral');
    await threshold.fill('');
    await threshold.pressSequentially('0,7');
    await dialog.getByRole('textbox', { name: 'Nombre' }).focus();
    expect(await threshold.inputValue()).toBe('0,7');
    await app.screenshot(page, 'knowledge-threshold-typed', { fullPage: false });
    await dialog.getByRole('button', { name: 'Crear' }).click();
    await page.getByRole('cell', { name: 'Base umbral' }).waitFor();
    const token = await app.apiToken();
    const saved = await app.api<{ items: Array<{ scoreThreshold: number }> }>('GET', '/api/knowledge?search=umbral', undefined, token);
    expect(saved.items.map((item) => item.scoreThreshold)).toEqual([0.7]);
    await page.close();
  });

  it('tenant create: Crear, the error, a name typed, Crear creates it at the first click; Enter submits; Escape on a changed form asks', async () => {
    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/crud/tenant`);
    await page.getByRole('button', { name: 'Crear' }).click();
    const dialog = page.getByRole('dialog', { name: /Crear/ });
    const create = dialog.getByRole('button', { name: 'Crear' });
    await create.click();
    await dialog.getByText('Campo obligatorio').waitFor();
    await app.screenshot(page, 'tenant-create-error', { fullPage: false });
    const name = dialog.getByRole('textbox', { name: /Nombre/ });
    await name.pressSequentially('Primer clic');
    // One real click where the button is now: the field's blur must not move it between press and release.
    const box = (await create.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.up();
    await page.getByRole('cell', { name: 'Primer clic' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Enter in the one-line field submits.
    await page.getByRole('button', { name: 'Crear' }).click();
    await dialog.getByRole('textbox', { name: /Nombre/ }).fill('Con Enter');
    await dialog.getByRole('textbox', { name: /Nombre/ }).press('Enter');
    await page.getByRole('cell', { name: 'Con Enter' }).waitFor();

    // Escape on a changed form asks; keeping goes back to the typed data, discarding closes.
    await page.getByRole('button', { name: 'Crear' }).click();
    await dialog.getByRole('textbox', { name: /Nombre/ }).fill('Sin guardar');
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('dialog', { name: '¿Descartar los cambios?' });
    await confirm.waitFor();
    await app.screenshot(page, 'tenant-discard-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: 'Seguir editando' }).click();
    expect(await dialog.getByRole('textbox', { name: /Nombre/ }).inputValue()).toBe('Sin guardar');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.getByRole('button', { name: 'Descartar cambios' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('cell', { name: 'Sin guardar' }).count()).toBe(0);
    // An untouched form closes at once.
    await page.getByRole('button', { name: 'Crear' }).click();
    await dialog.getByRole('textbox', { name: /Nombre/ }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.close();
  });
});
