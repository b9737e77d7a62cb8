import type { FastifyInstance } from 'fastify';
import { callerOf } from '../operations/operation-caller.ts';
import type { SettingsOperations } from './settings-operations.ts';

/** The REST adapter of the Settings operations (settings-operations.ts). */
export function registerSettingsRoutes(app: FastifyInstance, settings: SettingsOperations): void {
  app.get('/api/settings', { config: { operation: settings.list } }, async (request) => settings.list(callerOf(request), undefined));
  app.get('/api/settings/grouped', { config: { operation: settings.grouped } }, async (request) => settings.grouped(callerOf(request), undefined));
  app.get('/api/settings/public', { config: { operation: settings.publicValues } }, async (request) => settings.publicValues(callerOf(request), undefined));
  app.get<{ Params: { keyOrId: string } }>('/api/settings/:keyOrId', { config: { operation: settings.find } }, async (request) =>
    settings.find(callerOf(request), { keyOrId: request.params.keyOrId }),
  );
  app.patch<{ Params: { id: string } }>('/api/settings/:id', { config: { operation: settings.update } }, async (request) =>
    settings.update(callerOf(request), { id: request.params.id, body: request.body }),
  );
}
