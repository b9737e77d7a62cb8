import type { PreviewTurn } from '../../contract/chat/preview-answer.ts';
import { entities } from '../generated/entities.ts';
import { badRequest, validationError, type InputError } from '../http/http-error.ts';
import type { ChatBot } from './chat-store.ts';

/** Earlier turns the preview takes; more would only be cut by the prompt budget anyway. */
export const PREVIEW_MAX_TURNS = 20;

/** The bot fields a preview may try unsaved (the form's current values), with their manifest limits. */
const DRAFT_FIELDS = ['systemPrompt', 'systemPromptWithKnowledge', 'fallbackMessage'] as const;

export interface PreviewInput {
  message: string;
  history: PreviewTurn[];
  /** Unsaved values from the bot form that replace the stored ones for this answer only. */
  draft: Partial<Pick<ChatBot, (typeof DRAFT_FIELDS)[number] | 'knowledgeId'>>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function maxLength(field: string): number {
  const limit = entities.bot?.fields.find((f) => f.name === field)?.validation.maxLength;
  if (typeof limit !== 'number') throw new Error(`manifests/bot.json: field "${field}" needs validation.maxLength (the chat preview bounds its draft by it)`);
  return limit;
}

/** The body's size bound: every part at its limit, 4 bytes a character, JSON overhead included. */
export function previewBodyLimit(maxMessageChars: number): number {
  const chars = maxMessageChars * (PREVIEW_MAX_TURNS + 1) + DRAFT_FIELDS.reduce((n, field) => n + maxLength(field), 0) + 200;
  return chars * 4 + 16 * 1024;
}

/**
 * { message, history?: [{ role, message }], draft?: { systemPrompt?, systemPromptWithKnowledge?,
 * fallbackMessage?, knowledge? } }: every error names its field (history.3.message, draft.systemPrompt).
 */
export function parsePreviewInput(body: unknown, maxMessageChars: number): PreviewInput {
  if (!isObject(body)) throw badRequest('The request body must be a JSON object: { message, history?, draft? }');
  const errors: InputError[] = [];
  const text = (value: unknown, field: string, max: number, allowBlank: boolean): string | null => {
    if (typeof value !== 'string' || (!allowBlank && value.trim() === '')) {
      errors.push({ field, reason: 'validation.required' });
      return null;
    }
    if (value.length > max) {
      errors.push({ field, reason: 'validation.maxLength' });
      return null;
    }
    return value;
  };

  const message = text(body.message, 'message', maxMessageChars, false);

  const history: PreviewTurn[] = [];
  if (body.history !== undefined && body.history !== null) {
    if (!Array.isArray(body.history)) errors.push({ field: 'history', reason: 'validation.invalidValue' });
    else if (body.history.length > PREVIEW_MAX_TURNS) errors.push({ field: 'history', reason: 'validation.maxItems' });
    else {
      body.history.forEach((turn, i) => {
        if (!isObject(turn) || (turn.role !== 'user' && turn.role !== 'assistant')) {
          errors.push({ field: `history.${i}.role`, reason: 'validation.invalidValue' });
          return;
        }
        const said = text(turn.message, `history.${i}.message`, maxMessageChars, false);
        if (said !== null) history.push({ role: turn.role, message: said });
      });
    }
  }

  const draft: PreviewInput['draft'] = {};
  if (body.draft !== undefined && body.draft !== null) {
    if (!isObject(body.draft)) errors.push({ field: 'draft', reason: 'validation.invalidValue' });
    else {
      for (const field of DRAFT_FIELDS) {
        if (body.draft[field] === undefined || body.draft[field] === null) continue;
        const value = text(body.draft[field], `draft.${field}`, maxLength(field), field === 'fallbackMessage');
        if (value !== null) draft[field] = value;
      }
      const knowledge = body.draft.knowledge;
      if (knowledge === null || knowledge === '') draft.knowledgeId = null;
      else if (typeof knowledge === 'string' && knowledge.length <= 100) draft.knowledgeId = knowledge;
      else if (knowledge !== undefined) errors.push({ field: 'draft.knowledge', reason: 'validation.invalidValue' });
    }
  }

  if (errors.length > 0 || message === null) {
    throw validationError(errors, `Invalid preview request (${errors.map((e) => e.field).join(', ')}): message is a non-blank string of at most ${maxMessageChars} characters, history at most ${PREVIEW_MAX_TURNS} { role: user|assistant, message } turns, draft only the bot's prompt fields and knowledge`);
  }
  return { message: message.trim(), history, draft };
}
