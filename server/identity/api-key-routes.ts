import type { EntityService } from '../entities/entity-service.ts';
import { generateApiKeySecret, hashApiKeySecret } from './api-key-secret.ts';

/**
 * API keys ride on the generic userApiKey routes (listing, scoping by owner, validation of the
 * ipv4/ipv6 lists); what is special is the secret. A create hook generates it, stores only its
 * keyed hash in the `secret` column (a secret field: never selected by reads or exports) in the
 * same INSERT as the record, with who created it, and adds the secret in clear to that one
 * response (REST and GraphQL alike). It cannot be read again.
 */
export function registerApiKeySecrets(deps: { service: EntityService; pepper: string }): void {
  const { service, pepper } = deps;
  service.addHooks('userApiKey', {
    beforeInsert({ context, values, reply }) {
      const secret = generateApiKeySecret();
      values.secret = hashApiKeySecret(secret, pepper);
      values.createdBy = context.userId;
      reply.secret = secret;
    },
  });
}
