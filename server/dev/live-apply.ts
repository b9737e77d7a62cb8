/**
 * The one way to apply a saved model change to the running development server (`npm run dev`,
 * scripts/dev-server.ts), for code inside the server (the schema studio): it runs the generator
 * and, when it accepts the manifests, swaps in an app built on the new model, exactly as a save in
 * an editor does. The dev server installs it on the process (it survives the reloads: every
 * reload re-evaluates this module); outside `npm run dev` there is nothing to apply to.
 */
export interface LiveApplyResult {
  /** True once the new model serves every new request (the old app finishes what it started). */
  applied: boolean;
  /** 'refused': the generator's message is in `message`, the running server keeps its model. */
  outcome: 'applied' | 'unchanged' | 'refused' | 'failed';
  /** What was wrong (generator issues, or the error of an app that could not start). */
  message?: string;
  /** From the call to the new app serving. */
  ms: number;
}

export type LiveApply = (reason: string) => Promise<LiveApplyResult>;

const KEY = Symbol.for('forja.dev.liveApply');
type Holder = { [KEY]?: LiveApply };

/** Called once by scripts/dev-server.ts, or by server/main.ts for the built server; returns its removal (tests). */
export function installLiveApply(apply: LiveApply): () => void {
  (globalThis as Holder)[KEY] = apply;
  return () => {
    if ((globalThis as Holder)[KEY] === apply) delete (globalThis as Holder)[KEY];
  };
}

/**
 * Applies the manifests and locales as they are on disk now; null when nothing installed an applier
 * (a server created without server/main.ts or the dev server: then a restart applies them). The call
 * resolves after the switch, so a request that awaits it (the studio's save) is answered by the
 * old app, which closes only once that answer is sent.
 */
export function liveApply(reason: string): Promise<LiveApplyResult> | null {
  const apply = (globalThis as Holder)[KEY];
  return apply ? apply(reason) : null;
}
