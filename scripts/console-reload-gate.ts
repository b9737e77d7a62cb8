/**
 * When the console reloads after a model change in `npm run dev` (the decisions of
 * scripts/vite-dev-live.ts, without its timers and sockets): once per save, and only once the API
 * serves the new model, so the reloaded page never shows a field the server would refuse.
 */
export type GateStep = 'reloaded' | 'waiting' | 'idle';

/** A burst seen this long after the API's word is taken as the files of that same change. */
export const APPLIED_BEFORE_SEEN_MS = 2000;

export class ConsoleReloadGate {
  /** Whether the dev server's event stream is open (otherwise nobody will say "applied"). */
  connected = false;
  private pending = false;
  private appliedBeforeSeen = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly reload: (why: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A generated module or a locale file changed (a save writes several, one event each). */
  changed(): void {
    this.pending = true;
  }

  /**
   * The burst of changes is over. Reload now when no API will say more (not connected) or when it
   * already applied this change before the files were seen (a busy machine); else wait for it.
   */
  burstEnded(): GateStep {
    if (!this.pending) return 'idle';
    if (!this.connected) return this.fire('src/generated changed');
    if (this.now() - this.appliedBeforeSeen < APPLIED_BEFORE_SEEN_MS) {
      this.appliedBeforeSeen = Number.NEGATIVE_INFINITY;
      return this.fire('the API serves the new model');
    }
    return 'waiting';
  }

  /** The API applied a model (or could not: the console then shows what is on disk, as Vite would). */
  apiSaid(outcome: 'applied' | 'failed'): GateStep {
    if (!this.pending) {
      this.appliedBeforeSeen = this.now();
      return 'idle';
    }
    return this.fire(outcome === 'applied' ? 'the API serves the new model' : 'the API could not apply the model (see its output)');
  }

  /** The API's word did not come in time. */
  gaveUp(waitedMs: number): GateStep {
    return this.pending ? this.fire(`no word from the API in ${Math.round(waitedMs / 1000)} s`) : 'idle';
  }

  private fire(why: string): GateStep {
    this.pending = false;
    this.reload(why);
    return 'reloaded';
  }
}
