import { badRequest, validationError, type InputError } from '../http/http-error.ts';
import { REACTIONS, type Reaction } from './chat-types.ts';

/**
 * The contact form's rules (docs/product-rules.md#validation, Chat contact), with the locale keys whose Spanish
 * texts are the messages docs/product-rules.md#validation gives. The console checks the same rules before it lets the visitor submit.
 */
export const CHAT_VALIDATION = {
  nameRequired: 'chat.validation.nameRequired',
  nameMin: 'chat.validation.nameMin',
  emailRequired: 'chat.validation.emailRequired',
  emailInvalid: 'chat.validation.emailInvalid',
} as const;

export const CONTACT_NAME_MIN = 2;
const CONTACT_NAME_MAX = 120;
const EMAIL_MAX = 254;
/** The same pragmatic shape as the console's check: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface StartInput {
  name: string;
  email: string;
  botId: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Trimmed name and email, the email lower-cased (contacts are reused by email). */
export function parseStartInput(body: unknown): StartInput {
  if (!isObject(body)) throw badRequest('The request body must be a JSON object');
  const errors: InputError[] = [];
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  const botId = typeof body.botId === 'string' ? body.botId.trim() : '';
  if (name === '') errors.push({ field: 'name', reason: CHAT_VALIDATION.nameRequired });
  else if ([...name].length < CONTACT_NAME_MIN) errors.push({ field: 'name', reason: CHAT_VALIDATION.nameMin });
  else if (name.length > CONTACT_NAME_MAX) errors.push({ field: 'name', reason: 'validation.maxLength' });
  if (email === '') errors.push({ field: 'email', reason: CHAT_VALIDATION.emailRequired });
  else if (email.length > EMAIL_MAX || !EMAIL_PATTERN.test(email)) errors.push({ field: 'email', reason: CHAT_VALIDATION.emailInvalid });
  if (botId === '') errors.push({ field: 'botId', reason: 'validation.required' });
  if (errors.length > 0) throw validationError(errors);
  return { name, email, botId };
}

/** The visitor's message: non-blank, at most `maxChars` characters (as typed, before trimming). */
export function parseMessageInput(body: unknown, maxChars: number): string {
  if (!isObject(body)) throw badRequest('The request body must be a JSON object');
  const message = body.message;
  if (typeof message !== 'string' || message.trim() === '') {
    throw validationError([{ field: 'message', reason: 'validation.required' }], 'The message must be a non-blank string');
  }
  if (message.length > maxChars) {
    throw validationError(
      [{ field: 'message', reason: 'validation.maxLength' }],
      `The message is too long: ${message.length} characters, at most ${maxChars} allowed`,
    );
  }
  return message.trim();
}

export interface ReactionInput {
  chatId: string;
  /** null clears the reaction. */
  reaction: Reaction | null;
}

export function parseReactionInput(body: unknown, conversationId: string): ReactionInput {
  if (!isObject(body)) throw badRequest('The request body must be a JSON object');
  const errors: InputError[] = [];
  if (body.conversationId !== undefined && body.conversationId !== conversationId) {
    errors.push({ field: 'conversationId', reason: 'validation.invalidValue' });
  }
  const chatId = typeof body.chatId === 'string' ? body.chatId : '';
  if (chatId === '') errors.push({ field: 'chatId', reason: 'validation.required' });
  const reaction = body.reaction;
  if (reaction !== null && !(typeof reaction === 'string' && (REACTIONS as readonly string[]).includes(reaction))) {
    errors.push({ field: 'reaction', reason: 'validation.invalidValue' });
  }
  if (errors.length > 0) throw validationError(errors, `Invalid reaction; expected one of ${REACTIONS.join(', ')} (or null to clear)`);
  return { chatId, reaction: reaction as Reaction | null };
}
