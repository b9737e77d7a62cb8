import { useCallback, useReducer } from 'react';
import type { AnyEntityClient } from '../context/runtime-context.tsx';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import { recordId, type EntityRecord } from '../crud/prepare-record.ts';
import { crudDialogReducer, initialCrudDialogState, type CrudOperation, type CrudResult } from './crud-dialog-state.ts';
import { SUCCESS_KEYS, crudFailure } from './crud-outcome.ts';
import { useCreateController } from './use-create-controller.ts';
import { useDeleteController } from './use-delete-controller.ts';
import { useEditController } from './use-edit-controller.ts';

export interface CrudDialogControllerOptions {
  model: ClientEntityModel;
  entityClient: AnyEntityClient;
  /** Shows a success message; receives an i18n key (successMessageKeys makes it the entity's own). */
  notifySuccess: (messageKey: string) => void;
  /** Reports every outcome (created, updated, deleted, viewed, canceled). */
  onResult?: (result: CrudResult) => void;
  log?: Pick<Console, 'error'>;
}

/**
 * The CRUD dialog of docs/product-rules.md#states without its UI: which operation is open on
 * which record, and submit, which validates, runs the create, edit or delete mutation, closes and
 * notifies; on failure it keeps the dialog open with the server's message (or the operation's
 * fallback) and its per-field errors. The Mantine dialog renders `state` and calls the rest.
 */
export function useCrudDialogController({ model, entityClient, notifySuccess, onResult, log = console }: CrudDialogControllerOptions) {
  const [state, dispatch] = useReducer(crudDialogReducer, initialCrudDialogState);
  const create = useCreateController({ entity: model.name, entityClient }).mutateAsync;
  const edit = useEditController({ entity: model.name, entityClient }).mutateAsync;
  const remove = useDeleteController({ entity: model.name, entityClient }).mutateAsync;

  const open = useCallback((operation: CrudOperation, row?: EntityRecord | null) => dispatch({ type: 'open', operation, row, model }), [model]);

  /** `validate` is asked only for create and edit (the form's own check, with its messages shown). */
  const submit = useCallback(
    async (data: EntityRecord, validate: () => boolean): Promise<CrudResult | null> => {
      const { operation } = state;
      if (!operation) return null;
      if (operation === 'view') {
        dispatch({ type: 'submitSucceeded', result: 'viewed' });
        onResult?.('viewed');
        return 'viewed';
      }
      if ((operation === 'create' || operation === 'edit') && !validate()) {
        log.error('Invalid form');
        return null;
      }
      dispatch({ type: 'submitStarted' });
      try {
        let result: keyof typeof SUCCESS_KEYS;
        if (operation === 'create') {
          await create(data);
          result = 'created';
        } else {
          const id = recordId(state.record);
          if (!id) throw new Error(`Cannot ${operation} a record without an identifier`);
          if (operation === 'edit') {
            await edit({ id, data });
            result = 'updated';
          } else {
            await remove({ id });
            result = 'deleted';
          }
        }
        dispatch({ type: 'submitSucceeded', result });
        notifySuccess(SUCCESS_KEYS[result]);
        onResult?.(result);
        return result;
      } catch (error) {
        log.error(error);
        dispatch({ type: 'submitFailed', ...crudFailure(operation, error) });
        return null;
      }
    },
    [state, create, edit, remove, notifySuccess, onResult, log],
  );

  const cancel = useCallback(() => {
    dispatch({ type: 'close' });
    onResult?.('canceled');
  }, [onResult]);

  return { state, open, submit, cancel };
}
