import { createTransport } from '../../runtime/transport/create-transport.ts';
import type { RuntimeServices } from '../../runtime/context/runtime-context.tsx';
import { createProviders } from '../generated/providers.ts';
import { entities } from '../generated/entities.ts';
import { formLoaders } from '../generated/forms.ts';
import { transportOptions } from '../session/api-client.ts';
import { overrides } from './overrides.ts';

/**
 * Transport from configuration (VITE_TRANSPORT, default rest). It reads the bearer token from the
 * session store on every request and signs out on a 401.
 */
const transport = createTransport(import.meta.env.VITE_TRANSPORT ?? 'rest', transportOptions);

export const services: RuntimeServices = {
  providers: createProviders(transport),
  entities,
  uploader: transport,
  forms: formLoaders,
  overrides,
};
