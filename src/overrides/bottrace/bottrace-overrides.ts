import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { BotTraceForm } from './bottrace-form.tsx';

/** Bot traces: the view shows the retrieved fragments readably (bottrace-form.tsx). */
export const bottraceOverrides: EntityOverrides = {
  form: BotTraceForm,
};
