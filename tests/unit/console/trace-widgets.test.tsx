// Issue 27 (smaller defects): the trace view showed the latency in ms under "Latencia (s)" and the
// conversation as a raw id.
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { WidgetProps } from '@rjsf/utils';
import { ConversationLinkWidget, LatencySecondsWidget } from '../../../src/overrides/bottrace/trace-widgets.tsx';
import { sessionStore } from '../../../src/session/session-store.ts';
import { ConsoleHarness } from './console-harness.tsx';

const props = (value: unknown, label: string) => ({ id: 'root_x', name: 'x', value, label, schema: {}, options: {}, onChange: () => undefined, onBlur: () => undefined, onFocus: () => undefined, readonly: true, disabled: false, required: false, rawErrors: [], registry: {} }) as unknown as WidgetProps;

afterEach(() => sessionStore.setUser(null));

describe('trace view widgets', () => {
  it.each([[1200, '1.20 s'], [0, '0.00 s'], [45_678, '45.68 s']])('latency %i ms reads %s, as its label says seconds', (ms, shown) => {
    render(
      <ConsoleHarness>
        <LatencySecondsWidget {...props(ms, 'Latencia (s)')} />
      </ConsoleHarness>,
    );
    expect(screen.getByTestId('trace-latency')).toHaveValue(shown);
  });

  it.each([
    [['conversation:view'], 'link'],
    [['conversation:manage'], 'link'],
    [['bottrace:view'], 'text'],
  ] as const)('the conversation with %s: a %s, never the raw id', (permissions, kind) => {
    sessionStore.setUser({ id: 'u1', username: 'ana', role: { _id: 'r1', name: 'R', permissions: [...permissions] } });
    render(
      <ConsoleHarness>
        <ConversationLinkWidget {...props('c0ffee1234', 'Conversación')} />
      </ConsoleHarness>,
    );
    const shown = screen.getByTestId('trace-conversation');
    expect(shown).not.toHaveTextContent('c0ffee1234');
    if (kind === 'link') expect(shown).toHaveAttribute('href', '/crud/conversation?view=c0ffee1234');
    else expect(shown.tagName).not.toBe('A');
  });

  it('no conversation: says so', () => {
    render(
      <ConsoleHarness>
        <ConversationLinkWidget {...props(null, 'Conversación')} />
      </ConsoleHarness>,
    );
    expect(screen.getByTestId('trace-conversation')).toHaveTextContent('Sin conversación');
  });
});
