import type { ClientEntityModel } from '../model/client-entity-model.ts';
import { prepareRecord, type EntityRecord } from '../crud/prepare-record.ts';

export type CrudOperation = 'view' | 'create' | 'edit' | 'delete';
export type CrudResult = 'created' | 'updated' | 'deleted' | 'viewed' | 'canceled';

/** The dialog of docs/product-rules.md#states "CRUD dialog operation" as data; the reducer below is its only writer. */
export interface CrudDialogState {
  operation: CrudOperation | null;
  /** The copy being viewed or edited (docs/product-rules.md#states: dates as Date, refs as ids). */
  record: EntityRecord | null;
  loading: boolean;
  /** General error: an i18n key or the server's message. */
  error: string | null;
  /** Values for the error key's placeholders (a 409's {count}). */
  errorParams: Record<string, unknown>;
  /** Server input errors by field path. */
  fieldErrors: Record<string, string[]>;
  /** The last finished operation's outcome. */
  result: CrudResult | null;
}

export type CrudDialogAction =
  | { type: 'open'; operation: CrudOperation; row?: EntityRecord | null; model: ClientEntityModel }
  | { type: 'submitStarted' }
  | { type: 'submitSucceeded'; result: CrudResult }
  | { type: 'submitFailed'; error: string; errorParams?: Record<string, unknown>; fieldErrors: Record<string, string[]> }
  | { type: 'close' };

export const initialCrudDialogState: CrudDialogState = {
  operation: null,
  record: null,
  loading: false,
  error: null,
  errorParams: {},
  fieldErrors: {},
  result: null,
};

export function crudDialogReducer(state: CrudDialogState, action: CrudDialogAction): CrudDialogState {
  switch (action.type) {
    case 'open':
      return {
        operation: action.operation,
        record: action.operation === 'create' || !action.row ? {} : prepareRecord(action.model, action.row),
        loading: false,
        error: null,
        errorParams: {},
        fieldErrors: {},
        result: null,
      };
    case 'submitStarted':
      return { ...state, loading: true, error: null, errorParams: {}, fieldErrors: {} };
    case 'submitSucceeded':
      return { ...initialCrudDialogState, result: action.result };
    case 'submitFailed':
      // The dialog stays open so the user can correct and retry.
      return { ...state, loading: false, error: action.error, errorParams: action.errorParams ?? {}, fieldErrors: action.fieldErrors };
    case 'close':
      return { ...initialCrudDialogState, result: 'canceled' };
    default:
      return state;
  }
}

/** View and delete show the record without letting it change. */
export function isReadOnlyOperation(operation: CrudOperation | null): boolean {
  return operation === 'view' || operation === 'delete';
}
