import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import type { EntityService } from '../entities/entity-service.ts';
import { entities } from '../generated/entities.ts';
import { generateApiKeySecret, hashApiKeySecret } from './api-key-secret.ts';

const API_KEYS = entities.userApiKey.storage.table;
const CREATE_URL = entities.userApiKey.api.basePath;

/**
 * API keys ride on the generic userApiKey routes (listing, scoping by owner, validation of the
 * ipv4/ipv6 lists); what is special is the secret. After the generic create has stored the
 * record (owner = caller), this hook generates the secret, stores only its keyed hash in the
 * `secret` column (a secret field: never selected by reads or exports) and adds the secret in
 * clear to that one response. It cannot be read again.
 */
export function registerApiKeySecrets(app: FastifyInstance, deps: { database: Database; service: EntityService; pepper: string }): void {
  const { database, service, pepper } = deps;
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (request.method !== 'POST' || request.routeOptions.url !== CREATE_URL || reply.statusCode !== 201) return payload;
    const record = payload as { _id?: unknown };
    if (typeof record?._id !== 'string') return payload;
    const secret = generateApiKeySecret();
    await database.run(
      database.kysely
        .updateTable(API_KEYS)
        .set({ secret: hashApiKeySecret(secret, pepper), createdBy: request.context.userId })
        .where('_id', '=', record._id)
        .compile(),
    );
    return { ...(await service.findById('userApiKey', request.context, record._id)), secret };
  });
}
