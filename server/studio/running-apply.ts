import type { FastifyInstance } from 'fastify';
import { createServer, type CreateServerOptions } from '../http/create-server.ts';
import type { AppSwitch } from '../http/app-switch.ts';
import { installLiveApply, type LiveApplyResult } from '../dev/live-apply.ts';
import { ManifestValidationError, formatIssue } from '../../generator/validate/manifest-issue.ts';
import { buildLiveModel } from './live-model.ts';

/**
 * The studio's live apply for the built server (`npm start` with SCHEMA_STUDIO=true): a save runs
 * the generator in memory on the manifests and locales as saved (server/studio/live-model.ts),
 * builds an app on that model on the same database (its start migrates with the plan the studio
 * showed, and seeds the Admin role's new permissions), and switches the listening socket to it
 * (server/http/app-switch.ts): REST, GraphQL and OpenAPI serve the new model from the next
 * request; the old app finishes the requests it started, the save's own included, then closes.
 * A model the generator refuses, or an app that cannot start, leaves the running app as it was.
 */
export function installRunningApply(options: {
  /** What the first app was created with (its model aside): each new app gets the same. */
  serverOptions: CreateServerOptions;
  root: string;
  appSwitch: AppSwitch;
  log: (message: string) => void;
}): () => void {
  const { serverOptions, root, appSwitch, log } = options;
  const { config } = serverOptions;
  let queue: Promise<unknown> = Promise.resolve();
  const apply = async (reason: string): Promise<LiveApplyResult> => {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    let model;
    try {
      model = buildLiveModel(root);
    } catch (error) {
      if (error instanceof ManifestValidationError) return { applied: false, outcome: 'refused', message: error.issues.map(formatIssue).join('\n\n'), ms: ms() };
      throw error;
    }
    let next: FastifyInstance | null = null;
    try {
      next = await createServer({ ...serverOptions, ...model });
      appSwitch.track(next, config.shutdownGraceMs);
      await next.ready();
    } catch (error) {
      await next?.close().catch(() => undefined);
      log(`live apply failed (${reason}); the running server keeps its model: ${(error as Error).message}`);
      return { applied: false, outcome: 'failed', message: (error as Error).message, ms: ms() };
    }
    appSwitch.use(next);
    log(`live apply (${reason}): the new model serves, in ${ms()} ms`);
    return { applied: true, outcome: 'applied', ms: ms() };
  };
  return installLiveApply((reason) => {
    // One apply at a time: each builds on the files as the previous one left them.
    const run = queue.then(() => apply(reason));
    queue = run.catch(() => undefined);
    return run;
  });
}
