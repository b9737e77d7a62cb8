import { isApiError } from '../transport/api-error.ts';
import type { CrudOperation } from './crud-dialog-state.ts';
import type { EntityRecord } from '../crud/prepare-record.ts';

export const SUCCESS_KEYS = { created: 'crud.success.created', updated: 'crud.success.updated', deleted: 'crud.success.deleted' } as const;
const GENERIC_KEYS = new Set(['error.client', 'error.unknown']);
const FAILURE_KEYS = { create: 'crud.failure.create', edit: 'crud.failure.update', delete: 'crud.failure.delete' } as const;

/**
 * The i18n keys of a success message, most specific first: "Bot creado" reads better than a generic
 * "Entity created", and each entity's locale entry gets the grammatical gender right. Entities
 * without their own entry (an app-added one) keep the generic text.
 */
export function successMessageKeys(entity: string, key: string): string[] {
  const match = /^crud\.success\.(created|updated|deleted)$/.exec(key);
  return match ? [`entity.${entity}.success.${match[1]}`, key] : [key];
}

/** What a failed write shows in the dialog (docs/product-rules.md#errors). */
export interface CrudFailure {
  error: string;
  errorParams: Record<string, unknown>;
  fieldErrors: Record<string, string[]>;
}

/**
 * The dialog's message for a failed write: the server's message wins; generic keys mean the server
 * gave none, so the operation's own fallback says more. Per-field errors go to their fields.
 */
export function crudFailure(operation: Exclude<CrudOperation, 'view'>, error: unknown): CrudFailure {
  const serverMessage = isApiError(error) && !GENERIC_KEYS.has(error.message) ? error.message : null;
  return {
    error: serverMessage ?? FAILURE_KEYS[operation],
    errorParams: serverMessage && isApiError(error) ? error.params : {},
    fieldErrors: isApiError(error) ? error.inputErrors : {},
  };
}

/** The server owns identifiers and timestamps; sending them back would be rejected. */
export function withoutSystemFields(data: EntityRecord): EntityRecord {
  const { _id: _ignoredId, id: _ignoredAltId, createdAt: _c, updatedAt: _u, __v: _v, ...rest } = data;
  return rest;
}
