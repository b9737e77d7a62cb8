import type { AnyEntityProvider } from '../context/runtime-context.tsx';
import { isApiError } from '../transport/api-error.ts';
import type { CrudDialogAction, CrudDialogState, CrudResult } from './crud-dialog-state.ts';
import { recordId, type EntityRecord } from './prepare-record.ts';

export interface CrudControllerDeps {
  provider: AnyEntityProvider;
  dispatch: (action: CrudDialogAction) => void;
  /** Re-fetches the list after a change. */
  reload: () => void;
  /** Shows a success notification; receives an i18n key. */
  notifySuccess: (messageKey: string) => void;
  /** Reports every outcome (created, updated, deleted, viewed, canceled). */
  onResult?: (result: CrudResult) => void;
  /** True when the form data passes validation; only asked for create and edit. */
  validate: (data: EntityRecord) => boolean;
  log?: Pick<Console, 'error' | 'warn'>;
}

const SUCCESS_KEYS = { created: 'crud.success.created', updated: 'crud.success.updated', deleted: 'crud.success.deleted' } as const;
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

/**
 * The side effects of the CRUD dialog (docs/product-rules.md#states), kept out of React so they are unit-testable:
 * validate, call the provider, reload, close, notify; on failure keep the dialog open with the
 * server's message (or the operation's fallback) and its per-field errors.
 */
export async function submitCrudDialog(state: CrudDialogState, data: EntityRecord, deps: CrudControllerDeps): Promise<CrudResult | null> {
  const { operation } = state;
  const log = deps.log ?? console;
  if (!operation) return null;
  if (operation === 'view') {
    deps.dispatch({ type: 'submitSucceeded', result: 'viewed' });
    deps.onResult?.('viewed');
    return 'viewed';
  }
  if ((operation === 'create' || operation === 'edit') && !deps.validate(data)) {
    log.error('Invalid form');
    return null;
  }
  deps.dispatch({ type: 'submitStarted' });
  try {
    let result: CrudResult;
    if (operation === 'create') {
      await deps.provider.create({ data: stripSystemFields(data) });
      result = 'created';
    } else {
      const id = recordId(state.record);
      if (!id) throw new Error(`Cannot ${operation} a record without an identifier`);
      if (operation === 'edit') {
        await deps.provider.update({ id, data: stripSystemFields(data) });
        result = 'updated';
      } else {
        await deps.provider.delete({ id });
        result = 'deleted';
      }
    }
    deps.reload();
    deps.dispatch({ type: 'submitSucceeded', result });
    deps.notifySuccess(SUCCESS_KEYS[result as keyof typeof SUCCESS_KEYS]);
    deps.onResult?.(result);
    return result;
  } catch (error) {
    log.error(error);
    // The server's message wins; generic keys mean the server gave none, so the fallback says more.
    const serverMessage = isApiError(error) && !GENERIC_KEYS.has(error.message) ? error.message : null;
    deps.dispatch({
      type: 'submitFailed',
      error: serverMessage ?? FAILURE_KEYS[operation],
      errorParams: serverMessage && isApiError(error) ? error.params : {},
      fieldErrors: isApiError(error) ? error.inputErrors : {},
    });
    return null;
  }
}

export function cancelCrudDialog(deps: Pick<CrudControllerDeps, 'dispatch' | 'onResult'>): void {
  deps.dispatch({ type: 'close' });
  deps.onResult?.('canceled');
}

/** The server owns identifiers and timestamps; sending them back would be rejected. */
function stripSystemFields(data: EntityRecord): EntityRecord {
  const { _id: _ignoredId, id: _ignoredAltId, createdAt: _c, updatedAt: _u, __v: _v, ...rest } = data;
  return rest;
}
