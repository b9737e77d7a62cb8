import { useMemo } from 'react';
import { EntityForm, type EntityFormProps } from '../../../runtime/form/entity-form.tsx';
import { withoutFields } from '../without-fields.ts';

/** Never readable: the secret is shown once, in its own dialog, after create (api-key-secret-dialog.tsx). */
const ALWAYS_HIDDEN = ['secret'];
/** Set by the server on create (the owner and who created it): nothing to choose yet. */
const SERVER_SET = ['user', 'createdBy'];

/**
 * The API-key dialog: the generic form without the "Secreto" field that was always empty and
 * disabled, and, on create, without the owner pickers the server fills in (issue 27).
 */
export function ApiKeyForm(props: EntityFormProps) {
  const hidden = props.operation === 'create' ? [...ALWAYS_HIDDEN, ...SERVER_SET] : ALWAYS_HIDDEN;
  const schemas = useMemo(() => withoutFields(props.schemas, hidden), [props.schemas, hidden.length]);
  return <EntityForm {...props} schemas={schemas} />;
}
