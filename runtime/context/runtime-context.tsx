import { createContext, useContext, type ComponentType } from 'react';
import type { EntityClient } from '../clients/entity-client.ts';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import type { FileUploader } from '../transport/rest-transport.ts';
import type { OverrideRegistry } from '../overrides/override-registry.ts';
import type { FormSchemas } from '../form/prepare-form-schemas.ts';
import type { FormTheme } from '../form/form-theme.ts';

export type AnyEntityClient = EntityClient<Record<string, unknown>, Record<string, unknown>>;

/** What the generic runtime needs from the app: data access, models for refs, overrides. */
export interface RuntimeServices {
  /** Keyed by entity name (src/generated/entity-clients.ts createEntityClients()). */
  entityClients: Readonly<Record<string, unknown>>;
  /** Keyed by entity name, used to resolve ref fields' entities. */
  entities: Readonly<Record<string, ClientEntityModel>>;
  uploader: FileUploader;
  /** Lazy loaders of each entity's form JSON Schema, UI schema and precompiled validators (src/generated/forms.ts). */
  forms: Readonly<Record<string, () => Promise<FormSchemas>>>;
  overrides: OverrideRegistry;
  /** Icons the models name (row actions), by name (src/generated/icons.ts). */
  icons: Readonly<Record<string, ComponentType<{ size?: number | string }>>>;
  /** The widgets, fields and templates forms draw with (runtime/form/form-theme.ts); absent, the base theme. */
  formTheme?: FormTheme;
}

/** Rendered as `<RuntimeContext value={services}>` (React 19) around the screens that use the runtime. */
export const RuntimeContext = createContext<RuntimeServices | null>(null);

export function useRuntime(): RuntimeServices {
  const services = useContext(RuntimeContext);
  if (!services) throw new Error('Forja runtime used outside <RuntimeContext value={services}>');
  return services;
}

/** The services when inside <RuntimeContext>, else null (a form rendered on its own, as the studio's preview). */
export function useOptionalRuntime(): RuntimeServices | null {
  return useContext(RuntimeContext);
}

/** Fails loudly: a model naming an entity without an entity client is a wiring bug, not a state to handle. */
export function requireEntityClient(services: Pick<RuntimeServices, 'entityClients'>, entity: string): AnyEntityClient {
  const entityClient = services.entityClients[entity];
  if (!entityClient) throw new Error(`Entity client for entity "${entity}" not found`);
  return entityClient as AnyEntityClient;
}

export function useEntityClient(entity: string): AnyEntityClient {
  return requireEntityClient(useRuntime(), entity);
}
