// Issue 27 (smaller defects): the import kept Importar disabled after a new file was chosen, and
// its error table showed raw field names.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ImportDialog, fieldLabel } from '../../../runtime/import/import-dialog.tsx';
import type { ClientEntityModel } from '../../../runtime/model/client-entity-model.ts';
import type { ImportReport } from '../../../runtime/clients/queries.ts';
import { entities } from '../../../src/generated/entities.ts';
import es from '../../../locales/es.json';
import { RuntimeHarness, installBrowserShims, testI18n } from './runtime-test-harness.tsx';

beforeAll(() => {
  installBrowserShims();
  testI18n.addResourceBundle('es', 'translation', es, true, false);
});

const model = entities.bot as unknown as ClientEntityModel;
const report = (invalid: number, errors: ImportReport['errors'] = []): ImportReport => ({ dryRun: true, total: 2, valid: 2 - invalid, invalid, created: 0, errors });

function openDialog(importFn: (params: { file: File; dryRun: boolean }) => Promise<ImportReport>) {
  const entityClient = { import: vi.fn(importFn) };
  render(
    <RuntimeHarness services={{}}>
      <ImportDialog model={model} entityClient={entityClient as never} opened onClose={() => undefined} onImported={() => undefined} />
    </RuntimeHarness>,
  );
  return entityClient;
}

const input = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const importButton = () => screen.getByRole('button', { name: 'Importar' });

describe('ImportDialog with a new file', () => {
  it('checks each file chosen, so Importar follows the file chosen now', async () => {
    const user = userEvent.setup();
    const entityClient = openDialog(async ({ file }) => (file.name === 'bad.csv' ? report(2, [{ row: 1, field: 'name', reason: 'validation.required' }, { row: 2, field: 'name', reason: 'validation.required' }]) : report(0)));
    await user.upload(input(), new File(['x'], 'bad.csv', { type: 'text/csv' }));
    expect((await screen.findAllByText('Campo obligatorio')).length).toBe(2);
    expect(importButton()).toBeDisabled();
    await user.upload(input(), new File(['x'], 'good.csv', { type: 'text/csv' }));
    await waitFor(() => expect(importButton()).toBeEnabled());
    expect(screen.queryByText('Campo obligatorio')).toBeNull();
    expect(entityClient.import.mock.calls.map(([params]) => [params.file.name, params.dryRun])).toEqual([['bad.csv', true], ['good.csv', true]]);
  });

  it('names the fields of the error table by their labels', async () => {
    const user = userEvent.setup();
    openDialog(async () => report(2, [{ row: 1, field: 'name', reason: 'validation.required' }, { row: 2, field: 'knowledge', reason: 'validation.refNoMatch', params: { value: 'x' } }]));
    await user.upload(input(), new File(['x'], 'bad.csv', { type: 'text/csv' }));
    const table = await screen.findByRole('table');
    const cells = within(table).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toContain(testI18n.t('field.bot.name'));
    expect(cells).toContain(testI18n.t('field.bot.knowledge'));
    expect(cells).not.toContain('name');
    expect(cells).not.toContain('knowledge');
  });

  it('fieldLabel: nested paths by their field, unknown names as they are', () => {
    const t = (key: string) => testI18n.t(key);
    expect(fieldLabel(model, 'questions.2', t)).toBe(`${t('field.bot.questions')} › 2`);
    expect(fieldLabel(model, 'nonexistent', t)).toBe('nonexistent');
    expect(fieldLabel(model, null, t)).toBe('');
  });
});
