import type { OverrideRegistry } from '../../runtime/overrides/override-registry.ts';
import { botOverrides } from '../overrides/bot/bot-overrides.ts';
import { bottraceOverrides } from '../overrides/bottrace/bottrace-overrides.ts';
import { conversationOverrides } from '../overrides/conversation/conversation-overrides.ts';
import { knowledgeOverrides } from '../overrides/knowledge/knowledge-overrides.ts';
import { KnowledgeSourceForm } from '../overrides/knowledgesource/knowledge-source-form.tsx';
import { userOverrides } from '../overrides/user/user-overrides.ts';
import { roleOverrides } from '../overrides/role/role-overrides.ts';
import { userApiKeyOverrides } from '../overrides/userApiKey/user-api-key-overrides.ts';

/**
 * App overrides by entity name (page, form, row action handlers, field widgets). Empty for now:
 * the console issue registers the user form, bot QR/chat, knowledge train/clear/search here.
 */
export const overrides: OverrideRegistry = {
  bot: botOverrides,
  conversation: conversationOverrides,
  bottrace: bottraceOverrides,
  knowledge: knowledgeOverrides,
  knowledgesource: { form: KnowledgeSourceForm },
  user: userOverrides,
  role: roleOverrides,
  userApiKey: userApiKeyOverrides,
};
