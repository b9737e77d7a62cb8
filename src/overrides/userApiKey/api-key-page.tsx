import { useMemo, useState } from 'react';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import { RuntimeContext, requireEntityClient, useRuntime, type AnyEntityClient } from '../../../runtime/context/runtime-context.tsx';
import type { CrudPageProps } from '../../../runtime/overrides/override-registry.ts';
import { ApiKeySecretDialog } from './api-key-secret-dialog.tsx';

/** The create response carries the secret once (docs/product-rules.md#entities UserApiKey). */
export function secretOf(created: unknown): string | null {
  if (!created || typeof created !== 'object') return null;
  const secret = (created as Record<string, unknown>).secret;
  return typeof secret === 'string' && secret !== '' ? secret : null;
}

/**
 * docs/product-rules.md#states "After creating an API key": the generic page, with its entity client's create wrapped so the
 * one-time secret from the response opens a persistent dialog.
 */
export function ApiKeyPage({ model }: CrudPageProps) {
  const services = useRuntime();
  const [secret, setSecret] = useState<string | null>(null);
  const servicesShowingSecret = useMemo(() => {
    const entityClient = requireEntityClient(services, model.name);
    const wrapped: AnyEntityClient = Object.create(entityClient) as AnyEntityClient;
    wrapped.create = async (params) => {
      const created = await entityClient.create(params);
      const value = secretOf(created);
      if (value) setSecret(value);
      return created;
    };
    return { ...services, entityClients: { ...services.entityClients, [model.name]: wrapped } };
  }, [services, model.name]);
  return (
    <RuntimeContext value={servicesShowingSecret}>
      <CrudPage model={model} />
      <ApiKeySecretDialog secret={secret} onClose={() => setSecret(null)} />
    </RuntimeContext>
  );
}
