import { createTransport } from '../../runtime/transport/create-transport.ts';
import type { RuntimeServices } from '../../runtime/context/runtime-context.tsx';
import { createProviders } from '../generated/providers.ts';
import { entities } from '../generated/entities.ts';
import { formLoaders } from '../generated/forms.ts';
import { transportOptions } from '../session/api-client.ts';
import { overrides } from './overrides.ts';
import { manifestIcons } from '../generated/icons.ts';
import { formTheme } from './form-theme.ts';

/**
 * Transport from configuration (VITE_TRANSPORT, default rest). It reads the bearer token from the
 * session store on every request and signs out on a 401.
 */
const kind = import.meta.env.VITE_TRANSPORT ?? 'rest';
// The GraphQL documents are only fetched by consoles configured for GraphQL.
const graphqlDocuments = kind === 'graphql' ? (await import('../generated/graphql-operations.ts')).graphqlDocuments : undefined;
const transport = createTransport(kind, { ...transportOptions, graphqlDocuments });

export const services: RuntimeServices = {
  providers: createProviders(transport),
  entities,
  uploader: transport,
  forms: formLoaders,
  overrides,
  icons: manifestIcons,
  formTheme,
};
