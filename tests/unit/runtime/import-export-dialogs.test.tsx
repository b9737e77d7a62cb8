import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ImportDialog } from '../../../runtime/import/import-dialog.tsx';
import { ExportPanel } from '../../../runtime/export/export-panel.tsx';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import type { ClientEntityModel } from '../../../runtime/model/client-entity-model.ts';
import type { ImportReport } from '../../../runtime/clients/queries.ts';
import { entities } from '../../../src/generated/entities.ts';
import es from '../../../locales/es.json';
import { RuntimeHarness, installBrowserShims, testI18n } from './runtime-test-harness.tsx';

beforeAll(() => {
  installBrowserShims();
  // The harness merges the runtime texts over the app's shallowly; the keys added to
  // locales/es.json under crud.* are filled in here as the app's deep merge does.
  testI18n.addResourceBundle('es', 'translation', es, true, false);
});

const model = entities.bottracestatus as unknown as ClientEntityModel;

function openDialog(importFn: () => Promise<ImportReport>) {
  const entityClient = { import: vi.fn(importFn) };
  render(
    <RuntimeHarness services={{}}>
      <ImportDialog model={model} entityClient={entityClient as never} opened onClose={() => undefined} onImported={() => undefined} />
    </RuntimeHarness>,
  );
  return entityClient;
}

async function chooseFileAndCheck() {
  const user = userEvent.setup();
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  await user.upload(input, new File(['name\nx\n'], 's.csv', { type: 'text/csv' }));
  await user.click(screen.getByRole('button', { name: 'Comprobar' }));
}

describe('ImportDialog report', () => {
  it('interpolates each reason with the parameters the server sends (no raw {{min}})', async () => {
    openDialog(async (): Promise<ImportReport> => ({
      dryRun: true, total: 3, valid: 0, invalid: 3, created: 0,
      errors: [
        { row: 1, field: 'name', reason: 'validation.maxLength', params: { max: 80 } },
        { row: 2, field: 'bot', reason: 'validation.refAmbiguous', params: { value: 'Twin', count: 2 } },
        { row: 3, field: 'status', reason: 'validation.refNoMatch', params: { value: 'nada' } },
      ],
    }));
    await chooseFileAndCheck();
    expect(await screen.findByText('Debe tener como máximo 80 caracteres')).toBeInTheDocument();
    expect(screen.getByText('«Twin» corresponde a 2 registros: use su ID')).toBeInTheDocument();
    expect(screen.getByText('Ningún registro coincide con «nada»')).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('{{');
  });

  it('a rejected import shows its rows and says nothing was imported', async () => {
    const body = {
      message: 'Import rejected: 1 of 2 rows are invalid; nothing was imported', i18nMessage: 'error.validation',
      dryRun: false, total: 2, valid: 1, invalid: 1, created: 0,
      errors: [{ row: 2, field: 'name', reason: 'validation.required' }],
    };
    openDialog(async () => {
      throw new ApiError('error.validation', 'validation', 400, { '2.name': ['validation.required'] }, body);
    });
    await chooseFileAndCheck();
    expect(await screen.findByText('Importación rechazada: no se ha importado nada')).toBeInTheDocument();
    expect(screen.getByText('Campo obligatorio')).toBeInTheDocument();
  });
});

describe('ExportPanel links', () => {
  it('downloads through the signed link, and shows an expired one as such', () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const past = new Date(Date.now() - 1000).toISOString();
    render(
      <RuntimeHarness services={{}}>
        <ExportPanel
          entries={[
            { key: 1, format: 'CSV', file: { url: '/files/exports/a.csv?expires=1&user=u&signature=s', rowCount: 3, time: 5, expiresAt: soon } },
            { key: 2, format: 'JSON', file: { url: '/files/exports/b.json?expires=1&user=u&signature=s', rowCount: 1, time: 2, expiresAt: past } },
          ]}
          onClear={() => undefined}
          onClose={() => undefined}
        />
      </RuntimeHarness>,
    );
    const link = screen.getByRole('link', { name: 'Descargar CSV' });
    expect(link).toHaveAttribute('href', '/files/exports/a.csv?expires=1&user=u&signature=s');
    expect(link).toHaveAttribute('download');
    expect(screen.queryByRole('link', { name: 'Descargar JSON' })).toBeNull();
    expect(screen.getByText('Enlace caducado: vuelva a exportar')).toBeInTheDocument();
  });
});
