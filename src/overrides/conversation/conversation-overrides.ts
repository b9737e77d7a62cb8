import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';
import { openInNewTab } from '../bot/bot-overrides.ts';

function refId(value: unknown): string {
  if (value && typeof value === 'object') return String((value as { _id?: unknown })._id ?? '');
  return typeof value === 'string' ? value : '';
}

/** Conversation rows: chat resumes that conversation (/chat/:botId/:conversationId); "Ver" shows the transcript. */
export const conversationOverrides: EntityOverrides = {
  form: lazyWithPreload(() => import('./conversation-form.tsx').then((module) => module.ConversationForm)),
  rowActions: {
    chat: ({ row }) => openInNewTab(`/chat/${encodeURIComponent(refId(row.bot))}/${encodeURIComponent(String(row._id))}`),
  },
};
