import type { OverrideRegistry } from '../../runtime/overrides/override-registry.ts';
import { botOverrides } from '../overrides/bot/bot-overrides.ts';
import { bottraceOverrides } from '../overrides/bottrace/bottrace-overrides.ts';
import { contactOverrides } from '../overrides/contact/contact-overrides.ts';
import { conversationOverrides } from '../overrides/conversation/conversation-overrides.ts';
import { knowledgeOverrides } from '../overrides/knowledge/knowledge-overrides.ts';
import { lazyWithPreload } from '../../runtime/lazy/lazy-with-preload.ts';
import { userOverrides } from '../overrides/user/user-overrides.ts';
import { roleOverrides } from '../overrides/role/role-overrides.ts';
import { userApiKeyOverrides } from '../overrides/userApiKey/user-api-key-overrides.ts';

/**
 * App overrides by entity name (page, form, row action handlers, field widgets). Pages and forms
 * are lazy: this registry is in the entry chunk, and a static import would put every override
 * screen (and the RJSF form they build on) on every route.
 */
export const overrides: OverrideRegistry = {
  bot: botOverrides,
  contact: contactOverrides,
  conversation: conversationOverrides,
  bottrace: bottraceOverrides,
  knowledge: knowledgeOverrides,
  knowledgesource: { form: lazyWithPreload(() => import('../overrides/knowledgesource/knowledge-source-form.tsx').then((module) => module.KnowledgeSourceForm)) },
  user: userOverrides,
  role: roleOverrides,
  userApiKey: userApiKeyOverrides,
};
