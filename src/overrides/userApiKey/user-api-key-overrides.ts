import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { ApiKeyPage } from './api-key-page.tsx';

export const userApiKeyOverrides: EntityOverrides = { page: ApiKeyPage };
