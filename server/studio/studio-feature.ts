import type { FastifyInstance } from 'fastify';
import type { FeatureDependencies } from '../http/server-features.ts';
import { callerOf } from '../operations/operation-caller.ts';
import { registerLiveModelRoute } from './live-model-route.ts';
import { createStudioOperations } from './studio-operations.ts';

export { SCHEMA_MANAGE } from './studio-operations.ts';

/** A manifest with its texts is a few tens of KB; this leaves room and bounds the generator's work. */
export const STUDIO_BODY_LIMIT = 512 * 1024;

const DRAFT_BODY = {
  type: 'object',
  required: ['manifest'],
  properties: {
    manifest: { type: 'object', description: 'The whole manifest as it would be saved (in the file holding its entity, manifests/<name>.json for a new one)' },
    entity: { type: 'string', description: 'The entity the draft was opened as (its saved "name", e.g. "bottrace"); absent for a new entity. A draft whose "name" differs is a rename, refused' },
    texts: {
      type: 'object',
      description: 'Texts of the locale keys the manifest names: { "field.faq.question": { "es": "Pregunta", "en": "Question" } }',
      additionalProperties: { type: 'object', properties: { es: { type: 'string' }, en: { type: 'string' } }, required: ['es', 'en'] },
    },
  },
};
const TAGS = ['studio'];

/**
 * The schema studio's routes (README.md "Schema studio"), adapters over its operations
 * (studio-operations.ts), which check schema:manage themselves. Registered only when the studio is
 * on (server/studio/studio-config.ts); otherwise every /api/studio route is a 404.
 */
export async function studioFeature(app: FastifyInstance, deps: FeatureDependencies): Promise<void> {
  const studio = createStudioOperations(deps);
  registerLiveModelRoute(app, studio.liveModel);
  if (!deps.featureConfig.studio.enabled) return;

  app.get('/api/studio/manifests', {
    config: { operation: studio.list },
    schema: { summary: 'Every entity manifest with its version, and the manifest meta-schema the studio builds its forms from', tags: TAGS },
  }, async (request) => studio.list(callerOf(request), undefined));

  app.get<{ Params: { name: string } }>('/api/studio/manifests/:name', {
    config: { operation: studio.read },
    schema: { summary: 'One manifest, its version (also the ETag) and the texts of its locale keys', tags: TAGS },
  }, async (request, reply) => {
    const found = await studio.read(callerOf(request), { name: request.params.name });
    void reply.header('etag', `"${found.version}"`);
    return found;
  });

  app.post('/api/studio/validate', {
    config: { operation: studio.validate },
    bodyLimit: STUDIO_BODY_LIMIT,
    schema: { summary: 'Checks a draft manifest with the generator (same rules and messages as `npm run generate`); writes nothing', tags: TAGS, body: DRAFT_BODY },
  }, async (request) => studio.validate(callerOf(request), { body: request.body }));

  app.post('/api/studio/plan', {
    config: { operation: studio.plan },
    bodyLimit: STUDIO_BODY_LIMIT,
    schema: { summary: 'What saving a draft would do: the manifest diff, the locale keys added and the database migration plan; writes nothing', tags: TAGS, body: DRAFT_BODY },
  }, async (request) => studio.plan(callerOf(request), { body: request.body }));

  app.put<{ Params: { name: string } }>('/api/studio/manifests/:name', {
    config: { operation: studio.save },
    bodyLimit: STUDIO_BODY_LIMIT,
    schema: {
      summary: 'Saves a manifest and its locale texts (If-Match: its version; If-None-Match: * for a new entity). A draft the generator refuses, or whose migration plan refuses a change, writes nothing',
      tags: TAGS,
      body: DRAFT_BODY,
    },
  }, async (request, reply) => {
    const saved = await studio.save(callerOf(request), {
      name: request.params.name,
      body: request.body,
      ifMatch: headerVersion(request.headers['if-match']),
      creating: request.headers['if-none-match'] === '*',
      log: request.log,
    });
    void reply.header('etag', `"${saved.version}"`);
    return saved;
  });
}

function headerVersion(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string') return null;
  return value.trim().replace(/^W\//, '').replace(/^"|"$/g, '') || null;
}
