import type { ServerFeature } from '../http/server-features.ts';
import { createSettingsOperations } from './settings-operations.ts';
import { registerSettingsRoutes } from './settings-routes.ts';

export const settingsFeature: ServerFeature = (app, deps) =>
  registerSettingsRoutes(app, createSettingsOperations({ store: deps.settings, readConfig: deps.effectiveConfig, defineOperation: deps.defineOperation }));
