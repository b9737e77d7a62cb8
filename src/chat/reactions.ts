import type { Reaction } from '../generated/types.ts';

/** The picker's choices, in the order of docs/product-rules.md#entities (Reaction enumeration): the chat offers only these. */
export const PICKER_REACTIONS = ['Excitement', 'Love', 'Helpful', 'Unhelpful', 'Unclear', 'Disgust', 'Incorrect'] as const satisfies readonly Reaction[];

/** How each reaction shows; labels come from the enum.Reaction.* locale keys. */
export const REACTION_EMOJI: Record<Reaction, string> = {
  Excitement: '🤩',
  Perfect: '💯',
  Love: '❤️',
  Helpful: '👍',
  Unhelpful: '👎',
  Unclear: '🤔',
  Incomplete: '🧩',
  Incorrect: '❌',
  Disgust: '🤢',
  Crap: '💩',
};
