import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';

/** Opens a public chat page in a new tab: the administrator keeps the console where it was. */
export function openInNewTab(path: string): void {
  window.open(path, '_blank', 'noopener');
}

/** Bot rows: QR (spec §2 /chat/qr/:botId) and chat (/chat/:botId). */
export const botOverrides: EntityOverrides = {
  rowActions: {
    qr: ({ row }) => openInNewTab(`/chat/qr/${encodeURIComponent(String(row._id))}`),
    chat: ({ row }) => openInNewTab(`/chat/${encodeURIComponent(String(row._id))}`),
  },
};
