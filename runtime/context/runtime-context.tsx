import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { EntityProvider } from '../providers/entity-provider.ts';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import type { FileUploader } from '../transport/rest-transport.ts';
import type { OverrideRegistry } from '../overrides/override-registry.ts';
import type { FormSchemas } from '../form/prepare-form-schemas.ts';
import type { FormTheme } from '../form/form-theme.ts';

export type AnyEntityProvider = EntityProvider<Record<string, unknown>, Record<string, unknown>>;

/** What the generic runtime needs from the app: data access, models for refs, overrides. */
export interface RuntimeServices {
  /** Keyed by entity name (src/generated/providers.ts createProviders()). */
  providers: Readonly<Record<string, unknown>>;
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

const RuntimeContext = createContext<RuntimeServices | null>(null);

export function RuntimeProvider({ services, children }: { services: RuntimeServices; children: ReactNode }) {
  return <RuntimeContext.Provider value={services}>{children}</RuntimeContext.Provider>;
}

export function useRuntime(): RuntimeServices {
  const services = useContext(RuntimeContext);
  if (!services) throw new Error('Forja runtime used outside <RuntimeProvider>');
  return services;
}

/** The services when inside <RuntimeProvider>, else null (a form rendered on its own, as the studio's preview). */
export function useOptionalRuntime(): RuntimeServices | null {
  return useContext(RuntimeContext);
}

/** Fails loudly: a model naming an entity without a provider is a wiring bug, not a runtime state. */
export function requireProvider(services: Pick<RuntimeServices, 'providers'>, entity: string): AnyEntityProvider {
  const provider = services.providers[entity];
  if (!provider) throw new Error(`Provider for entity "${entity}" not found`);
  return provider as AnyEntityProvider;
}

export function useEntityProvider(entity: string): AnyEntityProvider {
  return requireProvider(useRuntime(), entity);
}
