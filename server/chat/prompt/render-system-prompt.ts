import botManifest from '../../../manifests/bot.json' with { type: 'json' };
import type { LlmFragment } from '../../llm/llm-provider.ts';
import { formatDocuments } from './format-documents.ts';
import { renderPromptTemplate } from './render-prompt-template.ts';

export interface PromptBot {
  name: string;
  description?: string | null;
  systemPrompt?: string | null;
  systemPromptWithKnowledge?: string | null;
}

type TemplateField = 'systemPrompt' | 'systemPromptWithKnowledge';

/** The manifest's defaults stand in for a blank stored template (an import, an old row). */
function manifestDefault(field: TemplateField): string {
  const value = botManifest.fields.find((f) => f.name === field)?.default;
  if (typeof value !== 'string' || !value) throw new Error(`manifests/bot.json has no default for ${field}`);
  return value;
}

export const DEFAULT_SYSTEM_PROMPT = manifestDefault('systemPrompt');
export const DEFAULT_SYSTEM_PROMPT_WITH_KNOWLEDGE = manifestDefault('systemPromptWithKnowledge');

/**
 * The bot's system prompt: the knowledge-aware template when the bot has a trained knowledge base
 * (even if this question retrieved nothing: the template then tells the model to say it has no
 * information), else the general one.
 */
export function renderSystemPrompt(bot: PromptBot, hasKnowledge: boolean, fragments: readonly LlmFragment[]): string {
  const template = hasKnowledge
    ? bot.systemPromptWithKnowledge?.trim() || DEFAULT_SYSTEM_PROMPT_WITH_KNOWLEDGE
    : bot.systemPrompt?.trim() || DEFAULT_SYSTEM_PROMPT;
  const rendered = renderPromptTemplate(template, {
    botName: bot.name.trim(),
    botDescription: bot.description?.trim() ?? '',
    documents: hasKnowledge ? formatDocuments(fragments) : '',
  });
  // An empty description leaves "soporte. " dangling; trailing blanks are noise to a model.
  return rendered.replace(/[ \t]+$/gm, '');
}
