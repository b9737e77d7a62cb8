import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';
import { BotAnalyticsAction } from './bot-analytics-action.tsx';

/** Opens a public chat page in a new tab: the administrator keeps the console where it was. */
export function openInNewTab(path: string): void {
  window.open(path, '_blank', 'noopener');
}

/** Bot rows: QR (docs/product-rules.md#screens /chat/qr/:botId), chat (/chat/:botId) and the bot's analytics. */
export const botOverrides: EntityOverrides = {
  // Lazy like every override form: the registry is in the entry chunk (src/app/overrides.ts).
  form: lazyWithPreload(() => import('./bot-form.tsx').then((module) => module.BotForm)),
  rowActions: {
    qr: ({ row }) => openInNewTab(`/chat/qr/${encodeURIComponent(String(row._id))}`),
    chat: ({ row }) => openInNewTab(`/chat/${encodeURIComponent(String(row._id))}`),
    analytics: { component: BotAnalyticsAction },
  },
};
