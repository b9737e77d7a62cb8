import type { FastifyInstance } from 'fastify';
import type { Operation } from '../operations/define-operation.ts';
import { callerOf } from '../operations/operation-caller.ts';

/** The entities whose model changed since the console was built, as GET /api/live-model answers. */
export interface LiveModelChanges {
  changed: Record<string, { model: unknown; schema: unknown; uiSchema: unknown }>;
  menu: unknown[] | null;
  texts: Record<string, unknown> | null;
}
export const NO_LIVE_CHANGES: LiveModelChanges = { changed: {}, menu: null, texts: null };

/**
 * GET /api/live-model: what the built console cannot know, the entities a schema studio save
 * applied live since it was built (their client models, form schemas, the menu and the texts),
 * which the console overlays on its own (src/app/live-model.ts). On every server, so the console
 * can ask once per load: without the studio, or before any save, nothing changed. Signed-in users
 * only; the models are those the console's bundle already carries for the built entities.
 */
export function registerLiveModelRoute(app: FastifyInstance, liveModel: Operation<void, LiveModelChanges>): void {
  app.get('/api/live-model', {
    config: { operation: liveModel },
    schema: { summary: 'The entities whose model changed since the console was built (a schema studio save applied live): models, form schemas, menu and texts; empty when none did', tags: ['studio'] },
  }, async (request) => liveModel(callerOf(request), undefined));
}
