import { ALL_PERMISSIONS, type RequestContext } from '../http/request-context.ts';

const SYSTEM_CONTEXT: RequestContext = Object.freeze({
  userId: null,
  tenantId: null,
  permissions: Object.freeze([ALL_PERMISSIONS]),
  system: true,
});

/**
 * The privileged local API's caller: features and seeds acting on their own behalf (seeding,
 * registration, Google sign-up, a store reading its records). It bypasses the access rules on
 * purpose, so every use is visible in code as `system()`: every tenant, every permission, no
 * access-rule hook refuses it, and its writes may set read-only fields (a seeded role's
 * `readonly`). Never derive it from a request: a request's context comes from its credentials.
 */
export function system(): RequestContext {
  return SYSTEM_CONTEXT;
}

/**
 * system() confined to one tenant (null: records without a tenant): a feature acting for a
 * tenant's records without a user, e.g. the chat writing a visitor's contact and traces into the
 * bot's tenant. Same privileges as system(), but its creates land in `tenantId` and its reads
 * stay there.
 */
export function systemIn(tenantId: string | null): RequestContext {
  return Object.freeze({ ...SYSTEM_CONTEXT, tenantId });
}

/** True only for system(): a request's context never carries the marker. */
export function isSystemContext(context: RequestContext): boolean {
  return context.system === true;
}
