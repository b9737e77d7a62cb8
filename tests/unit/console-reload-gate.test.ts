import { describe, expect, it } from 'vitest';
import { APPLIED_BEFORE_SEEN_MS, ConsoleReloadGate } from '../../scripts/console-reload-gate.ts';

/** The console's reload decisions in `npm run dev` (scripts/vite-dev-live.ts runs the timers). */
function gate(connected: boolean) {
  let clock = 1_000_000;
  const reloads: string[] = [];
  const g = new ConsoleReloadGate((why) => reloads.push(why), () => clock);
  g.connected = connected;
  return { g, reloads, tick: (ms: number) => (clock += ms) };
}

describe('console reload gate', () => {
  it('reloads once per save, and only when the API says it serves the new model', () => {
    const { g, reloads } = gate(true);
    for (const files of [1, 3, 9]) {
      const before = reloads.length;
      for (let i = 0; i < files; i++) g.changed();
      expect(g.burstEnded()).toBe('waiting');
      expect(reloads.length).toBe(before);
      expect(g.apiSaid('applied')).toBe('reloaded');
      expect(reloads.length).toBe(before + 1);
      expect(reloads.at(-1)).toMatch(/serves the new model/);
    }
  });

  it('reloads on a failed apply too (the console shows what is on disk), and after waiting in vain', () => {
    const failed = gate(true);
    failed.g.changed();
    failed.g.burstEnded();
    expect(failed.g.apiSaid('failed')).toBe('reloaded');
    expect(failed.reloads).toEqual([expect.stringMatching(/could not apply/)]);

    const silent = gate(true);
    silent.g.changed();
    silent.g.burstEnded();
    expect(silent.g.gaveUp(8000)).toBe('reloaded');
    expect(silent.reloads).toEqual(['no word from the API in 8 s']);
    // Nothing pending any more: a late word or a second timeout reload nothing.
    expect(silent.g.apiSaid('applied')).toBe('idle');
    expect(silent.g.gaveUp(8000)).toBe('idle');
    expect(silent.reloads).toHaveLength(1);
  });

  it('reloads after the burst when no dev server is connected (another API, or none)', () => {
    const { g, reloads } = gate(false);
    g.changed();
    g.changed();
    expect(g.burstEnded()).toBe('reloaded');
    expect(reloads).toHaveLength(1);
    expect(g.burstEnded()).toBe('idle');
  });

  it('takes an API word that came before the files were seen as this change, but not an old one', () => {
    const early = gate(true);
    expect(early.g.apiSaid('applied')).toBe('idle');
    early.tick(APPLIED_BEFORE_SEEN_MS - 1);
    early.g.changed();
    expect(early.g.burstEnded()).toBe('reloaded');
    // Used once: the next save waits for its own word.
    early.g.changed();
    expect(early.g.burstEnded()).toBe('waiting');

    const old = gate(true);
    old.g.apiSaid('applied');
    old.tick(APPLIED_BEFORE_SEEN_MS);
    old.g.changed();
    expect(old.g.burstEnded()).toBe('waiting');
    expect(old.reloads).toHaveLength(0);
  });

  it('does nothing for an API word with no model change pending (a server source saved)', () => {
    const { g, reloads } = gate(true);
    for (let i = 0; i < 3; i++) expect(g.apiSaid('applied')).toBe('idle');
    expect(g.burstEnded()).toBe('idle');
    expect(reloads).toEqual([]);
  });
});
