import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A hand-written screen of the console (spec §2): where it lives and who may open it. */
export interface FeatureRoute {
  path: string;
  /** Route-level code splitting: each screen is its own chunk. */
  component: LazyExoticComponent<ComponentType>;
  layout: 'default' | 'chat';
  /** false: public (chat, login, recovery...). */
  auth: boolean;
  /** Permission needed besides being signed in; null: none. */
  permission: string | null;
}

/**
 * The console's hand-written routes, beside the generated /crud/* ones. An explicit list: a
 * feature adds its screens here (knowledge search, chat, QR, identity screens, settings).
 */
export const featureRoutes: FeatureRoute[] = [
  { path: '/chat/qr/:botId', component: lazy(() => import('../chat/chat-qr-page.tsx')), layout: 'chat', auth: false, permission: null },
  { path: '/chat/:botId/:conversationId?', component: lazy(() => import('../chat/chat-page.tsx')), layout: 'chat', auth: false, permission: null },
  { path: '/analytics', component: lazy(() => import('../chat/analytics/bot-analytics-page.tsx')), layout: 'default', auth: true, permission: 'bottrace:manage' },
  { path: '/knowledge/:id', component: lazy(() => import('../knowledge/knowledge-search-page.tsx')), layout: 'default', auth: true, permission: 'knowledge:manage' },
];
