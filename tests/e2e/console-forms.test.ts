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
    // The refused submit is logged (runtime/core/use-crud-dialog-controller.ts).
    page.expectErrors(/Invalid form/);
    await dialog.getByRole('textbox', { name: /Nombre/ }).waitFor();
    await create.click();
    await app.screenshot(page, 'tenant-create-error', { fullPage: false });
    await dialog.locator('#root_name-error').getByText('Campo obligatorio').waitFor();
    const name = dialog.getByRole('textbox', { name: /Nombre/ });
    await name.pressSequentially('Primer clic');
    // One real click where the button is now: the field's blur must not move it between press and release.
    const box = (await create.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.up();
    await page.getByRole('cell', { name: 'Primer clic' }).waitFor();
    // The dialog closes with a transition: wait for it to go, rather than count it at once.
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Enter in the one-line field submits. (The "created" notification covers the page's Crear: the keyboard opens it.)
    const openCreate = () => page.getByRole('button', { name: 'Crear' }).press('Enter');
    await openCreate();
    await dialog.getByRole('textbox', { name: /Nombre/ }).fill('Con Enter');
    await dialog.getByRole('textbox', { name: /Nombre/ }).press('Enter');
    await page.getByRole('cell', { name: 'Con Enter' }).waitFor();

    // Escape on a changed form asks; keeping goes back to the typed data, discarding closes.
    await openCreate();
    await dialog.getByRole('textbox', { name: /Nombre/ }).fill('Sin guardar');
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('alertdialog', { name: '¿Descartar los cambios?' });
    await confirm.waitFor();
    await app.screenshot(page, 'tenant-discard-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: 'Seguir editando' }).click();
    expect(await dialog.getByRole('textbox', { name: /Nombre/ }).inputValue()).toBe('Sin guardar');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.getByRole('button', { name: 'Descartar cambios' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('cell', { name: 'Sin guardar' }).count()).toBe(0);
    // An untouched form closes at once.
    await openCreate();
    await dialog.getByRole('textbox', { name: /Nombre/ }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.close();
  });

  it('a manager of Visor and Gestor is offered exactly those in the user form, and no Edit on the Admin role', async () => {
    const token = await app.apiToken();
    const visor = await app.api<{ _id: string }>('POST', '/api/roles', { name: 'Visor', permissions: ['bot:view'] }, token);
    const gestor = await app.api<{ _id: string }>('POST', '/api/roles', { name: 'Gestor', permissions: ['bot:manage'] }, token);
    const manager = await app.api<{ _id: string }>('POST', '/api/roles', { name: 'Jefe', permissions: ['user:manage', 'role:view'], childRoles: [visor._id, gestor._id] }, token);
    await app.api('POST', '/api/users', { name: 'Jefa', username: 'jefa', email: 'jefa@example.com', phone: '600', password: 'Jefa-pass-123', role: manager._id }, token);
    const page = await app.newPage();
    await app.signIn(page, 'jefa', 'Jefa-pass-123');
    await page.goto(`${app.webUrl}/crud/user`);
    await page.getByRole('button', { name: 'Crear' }).click();
    const picker = page.getByRole('dialog').getByTestId('user-role-picker');
    await picker.click();
    await page.getByRole('option', { name: 'Visor' }).waitFor();
    expect((await page.getByRole('option').allInnerTexts()).sort()).toEqual(['Gestor', 'Visor']);
    await app.screenshot(page, 'user-role-picker-managed', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.close();

    // The Admin row offers no Edit and no Delete (the server refuses both), even to an administrator.
    const admin = await app.newPage();
    await app.signIn(admin);
    await admin.goto(`${app.webUrl}/crud/role`);
    const adminRow = admin.getByRole('row').filter({ has: admin.getByRole('cell', { name: 'Admin', exact: true }) });
    await adminRow.waitFor();
    expect(await adminRow.getByRole('button', { name: 'Editar' }).count()).toBe(0);
    expect(await adminRow.getByRole('button', { name: 'Eliminar' }).count()).toBe(0);
    const visorRow = admin.getByRole('row').filter({ has: admin.getByRole('cell', { name: 'Visor', exact: true }) });
    expect(await visorRow.getByRole('button', { name: 'Editar' }).count()).toBe(1);
    await admin.close();
  });
});
