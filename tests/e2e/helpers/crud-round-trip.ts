import type { Page } from 'playwright-core';
import { pageSettled } from './page-settled.ts';
import type { AppUnderTest } from './app-under-test.ts';

/** Signs in, then creates, edits and deletes a bot trace status through the generic CRUD page. */
export async function crudRoundTrip(app: AppUnderTest, page: Page & { errors: string[] }): Promise<void> {
  await page.goto(`${app.webUrl}/`);
  // Signed-out visitors are sent to /login?redirect=/ by the route guard: wait for either screen.
  await page.locator('[data-testid="gallery"], [data-testid="login-username"]').first().waitFor();
  if (new URL(page.url()).pathname === '/login') await app.signIn(page);
  // The gallery's tile (the sidebar has a link of the same name), once the home page is still:
  // the getting-started card appears above the tiles when its counts answer, moving them.
  await pageSettled(page);
  await page.getByTestId('menu-item-bottracestatus').click();
  await page.waitForURL(/\/crud\/bottracestatus/);
  await page.getByRole('heading', { name: 'Estados de traza' }).waitFor();

  await page.getByRole('button', { name: 'Crear' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Nombre' }).fill('E2E status');
  await dialog.getByRole('textbox', { name: 'Descripción' }).fill('made in chromium');
  await dialog.getByRole('button', { name: 'Crear' }).click();
  await page.getByRole('cell', { name: 'E2E status' }).waitFor();
  await page.getByText('Estado de traza creado').waitFor();

  // Seeded statuses share the table: act on the created row only.
  await page.getByRole('row', { name: /E2E status/ }).getByRole('button', { name: 'Editar' }).click();
  await dialog.getByRole('textbox', { name: 'Nombre' }).fill('E2E renamed');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await page.getByRole('cell', { name: 'E2E renamed' }).waitFor();

  await page.getByRole('row', { name: /E2E renamed/ }).getByRole('button', { name: 'Eliminar' }).click();
  await dialog.getByRole('button', { name: 'Eliminar' }).click();
  await page.getByText('Estado de traza eliminado').waitFor();
  await page.getByRole('cell', { name: 'E2E renamed' }).waitFor({ state: 'detached' });
}
