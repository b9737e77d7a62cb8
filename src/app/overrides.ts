import type { OverrideRegistry } from '../../runtime/overrides/override-registry.ts';
import { knowledgeOverrides } from '../overrides/knowledge/knowledge-overrides.ts';
import { KnowledgeSourceForm } from '../overrides/knowledgesource/knowledge-source-form.tsx';

/**
 * App overrides by entity name (page, form, row action handlers, field widgets). Empty for now:
 * the console issue registers the user form, bot QR/chat, knowledge train/clear/search here.
 */
export const overrides: OverrideRegistry = {
  knowledge: knowledgeOverrides,
  knowledgesource: { form: KnowledgeSourceForm },
};
