import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ExportPanel } from '../../../runtime/export/export-panel.tsx';
import { ActiveJobProgressContext, type ActiveJobProps } from '../../../runtime/jobs/active-job-progress.tsx';
import { RuntimeHarness, installBrowserShims } from '../runtime/runtime-test-harness.tsx';

beforeAll(() => installBrowserShims());

function FakeProgress({ kind, entity }: ActiveJobProps) {
  return <div data-testid="fake-progress">{`${kind}:${entity}`}</div>;
}

const pending = [{ key: 1, format: 'CSV', file: null }];

describe('ActiveJobProgress slot', () => {
  it('shows the app\'s progress for a running export of the panel\'s entity', () => {
    render(
      <RuntimeHarness services={{}}>
        <ActiveJobProgressContext.Provider value={FakeProgress}>
          <ExportPanel entries={pending} entity="bot" onClear={() => undefined} onClose={() => undefined} />
        </ActiveJobProgressContext.Provider>
      </RuntimeHarness>,
    );
    expect(screen.getByTestId('fake-progress').textContent).toBe('export:bot');
  });

  it('shows nothing without the app\'s progress component (the runtime knows no jobs endpoint)', () => {
    render(
      <RuntimeHarness services={{}}>
        <ExportPanel entries={pending} entity="bot" onClear={() => undefined} onClose={() => undefined} />
      </RuntimeHarness>,
    );
    expect(screen.queryByTestId('fake-progress')).toBeNull();
  });
});
