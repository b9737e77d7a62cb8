import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';
import { ConversationLinkWidget, LatencySecondsWidget } from './trace-widgets.tsx';

/**
 * Bot traces are an audit record: the console only reads them (no create, import, edit or delete),
 * and the view shows the retrieved fragments readably (bottrace-form.tsx). The API keeps the
 * manifest's bottrace:create/update/delete permissions; the chat writes traces server-side.
 */
export const bottraceOverrides: EntityOverrides = {
  readOnly: true,
  form: lazyWithPreload(() => import('./bottrace-form.tsx').then((module) => module.BotTraceForm)),
  // Latency in seconds as labelled, the conversation as a link to it, not a raw id (issue 27).
  fieldWidgets: { latency: LatencySecondsWidget, conversation: ConversationLinkWidget },
};
