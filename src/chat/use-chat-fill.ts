import { useMediaQuery } from '@mantine/hooks';
import { embedContext } from './embed-context.ts';

/** Whether the chat fills the whole screen: on a phone, and always inside the widget's iframe. */
export function useChatFill(): boolean {
  const phone = useMediaQuery('(max-width: 36em)', false) ?? false;
  return phone || embedContext.embedded;
}
