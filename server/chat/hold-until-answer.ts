import type { DeltaListener } from './chat-service.ts';
import { mayYetSayNoInformation } from './says-no-information.ts';

/**
 * A streamed answer is held back while it could still turn out to be the model's "no
 * information" phrase, which the bot's fallback then replaces: the visitor never sees that raw
 * text flicker before the fallback (issue 28 item 5). Once the text is too long to be judged so,
 * what was held goes out in one delta and the rest streams as it comes; a reply that never gets
 * there arrives only with the final conversation (the `done` event).
 */
export function holdUntilAnswer(onDelta: DeltaListener, phrases: readonly string[]): DeltaListener {
  let held = '';
  let open = false;
  return (text) => {
    if (open) return onDelta(text);
    held += text;
    if (mayYetSayNoInformation(held, phrases)) return;
    open = true;
    onDelta(held);
    held = '';
  };
}
