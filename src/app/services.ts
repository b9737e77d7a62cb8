import { createTransport } from '../../runtime/transport/create-transport.ts';
import type { RuntimeServices } from '../../runtime/context/runtime-context.tsx';
import { createEntityClients } from '../generated/entity-clients.ts';
import { entities } from '../generated/entities.ts';
import { formLoaders } from '../generated/forms.ts';
import { transportOptions } from '../session/api-client.ts';
import { overrides } from './overrides.ts';
import { manifestIcons } from '../generated/icons.ts';
import { formTheme } from './form-theme.ts';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import { EntityClient } from '../../runtime/clients/entity-client.ts';
import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';
import type { FormSchemas } from '../../runtime/form/prepare-form-schemas.ts';

/**
 * Transport from configuration (VITE_TRANSPORT, default rest). It reads the bearer token from the
 * session store on every request and signs out on a 401.
 */
const kind = import.meta.env.VITE_TRANSPORT ?? 'rest';
// The GraphQL documents are only fetched by consoles configured for GraphQL.
const graphqlDocuments = kind === 'graphql' ? (await import('../generated/graphql-operations.ts')).graphqlDocuments : undefined;
const transport = createTransport(kind, { ...transportOptions, graphqlDocuments });

export const services: RuntimeServices = {
  entityClients: createEntityClients(transport),
  entities,
  uploader: transport,
  forms: formLoaders,
  overrides,
  icons: manifestIcons,
  formTheme,
};

/** An entity the running server serves differently from this build (src/app/live-model.ts). */
export interface LiveEntity {
  model: ClientEntityModel;
  schema: FormSchemas['schema'];
  uiSchema: FormSchemas['uiSchema'];
}

/**
 * The services with the live entities in place of (or beside) the built ones: their models,
 * entity clients and forms. Their forms have no precompiled validators (those are code, built with the
 * console): the form says so and the server checks every value, as for the studio's preview.
 */
export function servicesWith(live: Readonly<Record<string, LiveEntity>>): RuntimeServices {
  const entities: Record<string, ClientEntityModel> = { ...services.entities };
  const entityClients: Record<string, unknown> = { ...services.entityClients };
  const forms: Record<string, () => Promise<FormSchemas>> = { ...services.forms };
  for (const [name, { model, schema, uiSchema }] of Object.entries(live)) {
    entities[name] = model;
    entityClients[name] = new EntityClient(transport, model);
    forms[name] = async () => ({ schema, uiSchema, validateFns: {} as ValidatorFunctions });
  }
  return { ...services, entities, entityClients, forms };
}
