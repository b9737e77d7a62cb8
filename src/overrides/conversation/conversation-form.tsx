import { EntityForm, type EntityFormProps } from '../../../runtime/form/entity-form.tsx';
import { ConversationTranscript } from './conversation-transcript.tsx';

/**
 * The conversation dialog: viewing (and confirming a delete) shows the transcript instead of a form
 * of ids; conversations are never created or edited in the console (docs/product-rules.md#entities), so nothing else is.
 */
export function ConversationForm(props: EntityFormProps) {
  if (props.operation === 'view' || props.operation === 'delete') return <ConversationTranscript {...props} />;
  return <EntityForm {...props} />;
}
