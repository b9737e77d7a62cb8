import { lazy, type ComponentType } from 'react';
import { permissionsGranting } from '../../contract/permissions/entity-access.ts';
import { entityAccess } from '../generated/entity-access.ts';

/** A hand-written screen of the console (docs/product-rules.md#screens): where it lives and who may open it. */
export interface FeatureRoute {
  path: string;
  /** Route-level code splitting: each screen is its own chunk (React.lazy), but for the sign-in page. */
  component: ComponentType;
  layout: 'default' | 'chat';
  /** false: public (chat, login, recovery...). */
  auth: boolean;
  /** Any one of these is needed besides being signed in; null: none. */
  permissions: readonly string[] | null;
}

/**
 * The console's hand-written routes, beside the generated /crud/* ones. An explicit list: a
 * feature adds its screens here (knowledge search, chat, QR, identity screens, settings).
 */
export const featureRoutes: FeatureRoute[] = [
  { path: '/chat/qr/:botId', component: lazy(() => import('../chat/chat-qr-page.tsx')), layout: 'chat', auth: false, permissions: null },
  { path: '/chat/:botId/:conversationId?', component: lazy(() => import('../chat/chat-page.tsx')), layout: 'chat', auth: false, permissions: null },
  // The same rules as the API behind each screen: analytics reads traces, the search reads a knowledge base.
  { path: '/analytics', component: lazy(() => import('../chat/analytics/bot-analytics-page.tsx')), layout: 'default', auth: true, permissions: permissionsGranting(entityAccess.bottrace.permissions, 'view') },
  { path: '/knowledge/:id', component: lazy(() => import('../knowledge/knowledge-page.tsx')), layout: 'default', auth: true, permissions: permissionsGranting(entityAccess.knowledge.permissions, 'view') },
  // Every signed-in user has jobs of their own; the server filters what each one sees.
  { path: '/jobs', component: lazy(() => import('../jobs/jobs-page.tsx')), layout: 'default', auth: true, permissions: null },
  // Only under `npm run dev` or SCHEMA_STUDIO=true does the API behind it exist (the page says so otherwise).
  { path: '/studio', component: lazy(() => import('../studio/studio-page.tsx')), layout: 'default', auth: true, permissions: ['schema:manage'] },
];
