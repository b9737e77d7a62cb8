import type { ServerFeature } from '../http/server-features.ts';
import { registerSettingsRoutes } from './settings-routes.ts';

export const settingsFeature: ServerFeature = (app, deps) => registerSettingsRoutes(app, deps.settings, deps.runtimeConfig);
